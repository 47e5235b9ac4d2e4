//===- GatherFolding.cpp - Folders and canonicalization ---------*- C++ -*-===//
//
// Everything here reasons about index values through GatherIndexing.h:
//  * fold: constant data and indices to a constant (bounded size); splat
//    data in a mode that cannot fail to a splat; indices that select every
//    element in place to the data itself;
//  * RelaxModeToUnchecked: indices provably in [-s, s) make every mode equal
//    to `unchecked` (constants, or InferIntRangeInterface on the producer);
//  * GatherToExtractSlice: constant indices that select one contiguous run
//    along the axis become tensor.extract_slice (+ tensor.expand_shape for
//    N-D indices);
//  * ComposeGathers: gather(gather(D, I1), I2) along the same axis becomes
//    gather(D, gather(I1, I2)).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherIndexing.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

using namespace mlir;
using namespace mlir::gather;

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

template <typename OpTy>
static OpFoldResult foldGatherLike(OpTy op, Attribute dataAttr,
                                   Attribute indicesAttr) {
  auto resultType = dyn_cast<RankedTensorType>(op.getType());
  auto dataType = dyn_cast<RankedTensorType>(op.getData().getType());
  if (!resultType || !resultType.hasStaticShape() || !dataType ||
      !dataType.hasStaticShape() ||
      !getCheckedNumElements(resultType.getShape()))
    return {};

  // Splat data: every index that selects something selects the splat value.
  // Only modes where every index selects something (and no error is lost).
  GatherMode mode = op.getMode();
  if (auto splat = dyn_cast_if_present<SplatElementsAttr>(dataAttr)) {
    bool alwaysSelects = mode == GatherMode::clamp ||
                         mode == GatherMode::wrap ||
                         mode == GatherMode::unchecked;
    if (alwaysSelects && !llvm::is_contained(dataType.getShape(), 0))
      return SplatElementsAttr::get(resultType,
                                    splat.getSplatValue<Attribute>());
  }

  // Bounded: fails at once on a result too large to fold.
  std::optional<ConstantIndices> indices =
      ConstantIndices::match(op.getIndices());
  if (!indices)
    return {};
  FailureOr<SmallVector<int64_t>> positions =
      computeSourcePositions(op, *indices);
  if (failed(positions))
    return {};

  // Every element read from its own position: the data itself.
  if (resultType == dataType &&
      llvm::all_of(llvm::enumerate(*positions), [](auto p) {
        return p.value() == static_cast<int64_t>(p.index());
      }))
    return op.getData();

  auto data = dyn_cast_if_present<DenseElementsAttr>(dataAttr);
  Type element = resultType.getElementType();
  if (!data || !element.isIntOrFloat())
    return {};
  auto values = data.getValues<Attribute>();
  Attribute zero = Builder(op.getContext()).getZeroAttr(element);
  SmallVector<Attribute> result;
  result.reserve(positions->size());
  for (int64_t pos : *positions)
    result.push_back(pos < 0 ? zero : values[pos]);
  return DenseElementsAttr::get(resultType, result);
}

//===----------------------------------------------------------------------===//
// RelaxModeToUnchecked
//===----------------------------------------------------------------------===//

/// The signed range of the elements of integer tensor `v`, from
/// InferIntRangeInterface on its producers (a few levels deep).
static std::optional<ConstantIntRanges> inferElementRange(Value v,
                                                          int depth = 0) {
  auto iface = dyn_cast_if_present<InferIntRangeInterface>(v.getDefiningOp());
  if (!iface || depth > 4)
    return std::nullopt;
  SmallVector<ConstantIntRanges> args;
  for (Value operand : iface->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrIndex())
      return std::nullopt;
    unsigned width = element.isIndex() ? IndexType::kInternalStorageBitWidth
                                       : element.getIntOrFloatBitWidth();
    std::optional<ConstantIntRanges> r = inferElementRange(operand, depth + 1);
    args.push_back(r ? *r : ConstantIntRanges::maxRange(width));
  }
  std::optional<ConstantIntRanges> result;
  iface.inferResultRanges(args, [&](Value res, const ConstantIntRanges &r) {
    if (res == v)
      result = r;
  });
  return result;
}

