//===- TensorToGather.cpp - Raise tensor.gather into gather ops -*- C++ -*-===//
//
// Upstream tensor.gather has no bufferization and no lowering in MLIR 22
// (llvm-project#119805). Its semantics are gather_nd's on data whose
// gather_dims lead: out[b..., rest...] = source[dims from indices[b..., :]
// at gather_dims, rest elsewhere]. So the rewrite is a transpose that brings
// gather_dims to the front (when they are not already), a gather.gather_nd,
// and an expand_shape that puts back the unit dims of a result that is not
// rank-reduced.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTTENSORTOGATHER
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// Whether the gather ops take data of element type `t`.
static bool isGatherDataElement(Type t) {
  if (auto complex = dyn_cast<ComplexType>(t))
    return complex.getElementType().isF32() || complex.getElementType().isF64();
  return t.isSignlessInteger() || t.isF16() || t.isBF16() || t.isF32() ||
         t.isF64();
}

/// gather_dims first, in order; the other dims keep their order.
static SmallVector<int64_t> gatherDimsFirst(tensor::GatherOp op) {
  SmallVector<int64_t> permutation(op.getGatherDims());
  for (int64_t d = 0; d < op.getSourceType().getRank(); ++d)
    if (!llvm::is_contained(op.getGatherDims(), d))
      permutation.push_back(d);
  return permutation;
}

/// The gather_nd rules on the operands the rewrite would give it: with
/// `mode` they may reject statically known cases (an index into an empty dim
/// in check mode), which must be a diagnostic, not a failed builder or an op
/// that does not verify. Coordinate values are not looked at: a constant one
/// out of range is the raised op's run-time error, as for any gather.
static LogicalResult checkRaisedShape(tensor::GatherOp op, GatherMode mode,
                                      ShapeErrorFn report) {
  RankedTensorType source = op.getSourceType();
  auto data = RankedTensorType::get(
      applyPermutation(source.getShape(), gatherDimsFirst(op)),
      source.getElementType());
  auto indices = cast<RankedTensorType>(op.getIndices().getType())
                     .clone(IntegerType::get(op.getContext(), 64));
  return inferGatherNDShape(ShapeView::get(data), ShapeView::get(indices),
                            /*batchDims=*/0, mode, report);
}

namespace {
struct RaiseTensorGather : OpRewritePattern<tensor::GatherOp> {
  RaiseTensorGather(MLIRContext *context, GatherMode mode)
      : OpRewritePattern(context), mode(mode) {}

  LogicalResult matchAndRewrite(tensor::GatherOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType sourceType = op.getSourceType();
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    RankedTensorType resultType = op.getResultType();
    ArrayRef<int64_t> gatherDims = op.getGatherDims();
    int64_t r = sourceType.getRank(), q = indicesType.getRank();
    int64_t k = gatherDims.size();
    if (!isGatherDataElement(sourceType.getElementType()))
      return rewriter.notifyMatchFailure(
          op, "gather ops do not take data of this element type");

    // Coordinates: the widths the gather ops take as they are; narrower odd
    // widths sign-extended (values are signed, as upstream reads them).
    Value indices = op.getIndices();
    Type indexElement = indicesType.getElementType();
    if (auto intType = dyn_cast<IntegerType>(indexElement)) {
      unsigned width = intType.getWidth();
      if (width > 64)
        return rewriter.notifyMatchFailure(op, "coordinates wider than i64");
      if (width != 8 && width != 16 && width != 32 && width != 64)
        indices = arith::ExtSIOp::create(
            rewriter, loc, indicesType.clone(rewriter.getI64Type()), indices);
    }

    if (failed(checkRaisedShape(op, mode, nullptr)))
      return rewriter.notifyMatchFailure(op, "gather_nd's rules reject it");

    // Bring gather_dims to the front, in order; the rest keep their order.
    SmallVector<int64_t> permutation = gatherDimsFirst(op);
    Value data = op.getSource();
    if (!llvm::equal(permutation, llvm::seq<int64_t>(0, r))) {
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, data);
      Value init = tensor::EmptyOp::create(rewriter, loc,
                                           applyPermutation(sizes, permutation),
                                           sourceType.getElementType());
      data = linalg::TransposeOp::create(rewriter, loc, data, init, permutation)
                 .getResult()[0];
    }

    // indices.shape[:-1] + the dims not gathered: the rank-reduced result.
    auto gatherND = GatherNDOp::create(rewriter, loc, data, indices,
                                       /*batch_dims=*/0, mode);
    Value result = gatherND.getResult();

    int64_t reducedRank = (q - 1) + (r - k);
    if (resultType.getRank() != reducedRank) {
      // Unit dims at (q - 1) + gather_dims[i]: each joins the group of the
      // next kept dim, or of the last one when none follows.
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      SmallVector<OpFoldResult> reducedSizes =
          tensor::getMixedSizes(rewriter, loc, result);
      SmallVector<OpFoldResult> outputShape;
      int64_t kept = 0;
      for (int64_t f = 0; f < resultType.getRank(); ++f) {
        bool unit = f >= q - 1 && llvm::is_contained(gatherDims, f - (q - 1));
        if (unit) {
          pending.push_back(f);
          outputShape.push_back(rewriter.getIndexAttr(1));
          continue;
        }
        pending.push_back(f);
        groups.push_back(std::move(pending));
        pending.clear();
        outputShape.push_back(reducedSizes[kept++]);
      }
      if (!groups.empty())
        llvm::append_range(groups.back(), pending);
      // Static where the gather_nd result is (shape inference may know more
      // than the declared type); a cast below gives the declared type.
      SmallVector<int64_t> shape;
      for (OpFoldResult size : outputShape)
        shape.push_back(
            getConstantIntValue(size).value_or(ShapedType::kDynamic));
      auto expandedType =
          RankedTensorType::get(shape, sourceType.getElementType());
      result = tensor::ExpandShapeOp::create(rewriter, loc, expandedType,
                                             result, groups, outputShape);
    }
    if (result.getType() != resultType)
      result = tensor::CastOp::create(rewriter, loc, resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }

  GatherMode mode;
};

struct ConvertTensorToGatherPass
    : gather::impl::ConvertTensorToGatherBase<ConvertTensorToGatherPass> {
  using Base::Base;

  void runOnOperation() override {
    // What the rules reject statically (every coordinate into an empty dim
    // in check mode) is an error here, as it is for the gather ops.
    WalkResult rejected = getOperation()->walk([&](tensor::GatherOp op) {
      if (!isGatherDataElement(op.getSourceType().getElementType()))
        return WalkResult::advance();
      return WalkResult(checkRaisedShape(op, mode, [&](const Twine &message) {
        return op.emitOpError("cannot be raised to gather.gather_nd: ")
               << message;
      }));
    });
    if (rejected.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateTensorToGatherPatterns(patterns, mode);
    // One walk, no folding: every tensor.gather is rewritten once.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::gather::populateTensorToGatherPatterns(RewritePatternSet &patterns,
                                                  GatherMode mode) {
  patterns.add<RaiseTensorGather>(patterns.getContext(), mode);
}
