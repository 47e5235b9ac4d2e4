//===- ShardPartition.cpp - gather-shard-partition --------------*- C++ -*-===//
//
// Upstream's sharding-propagation and shard-partition, on the functions
// that have a body (shard-partition rejects declarations), with a check
// of the gather ops' annotations in between.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Dialect/Gather/Transforms/ShardingInterfaceImpl.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERSHARDPARTITION
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
static OpPassManager buildPropagationPipeline() {
  OpPassManager pm(func::FuncOp::getOperationName());
  pm.addPass(shard::createShardingPropagation());
  return pm;
}

static OpPassManager buildPartitionPipeline() {
  OpPassManager pm(func::FuncOp::getOperationName());
  pm.addPass(shard::createPartition());
  return pm;
}

/// Whether every shard.sharding of `func` splits over grid axes that exist
/// and hold processes. Upstream's verifier does not check the axes against
/// the grid's rank; LLVM 22's shard-partition then builds collectives over
/// a missing axis (IR that does not verify), and divides each split dim by
/// its number of processes, by zero for a grid axis of size 0.
static LogicalResult verifySplitAxes(func::FuncOp func) {
  SymbolTableCollection symbolTable;
  WalkResult result = func.walk([&](shard::ShardingOp sharding) {
    shard::GridOp grid =
        shard::getGridOrNull(sharding, sharding.getGridAttr(), symbolTable);
    if (!grid)
      return WalkResult::advance();
    for (shard::GridAxesAttr axes : sharding.getSplitAxes().getAxes()) {
      for (shard::GridAxis axis : axes.asArrayRef())
        if (axis < 0 || axis >= grid.getRank()) {
          sharding.emitOpError("uses grid axis ")
              << axis << ", which grid @" << grid.getSymName() << " of rank "
              << grid.getRank() << " does not have";
          return WalkResult::interrupt();
        }
      if (shard::collectiveProcessGroupSize(axes.asArrayRef(), grid) == 0) {
        sharding.emitOpError("splits a dim over grid axes of size 0, which "
                             "hold no process");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct GatherShardPartitionPass
    : gather::impl::GatherShardPartitionBase<GatherShardPartitionPass> {
  void runOnOperation() override {
    OpPassManager propagation = buildPropagationPipeline();
    OpPassManager partition = buildPartitionPipeline();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      // A function without shard ops has nothing to partition (and may hold
      // ops that no sharding rule knows, such as mpi.init).
      bool sharded = func.walk([](Operation *op) {
                           return isa<shard::ShardDialect>(op->getDialect())
                                      ? WalkResult::interrupt()
                                      : WalkResult::advance();
                         })
                         .wasInterrupted();
      if (func.isExternal() || !sharded)
        continue;
      if (failed(runPipeline(propagation, func)))
        return signalPassFailure();
      // The gather ops refuse what upstream's partition would crash on.
      if (failed(verifySplitAxes(func)))
        return signalPassFailure();
      if (func.walk([](Operation *op) {
                return failed(verifyPartitionableShardings(op))
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted())
        return signalPassFailure();
      if (failed(runPipeline(partition, func)))
        return signalPassFailure();
    }
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    GatherShardPartitionBase::getDependentDialects(registry);
    buildPropagationPipeline().getDependentDialects(registry);
    buildPartitionPipeline().getDependentDialects(registry);
  }
};
} // namespace
