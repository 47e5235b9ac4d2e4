//===- FlattenLinalg.cpp - The gather-flatten-linalg pass -------*- C++ -*-===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFLATTENLINALG
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// The dims of `op` with its innermost ones that every operand holds
/// contiguously as one group; empty when fewer than two such dims (or `op`
/// is not an elementwise copy or generic on buffers).
SmallVector<ReassociationIndices> flatDims(linalg::LinalgOp op) {
  if (!isa<linalg::CopyOp, linalg::GenericOp>(op) ||
      !op.hasPureBufferSemantics() ||
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
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<ReassociationIndices> groups = flatDims(op);
      if (groups.empty())
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, groups, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
