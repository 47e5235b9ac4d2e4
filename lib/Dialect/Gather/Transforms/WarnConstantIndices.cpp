//===- WarnConstantIndices.cpp - gather-warn-constant-indices ---*- C++ -*-===//
//
// The ahead-of-time notice of an index error that check mode raises at run
// time. A warning, not an error: whether the gather runs is not known here.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "gather/Dialect/Gather/IR/GatherIndexing.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERWARNCONSTANTINDICES
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
struct GatherWarnConstantIndicesPass
    : gather::impl::GatherWarnConstantIndicesBase<
          GatherWarnConstantIndicesPass> {
  void runOnOperation() override {
    getOperation()->walk([](GatherOpInterface op) {
      if (std::optional<BadIndex> bad = findBadConstantIndex(op))
        op->emitWarning() << "'" << op->getName() << "' op " << bad->describe()
                          << " (an error if it runs)";
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