namespace {
/// Any of the three ops (a pattern on GatherOpInterface).
struct RelaxModeToUnchecked : OpInterfaceRewritePattern<GatherOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(GatherOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (op.getMode() == GatherMode::unchecked)
      return rewriter.notifyMatchFailure(op, "already unchecked");
    // Only known ranks say which data dimensions the index values select
    // along (gather_nd's tuple length is the last dimension of indices).
    FailureOr<GatherShape> shape = op.getGatherShape();
    auto data = dyn_cast<RankedTensorType>(op.getData().getType());
    if (failed(shape) || !shape->ranked || !data)
      return rewriter.notifyMatchFailure(op, "rank unknown");

    // The sizes of the data dimensions index values select along.
    int64_t components = shape->tupleSize;
    auto sizeOf = [&](int64_t c) {
      return data.getDimSize(shape->indexedDim(c));
    };
    for (int64_t c = 0; c < components; ++c)
      if (ShapedType::isDynamic(sizeOf(c)))
        return rewriter.notifyMatchFailure(op, "indexed size unknown");

    if (std::optional<ConstantIndices> indices =
            ConstantIndices::match(op.getIndices())) {
      for (auto [flat, value] :
           llvm::enumerate(indices->getValuesModulo(components))) {
        int64_t s = sizeOf(flat % components);
        if (!isInRange(value, value, s))
          return rewriter.notifyMatchFailure(op, "a constant is out of range");
      }
    } else {
      std::optional<ConstantIntRanges> range =
          inferElementRange(op.getIndices());
      if (!range)
        return rewriter.notifyMatchFailure(op, "index range unknown");
      int64_t lo = range->smin().getSExtValue();
      int64_t hi = range->smax().getSExtValue();
      for (int64_t c = 0; c < components; ++c)
        if (!isInRange(lo, hi, sizeOf(c)))
          return rewriter.notifyMatchFailure(op, "range exceeds the dim");
    }
    rewriter.modifyOpInPlace(op, [&] { op.setMode(GatherMode::unchecked); });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// GatherToExtractSlice
//===----------------------------------------------------------------------===//

struct GatherToExtractSlice : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<GatherShape> shape = op.getGatherShape();
    auto data = dyn_cast<RankedTensorType>(op.getData().getType());
    auto indicesType = dyn_cast<RankedTensorType>(op.getIndices().getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (failed(shape) || !data || !indicesType || !resultType ||
        shape->batchDims != 0 || !indicesType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not an unbatched gather");
    // tensor.extract_slice rejects every offset into a dimension of static
    // size 0, even one of a 0-size slice.
    if (llvm::is_contained(data.getShape(), 0))
      return rewriter.notifyMatchFailure(op, "data has a 0-size dimension");
    // A slice's linear offset must fit int64 (the lowering of its view
    // computes it): data whose static sizes alone overflow stays a gather.
    SmallVector<int64_t> staticSizes =
        llvm::map_to_vector(data.getShape(), [](int64_t d) {
          return ShapedType::isDynamic(d) ? int64_t(1) : d;
        });
    if (!getCheckedNumElements(staticSizes))
      return rewriter.notifyMatchFailure(op, "data's size overflows int64");
    int64_t a = shape->axis, s = data.getDimSize(a);
    std::optional<ConstantIndices> indices =
        ConstantIndices::match(op.getIndices());
    if (ShapedType::isDynamic(s) || !indices || indices->size() == 0)
      return rewriter.notifyMatchFailure(op, "indices not constant");

    // The positions selected must be one increasing run (the walk stops at
    // the second element of a larger splat).
    std::optional<int64_t> first;
    int64_t last = 0;
    for (int64_t v : indices->getValues()) {
      std::optional<int64_t> r = resolveIndex(v, s, op.getMode());
      if (!r || (first && *r != last + 1))
        return rewriter.notifyMatchFailure(op, "not a contiguous run");
      first = first.value_or(*r);
      last = *r;
    }
    int64_t runSize = indices->size();

    Location loc = op.getLoc();
    int64_t r = data.getRank();
    SmallVector<OpFoldResult> offsets(r, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, op.getData());
    SmallVector<OpFoldResult> strides(r, rewriter.getIndexAttr(1));
    offsets[a] = rewriter.getIndexAttr(*first);
    sizes[a] = rewriter.getIndexAttr(runSize);
    // A scalar index drops the axis: a rank-reducing slice.
    SmallVector<int64_t> sliceShape(data.getShape());
    sliceShape[a] = runSize;
    if (indicesType.getRank() == 0)
      sliceShape.erase(sliceShape.begin() + a);
    auto sliceType = RankedTensorType::get(sliceShape, data.getElementType());
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, sliceType, op.getData(), offsets, sizes, strides);
    // N-D indices: the run's dimension splits into the indices' shape.
    if (int64_t q = indicesType.getRank(); q > 1) {
      SmallVector<ReassociationIndices> groups;
      SmallVector<OpFoldResult> outputShape;
      SmallVector<int64_t> expandedShape;
      for (int64_t d = 0; d < r; ++d) {
        if (d != a) {
          groups.push_back({static_cast<int64_t>(outputShape.size())});
          outputShape.push_back(tensor::getMixedSize(rewriter, loc, slice, d));
          expandedShape.push_back(sliceShape[d]);
          continue;
        }
        ReassociationIndices group;
        for (int64_t size : indicesType.getShape()) {
          group.push_back(outputShape.size());
          outputShape.push_back(rewriter.getIndexAttr(size));
          expandedShape.push_back(size);
        }
        groups.push_back(group);
      }
      auto expandedType =
          RankedTensorType::get(expandedShape, data.getElementType());
      slice = tensor::ExpandShapeOp::create(rewriter, loc, expandedType, slice,
                                            groups, outputShape);
    }
    if (slice.getType() != resultType)
      slice = tensor::CastOp::create(rewriter, loc, resultType, slice);
    rewriter.replaceOp(op, slice);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ComposeGathers
//===----------------------------------------------------------------------===//

/// gather(gather(D, I1, axis a), I2, axis a) with 1-D I1 and no batch dims
/// reads D[.., I1[I2[..]], ..]: one gather of D by gather(I1, I2).
struct ComposeGathers : OpRewritePattern<GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatherOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getData().getDefiningOp<GatherOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(outer, "data is not a gather");
    FailureOr<GatherShape> outerShape = outer.getGatherShape();
    FailureOr<GatherShape> innerShape = inner.getGatherShape();
    auto firstIndices =
        dyn_cast<RankedTensorType>(inner.getIndices().getType());
    if (failed(outerShape) || failed(innerShape) || !outerShape->ranked ||
        !innerShape->ranked || outerShape->batchDims != 0 ||
        innerShape->batchDims != 0 || outerShape->axis != innerShape->axis ||
        !firstIndices || firstIndices.getRank() != 1)
      return rewriter.notifyMatchFailure(outer, "not the same 1-D axis");
    // The index gather must yield a position of I1 (no zero fill); the final
    // gather keeps the inner mode. An inner `check` would lose the errors of
    // the indices the outer gather never selects.
    GatherMode outerMode = outer.getMode(), innerMode = inner.getMode();
    if (outerMode == GatherMode::fill || innerMode == GatherMode::check)
      return rewriter.notifyMatchFailure(outer, "modes do not compose");
    if (firstIndices.getElementType().isIndex())
      return rewriter.notifyMatchFailure(outer, "index-typed I1 is not data");
    // Both new gathers must verify: a 0-size I1 or data axis, which the
    // original pair may hide behind a dynamic dimension, rejects the
    // composed indices in clamp and wrap mode.
    auto secondIndices = cast<ShapedType>(outer.getIndices().getType());
    FailureOr<GatherShape> composedShape = inferGatherShape(
        ShapeView::get(firstIndices), ShapeView::get(secondIndices),
        /*axis=*/0, /*batchDims=*/0, outerMode, nullptr);
    if (failed(composedShape) ||
        failed(inferGatherShape(
            ShapeView::get(cast<ShapedType>(inner.getData().getType())),
            ShapeView::get(
                composedShape->getResultType(firstIndices, secondIndices)),
            innerShape->axis, /*batchDims=*/0, innerMode, nullptr)))
      return rewriter.notifyMatchFailure(outer, "a composed gather is invalid");

    Location loc = outer.getLoc();
    Value composed =
        GatherOp::create(rewriter, loc, inner.getIndices(), outer.getIndices(),
                         /*axis=*/0, /*batch_dims=*/0, outerMode);
    rewriter.replaceOpWithNewOp<GatherOp>(
        outer, outer.getType(), inner.getData(), composed, innerShape->axis,
        /*batch_dims=*/0, innerMode);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Op hooks
//===----------------------------------------------------------------------===//

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  return foldGatherLike(*this, adaptor.getData(), adaptor.getIndices());
}
OpFoldResult GatherElementsOp::fold(FoldAdaptor adaptor) {
  return foldGatherLike(*this, adaptor.getData(), adaptor.getIndices());
}
OpFoldResult GatherNDOp::fold(FoldAdaptor adaptor) {
  return foldGatherLike(*this, adaptor.getData(), adaptor.getIndices());
}

void GatherDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<RelaxModeToUnchecked>(getContext());
}
void GatherOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<GatherToExtractSlice, ComposeGathers>(context);
}

void mlir::gather::populateGatherCanonicalizationPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  context->getLoadedDialect<GatherDialect>()->getCanonicalizationPatterns(
      patterns);
  GatherOp::getCanonicalizationPatterns(patterns, context);
}
