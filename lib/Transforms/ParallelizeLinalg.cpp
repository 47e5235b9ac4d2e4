//===- ParallelizeLinalg.cpp - gather-parallelize-linalg --------*- C++ -*-===//

#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERPARALLELIZELINALG
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// The bytes `op` writes, its init buffers' sizes: an attribute when their
/// shapes are static, else a value computed before `op` (the builder's
/// insertion point).
OpFoldResult writtenBytes(OpBuilder &b, linalg::LinalgOp op) {
  Location loc = op.getLoc();
  auto combine = [&](OpFoldResult x, OpFoldResult y, bool add) -> OpFoldResult {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (cx && cy) {
      // Saturated: static shapes may be any int64 (no buffer that large
      // exists, but the IR may say so).
      int64_t r;
      if (add ? llvm::AddOverflow(*cx, *cy, r) : llvm::MulOverflow(*cx, *cy, r))
        r = std::numeric_limits<int64_t>::max();
      return b.getIndexAttr(r);
    }
    if (cx && *cx == (add ? 0 : 1))
      return y;
    Value vx = getValueOrCreateConstantIndexOp(b, loc, x),
          vy = getValueOrCreateConstantIndexOp(b, loc, y);
    if (add)
      return arith::AddIOp::create(b, loc, vx, vy).getResult();
    return arith::MulIOp::create(b, loc, vx, vy).getResult();
  };
  OpFoldResult total = b.getIndexAttr(0);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto type = cast<MemRefType>(init.get().getType());
    OpFoldResult bytes =
        b.getIndexAttr(gather::getElementSizeInBytes(type.getElementType()));
    for (OpFoldResult size : memref::getMixedSizes(b, loc, init.get()))
      bytes = combine(bytes, size, /*add=*/false);
    total = combine(total, bytes, /*add=*/true);
  }
  return total;
}

/// Whether `op` can run on threads as it is: on buffers, in no loop, its
/// outermost loop parallel and indexing every init, its body without
/// effects (no calls, hooks or stores of its own), every init a memref of
/// sized elements.
bool isCandidate(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      op.getNumDpsInits() == 0 ||
      !linalg::isParallelIterator(op.getIteratorTypesArray().front()))
    return false;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return false;
  // Outer iterations write apart: each init is indexed by the outer loop's
  // induction variable itself.
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto type = dyn_cast<MemRefType>(init.get().getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        !llvm::is_contained(op.getMatchingIndexingMap(&init).getResults(),
                            getAffineDimExpr(0, op->getContext())))
      return false;
  }
  bool pure = true;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      if (!isMemoryEffectFree(inner))
        pure = false;
    });
  return pure;
}

/// `op` as its loop nest with the outermost loop an scf.parallel.
LogicalResult toParallelLoops(RewriterBase &rewriter, linalg::LinalgOp op) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::LinalgLoops> loops = linalg::linalgOpToLoops(rewriter, op);
  if (failed(loops) || loops->empty())
    return failure();
  rewriter.eraseOp(op);
  auto outer = dyn_cast<scf::ForOp>(loops->front());
  if (!outer || outer.getNumRegionIterArgs() != 0)
    return failure();
  rewriter.setInsertionPoint(outer);
  auto parallel = scf::ParallelOp::create(
      rewriter, outer.getLoc(), ValueRange{outer.getLowerBound()},
      ValueRange{outer.getUpperBound()}, ValueRange{outer.getStep()});
  Block *body = parallel.getBody();
  rewriter.eraseOp(body->getTerminator());
  Block *from = outer.getBody();
  rewriter.eraseOp(from->getTerminator());
  rewriter.mergeBlocks(from, body, parallel.getInductionVars());
  rewriter.setInsertionPointToEnd(body);
  scf::ReduceOp::create(rewriter, outer.getLoc());
  rewriter.eraseOp(outer);
  return success();
}

struct GatherParallelizeLinalgPass
    : gather::impl::GatherParallelizeLinalgBase<GatherParallelizeLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (isCandidate(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates) {
      rewriter.setInsertionPoint(op);
      OpFoldResult bytes = writtenBytes(rewriter, op);
      if (std::optional<int64_t> known = getConstantIntValue(bytes)) {
        if (*known >= parallelMinBytes && failed(toParallelLoops(rewriter, op)))
          return signalPassFailure();
        continue;
      }
      // Known at run time: threads for large results, the op otherwise.
      Location loc = op.getLoc();
      Value large = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, cast<Value>(bytes),
          arith::ConstantIndexOp::create(rewriter, loc, parallelMinBytes));
      auto choice = scf::IfOp::create(rewriter, loc, large,
                                      /*withElseRegion=*/true);
      rewriter.setInsertionPoint(choice.elseBlock()->getTerminator());
      rewriter.clone(*op);
      rewriter.setInsertionPoint(choice.thenBlock()->getTerminator());
      auto threaded = cast<linalg::LinalgOp>(rewriter.clone(*op));
      rewriter.eraseOp(op);
      if (failed(toParallelLoops(rewriter, threaded)))
        return signalPassFailure();
    }
  }
};

} // namespace
