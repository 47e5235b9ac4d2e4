//===- EliminateEmptyTensors.cpp - Results computed in their destination --===//
//
// See the pass's description in Passes.td. Replacing a tensor.empty (whose
// contents are unspecified) with the destination's contents is valid at the
// tensor level; One-Shot Bufferize then sees every path write the
// destination's buffer, and the materialization copies it onto itself.
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERELIMINATEEMPTYTENSORS
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// The tensor.empty ops `value` is an in-place update of along every path
/// (into `empties`), and the uses those paths go through (into `uses`);
/// false if some path starts elsewhere.
static bool collectPaths(Value value, SmallPtrSetImpl<Operation *> &empties,
                         SmallPtrSetImpl<OpOperand *> &uses) {
  if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) {
    empties.insert(empty);
    return true;
  }
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return false;
  Operation *op = result.getOwner();
  auto follow = [&](OpOperand *operand) {
    uses.insert(operand);
    return collectPaths(operand->get(), empties, uses);
  };
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (!ifOp.elseBlock())
      return false;
    for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
      if (!follow(
              &block->getTerminator()->getOpOperand(result.getResultNumber())))
        return false;
    return true;
  }
  if (auto forall = dyn_cast<scf::ForallOp>(op))
    return follow(forall.getTiedOpOperand(result));
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return dps.hasPureTensorSemantics() && follow(dps.getTiedOpOperand(result));
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return follow(&cast.getSourceMutable());
  return false;
}

struct GatherEliminateEmptyTensorsPass
    : gather::impl::GatherEliminateEmptyTensorsBase<
          GatherEliminateEmptyTensorsPass> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    SmallVector<bufferization::MaterializeInDestinationOp> sinks;
    getOperation()->walk([&](bufferization::MaterializeInDestinationOp sink) {
      sinks.push_back(sink);
    });
    for (bufferization::MaterializeInDestinationOp sink : sinks) {
      auto buffer = dyn_cast<MemRefType>(sink.getDest().getType());
      if (!buffer || !sink.getRestrict() || !sink.getWritable())
        continue;
      SmallPtrSet<Operation *, 2> empties;
      SmallPtrSet<OpOperand *, 8> uses;
      if (!collectPaths(sink.getSource(), empties, uses) || empties.size() != 1)
        continue;
      auto empty = cast<tensor::EmptyOp>(*empties.begin());
      if (!llvm::all_of(empty->getUses(),
                        [&](OpOperand &use) { return uses.contains(&use); }) ||
          !dominance.properlyDominates(sink.getDest(), empty))
        continue;
      OpBuilder b(empty);
      Location loc = empty.getLoc();
      Value contents = bufferization::ToTensorOp::create(
          b, loc, empty.getType().clone(buffer.getShape()), sink.getDest(),
          /*restrict=*/true, /*writable=*/true);
      if (contents.getType() != empty.getType())
        contents = tensor::CastOp::create(b, loc, empty.getType(), contents);
      empty.replaceAllUsesWith(contents);
      empty.erase();
    }
  }
};

} // namespace
