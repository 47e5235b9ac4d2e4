//===- FlattenLinalg.cpp - The gather-flatten-linalg pass -------*- C++ -*-===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFLATTENLINALG
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// The dims of `op` (a linalg.copy or linalg.generic: the ops upstream's
/// collapsing patterns take) with its innermost ones that every operand holds
/// contiguously as one group; empty when fewer than two such dims or `op` is
/// not elementwise on buffers.
SmallVector<ReassociationIndices> flatDims(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops() || op.getNumLoops() < 2 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return {};
  int64_t rank = op.getNumLoops();
  auto grouped = [&](int64_t first) {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < first; ++d)
      groups.push_back({d});
    groups.emplace_back(llvm::to_vector(llvm::seq<int64_t>(first, rank)));
    return groups;
  };
  auto contiguous = [&](ArrayRef<ReassociationIndices> groups) {
    return llvm::all_of(op->getOperands(), [&](Value operand) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      return type &&
             memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups);
    });
  };
  // The outermost first dim of a contiguous innermost group.
  int64_t first = rank - 1;
  while (first > 0 && contiguous(grouped(first - 1)))
    --first;
  if (first == rank - 1)
    return {};
  return grouped(first);
}

struct GatherFlattenLinalgPass
    : gather::impl::GatherFlattenLinalgBase<GatherFlattenLinalgPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateCollapseDimensions(patterns, flatDims);
    // One walk: each op is flattened once, nothing else is folded.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
