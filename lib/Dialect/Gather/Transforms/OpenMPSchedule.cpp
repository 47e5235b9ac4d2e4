//===- OpenMPSchedule.cpp - The gather-openmp-schedule pass -----*- C++ -*-===//

#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEROPENMPSCHEDULE
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// Whether `value` is computed within `loop` from something read from
/// memory there.
static bool readInside(Value value, Operation *loop) {
  Operation *def = value.getDefiningOp();
  if (!def || !loop->isProperAncestor(def))
    return false;
  BackwardSliceOptions options;
  options.filter = [&](Operation *op) { return loop->isProperAncestor(op); };
  options.omitBlockArguments = true;
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(def, &slice, options)))
    return true; // Not understood: as if it were.
  slice.insert(def);
  return llvm::any_of(slice, [](Operation *op) {
    return hasEffect<MemoryEffects::Read>(op);
  });
}

namespace {
struct GatherOpenMPSchedulePass
    : gather::impl::GatherOpenMPScheduleBase<GatherOpenMPSchedulePass> {
  void runOnOperation() override {
    getOperation()->walk([](omp::WsloopOp loop) {
      if (loop.getScheduleKind())
        return;
      bool uneven = loop->walk([&](scf::ForOp inner) {
                          if (readInside(inner.getLowerBound(), loop) ||
                              readInside(inner.getUpperBound(), loop))
                            return WalkResult::interrupt();
                          return WalkResult::advance();
                        })
                        .wasInterrupted();
      if (uneven)
        loop.setScheduleKind(omp::ClauseScheduleKind::Guided);
    });
  }
};
} // namespace
