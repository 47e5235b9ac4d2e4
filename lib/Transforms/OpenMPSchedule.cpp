//===- OpenMPSchedule.cpp - The gather-openmp-schedule pass -----*- C++ -*-===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEROPENMPSCHEDULE
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherOpenMPSchedulePass
    : gather::impl::GatherOpenMPScheduleBase<GatherOpenMPSchedulePass> {
  void runOnOperation() override {
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
