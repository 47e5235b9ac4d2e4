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

/// Whether `value` differs from one iteration of `nest` to the next by
/// what memory holds: it is computed within the loop from a read (of any
/// op within, nested ones included, that may read) and from the loop's
/// induction variables (a bound read once per loop is the same for all).
static bool readPerIteration(Value value, omp::LoopNestOp nest) {
  Operation *def = value.getDefiningOp();
  if (!def || !nest->isProperAncestor(def))
    return false;
  BackwardSliceOptions options;
  options.filter = [&](Operation *op) { return nest->isProperAncestor(op); };
  options.omitUsesFromAbove = false;
  options.inclusive = true;
  SetVector<Operation *> slice;
  if (failed(getBackwardSlice(def, &slice, options)))
    return true; // Not understood: as if it did.
  ArrayRef<BlockArgument> ivs = nest.getIVs();
  bool reads = false, perIteration = false;
  for (Operation *op : slice)
    op->walk([&](Operation *inner) {
      if (!inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
          mightHaveEffect<MemoryEffects::Read>(inner))
        reads = true;
      for (Value operand : inner->getOperands())
        if (llvm::is_contained(ivs, operand))
          perIteration = true;
    });
  return reads && perIteration;
}

namespace {
struct GatherOpenMPSchedulePass
    : gather::impl::GatherOpenMPScheduleBase<GatherOpenMPSchedulePass> {
  void runOnOperation() override {
    getOperation()->walk([](omp::WsloopOp loop) {
      auto nest = dyn_cast_or_null<omp::LoopNestOp>(loop.getWrappedLoop());
      if (loop.getScheduleKind() || !nest)
        return;
      bool uneven = nest->walk([&](scf::ForOp inner) {
                          if (readPerIteration(inner.getLowerBound(), nest) ||
                              readPerIteration(inner.getUpperBound(), nest))
                            return WalkResult::interrupt();
                          return WalkResult::advance();
                        })
                        .wasInterrupted();
      if (uneven)
        loop.setScheduleKind(omp::ClauseScheduleKind::Guided);
    });
    // A worksharing loop that ends its parallel region waits for the team
    // at the region's end: its own barrier is a second one.
    getOperation()->walk([](omp::WsloopOp loop) {
      Operation *next = loop->getNextNode();
      if (isa_and_nonnull<omp::TerminatorOp>(next) &&
          isa<omp::ParallelOp>(loop->getParentOp()) &&
          loop.getReductionVars().empty())
        loop.setNowait(true);
    });
  }
};
} // namespace
