//===- TilingInterfaceImpl.cpp - TilingInterface for the gather ops -------===//
//
// A gather's iteration domain is its result, every dimension parallel. A tile
// of the result reads the indices at the tile's positions along the result
// dims that come from them (gather_nd's tuple dim whole) and data at the
// tile's positions along the dims a result position reads at the same
// position (GatherShape's readDataDim), the gathered dims whole. So a tile is
// the same op on two slices: index values keep their meaning, and every mode
// holds per tile. Destinations come from shape reification (tensor.empty), as
// for upstream's tensor.pad: the ops keep their value-semantics form.
// Operands whose shapes break a rule the verifier could not check fail the
// tile's own run-time check, whose message names the tile's sizes.
//
// An embedding bag's iteration domain is its result [bags, dim], both
// parallel. A tile along dim reads those columns of a float table (a
// quantized row cannot be cut apart from its scale and bias, or its blocks'
// scales and zero points: its tile computes whole rows and slices them). A
// tile of fixed-length bags reads those rows of ids (and of
// per_sample_weights); a tile of bags with offsets reads the ids from the
// tile's first bag to its last bag's end and offsets rebased to them (the
// first tile's are not rebased, so offsets[0] is still checked). Results of
// valid operands are the untiled op's, in every mode, and a check failure
// names the same id; offsets that break a rule are still an error, named by
// the tile's rebased offsets. Offsets with include_last_offset that give no
// bag (none, or one) still break or keep rules: the domain then has one bag
// that is none of the result's, whose tile checks them.
//
// A scatter's iteration domain is its updates; the dims of index positions
// are reductions (ScatterTiling says how tiles stay deterministic).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/TilingInterfaceImpl.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;
using namespace mlir::gather;

namespace {

/// `size` elements from `offset` along dim `d` of `source`, cut to what
/// `source` has: a shape rule that the verifier could not check (a dynamic
/// batch dim of the other operand, gather_elements' data no smaller than
/// its indices) then fails in the tiled op's own run-time check instead of
/// the slice reading out of bounds. Where the rule is that `source`'s dim
/// equals the domain's (`mustMatch`: batch dims, per_sample_weights beside
/// fixed-length bags), the domain's last tile takes all `source` has from
/// `offset` on, so that a `source` longer than the domain fails that
/// check too.
static OpFoldResult sizeWithin(OpBuilder &b, Location loc, Value source,
                               int64_t d, OpFoldResult offset,
                               OpFoldResult size, OpFoldResult domainSize,
                               bool mustMatch = false) {
  auto type = cast<RankedTensorType>(source.getType());
  std::optional<int64_t> staticDomain = getConstantIntValue(domainSize);
  if (!type.isDynamicDim(d) && staticDomain &&
      (mustMatch ? type.getDimSize(d) == *staticDomain
                 : type.getDimSize(d) >= *staticDomain))
    return size;
  // The domain's size is this very dim (reification read it): nothing to cut.
  if (auto value = dyn_cast<Value>(domainSize))
    if (auto dimOp = value.getDefiningOp<tensor::DimOp>())
      if (dimOp.getSource() == source &&
          getConstantIntValue(dimOp.getIndex()) == d)
        return size;
  MLIRContext *ctx = b.getContext();
  AffineExpr s0 = getAffineSymbolExpr(0, ctx), s1 = getAffineSymbolExpr(1, ctx);
  OpFoldResult dimSize = tensor::getMixedSize(b, loc, source, d);
  // max(dim - offset, 0): what is left of `source` from the offset on.
  OpFoldResult left = affine::makeComposedFoldedAffineMax(
      b, loc,
      AffineMap::get(0, 2, {s1 - s0, getAffineConstantExpr(0, ctx)}, ctx),
      {offset, dimSize});
  OpFoldResult within = affine::makeComposedFoldedAffineMin(
      b, loc, AffineMap::get(0, 2, {s0, s1}, ctx), {size, left});
  if (!mustMatch)
    return within;
  OpFoldResult end =
      affine::makeComposedFoldedAffineApply(b, loc, s0 + s1, {offset, size});
  Value last = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::sge,
      getValueOrCreateConstantIndexOp(b, loc, end),
      getValueOrCreateConstantIndexOp(b, loc, domainSize));
  return arith::SelectOp::create(
             b, loc, last, getValueOrCreateConstantIndexOp(b, loc, left),
             getValueOrCreateConstantIndexOp(b, loc, within))
      .getResult();
}

/// Where a tile of `domain` (offsets, sizes) sits in `source`: the tile
/// along the dims `dimOf` maps domain dims to, whole along the others.
/// `mustMatch` says where `source`'s dim must equal the domain's
/// (sizeWithin).
struct SliceOfSource {
  SmallVector<OpFoldResult> offsets, sizes;
};
template <typename DimOf, typename MustMatch>
static SliceOfSource
tileInSource(OpBuilder &b, Location loc, Value source, const GatherShape &shape,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
             ArrayRef<Range> domain, DimOf dimOf, MustMatch mustMatch) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  SliceOfSource tile{
      SmallVector<OpFoldResult>(sourceType.getRank(), b.getIndexAttr(0)),
      tensor::getMixedSizes(b, loc, source)};
  for (auto [r, src] : llvm::enumerate(shape.dims)) {
    int64_t d = dimOf(src);
    if (d < 0)
      continue;
    tile.offsets[d] = offsets[r];
    tile.sizes[d] = sizeWithin(b, loc, source, d, offsets[r], sizes[r],
                               domain[r].size, mustMatch(src));
  }
  return tile;
}

/// The slice `tile` of `source`. A source with a static empty dim has no
/// element to slice (and a slice at offset 0 of a dim of size 0 does not
/// verify): its tile is an empty tensor of the tile's sizes.
static TypedValue<RankedTensorType>
sliceAt(OpBuilder &b, Location loc, Value source, const SliceOfSource &tile) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (llvm::is_contained(sourceType.getShape(), 0))
    return tensor::EmptyOp::create(b, loc, tile.sizes,
                                   sourceType.getElementType())
        .getResult();
  SmallVector<OpFoldResult> strides(sourceType.getRank(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, source, tile.offsets,
                                        tile.sizes, strides)
      .getResult();
}

/// The slice of `source` that a tile of `domain` reads (tileInSource).
template <typename DimOf, typename MustMatch>
static TypedValue<RankedTensorType>
sliceForTile(OpBuilder &b, Location loc, Value source, const GatherShape &shape,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
             ArrayRef<Range> domain, DimOf dimOf, MustMatch mustMatch) {
  return sliceAt(b, loc, source,
                 tileInSource(b, loc, source, shape, offsets, sizes, domain,
                              dimOf, mustMatch));
}

/// Casts the tile `result` holds to the type `sizes` give (static where
/// they are constant), which the insert_slice of the tile into its
/// destination expects.
static void castTileToSizes(OpBuilder &b, Location loc, TilingResult &result,
                            ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> staticSizes;
  SmallVector<Value> dynamicSizes;
  dispatchIndexOpFoldResults(sizes, dynamicSizes, staticSizes);
  Value tile = result.tiledValues[0];
  auto expected =
      RankedTensorType::get(staticSizes, getElementTypeOrSelf(tile.getType()));
  if (expected == tile.getType())
    return;
  auto cast = tensor::CastOp::create(b, loc, expected, tile);
  result.tiledOps.push_back(cast);
  result.tiledValues[0] = cast;
}

/// Where a tile of the domain sits in the result (sliceOffsetInto each of
/// its dims).
static SmallVector<OpFoldResult>
resultTileOffsets(Operation *op, OpBuilder &b, ArrayRef<OpFoldResult> offsets) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> result(offsets);
  if (!type || type.getRank() != static_cast<int64_t>(offsets.size()))
    return result;
  for (auto [d, offset] : llvm::enumerate(result))
    offset = sliceOffsetInto(b, op->getLoc(), offset, type.getDimSize(d));
  return result;
}

/// What every op's model shares: the iteration domain is the result's dims
/// (by reification), all parallel, and a tile of the domain is that tile of
/// the result. `Model` implements getTiledImplementation.
template <typename Model, typename OpTy>
struct ResultDomainTiling : TilingInterface::ExternalModel<Model, OpTy> {
  /// Ranked operands and result: an op with an unranked one has no
  /// iteration domain (its shape cannot be reified) and no loops.
  static bool hasDomain(Operation *op) {
    return llvm::all_of(op->getOperandTypes(),
                        llvm::IsaPred<RankedTensorType>) &&
           isa<RankedTensorType>(op->getResult(0).getType());
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    if (!hasDomain(op))
      return {};
    return SmallVector<utils::IteratorType>(
        cast<RankedTensorType>(op->getResult(0).getType()).getRank(),
        utils::IteratorType::parallel);
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    ReifiedRankedShapedTypeDims reified;
    if (!hasDomain(op) || failed(reifyResultShapes(b, op, reified)))
      return {};
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    return llvm::map_to_vector(
        reified[0], [&](OpFoldResult size) { return Range{zero, size, one}; });
  }

  LogicalResult getResultTilePosition(
      Operation *op, OpBuilder &b, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
      SmallVector<OpFoldResult> &resultSizes) const {
    resultOffsets = resultTileOffsets(op, b, offsets);
    resultSizes.assign(sizes.begin(), sizes.end());
    return success();
  }

  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    return static_cast<const Model *>(this)->getTiledImplementation(
        op, b, offsets, sizes);
  }

  /// The tile of the domain that `Model` says the operand tiles read (its
  /// getIterationDomainTileFromOperandTiles), tiled.
  FailureOr<TilingResult> getTiledImplementationFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes) const {
    auto *model = static_cast<const Model *>(this);
    SmallVector<OpFoldResult> offsets, sizes;
    if (failed(model->getIterationDomainTileFromOperandTiles(
            op, b, operandNumbers, allOffsets, allSizes, offsets, sizes)))
      return failure();
    return model->getTiledImplementation(op, b, offsets, sizes);
  }
};

template <typename OpTy>
struct GatherTiling : ResultDomainTiling<GatherTiling<OpTy>, OpTy> {
  using ResultDomainTiling<GatherTiling<OpTy>, OpTy>::getIterationDomain;

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    auto gatherOp = cast<OpTy>(op);
    FailureOr<GatherShape> shape = gatherOp.getGatherShape();
    auto resultType = dyn_cast<RankedTensorType>(gatherOp.getType());
    if (failed(shape) || !shape->ranked || !resultType ||
        !isa<RankedTensorType>(gatherOp.getData().getType()) ||
        !isa<RankedTensorType>(gatherOp.getIndices().getType()))
      return failure();
    Location loc = op->getLoc();
    SmallVector<Range> domain = getIterationDomain(op, b);
    if (domain.size() != sizes.size())
      return failure();

    // A batch dim, where data and indices must have the domain's size
    // (gather_elements' dims off the axis read data, where data may be
    // longer, but come from the indices alone).
    auto batch = [](const ResultDimSource &src) {
      return src.dataDim >= 0 && src.indicesDim >= 0;
    };
    auto dataSlice = sliceForTile(
        b, loc, gatherOp.getData(), *shape, offsets, sizes, domain,
        [](const ResultDimSource &src) { return src.readDataDim; }, batch);
    auto indicesSlice = sliceForTile(
        b, loc, gatherOp.getIndices(), *shape, offsets, sizes, domain,
        [](const ResultDimSource &src) { return src.indicesDim; }, batch);

    FailureOr<GatherShape> tileShape =
        gatherOp.getGatherShapeFor(dataSlice.getType(), indicesSlice.getType());
    if (failed(tileShape))
      return failure();
    Type tileType =
        tileShape->getResultType(dataSlice.getType(), indicesSlice.getType());
    Operation *tiled =
        mlir::clone(b, op, {tileType}, {dataSlice, indicesSlice});
    TilingResult result{
        {tiled},
        {tiled->getResult(0)},
        {dataSlice.getDefiningOp(), indicesSlice.getDefiningOp()}};
    castTileToSizes(b, loc, result, sizes);
    return result;
  }

  /// A tile of the indices (operand 1) fixes the result's positions along
  /// the dims that come from them; the result's other dims, which come from
  /// data only, are taken whole. gather_nd's tuple dim must be whole. A tile
  /// of data is not a tile of the result (the gathered dims are read
  /// anywhere): failure.
  LogicalResult getIterationDomainTileFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes,
      SmallVectorImpl<OpFoldResult> &iterDomainOffsets,
      SmallVectorImpl<OpFoldResult> &iterDomainSizes) const {
    if (operandNumbers.size() != 1 || operandNumbers[0] != 1)
      return failure();
    auto gatherOp = cast<OpTy>(op);
    FailureOr<GatherShape> shape = gatherOp.getGatherShape();
    auto indicesType =
        dyn_cast<RankedTensorType>(gatherOp.getIndices().getType());
    if (failed(shape) || !shape->ranked || !indicesType)
      return failure();
    ArrayRef<OpFoldResult> offsets = allOffsets[0], sizes = allSizes[0];
    SmallVector<bool> covered(indicesType.getRank(), false);
    SmallVector<Range> domain = getIterationDomain(op, b);
    if (domain.size() != shape->dims.size())
      return failure();
    iterDomainOffsets.clear();
    iterDomainSizes.clear();
    for (auto [src, range] : llvm::zip_equal(shape->dims, domain)) {
      if (src.indicesDim < 0) {
        iterDomainOffsets.push_back(range.offset);
        iterDomainSizes.push_back(range.size);
        continue;
      }
      covered[src.indicesDim] = true;
      iterDomainOffsets.push_back(offsets[src.indicesDim]);
      iterDomainSizes.push_back(sizes[src.indicesDim]);
    }
    // A dim of the indices that no result dim follows (gather_nd's tuples)
    // is read whole by every tile.
    for (int64_t d = 0; d < indicesType.getRank(); ++d) {
      if (covered[d])
        continue;
      OpFoldResult whole =
          tensor::getMixedSize(b, op->getLoc(), gatherOp.getIndices(), d);
      if (!isZeroInteger(offsets[d]) ||
          !isEqualConstantIntOrValue(sizes[d], whole))
        return failure();
    }
    return success();
  }
};

struct EmbeddingBagTiling
    : ResultDomainTiling<EmbeddingBagTiling, EmbeddingBagOp> {
  using Base = ResultDomainTiling<EmbeddingBagTiling, EmbeddingBagOp>;

  /// Offsets with include_last_offset that give no bag (none, or one)
  /// still have rules to check when the op runs (unless unchecked): the
  /// domain then has one bag more than the result, whose tile computes no
  /// bag of it and checks them.
  static bool checksWithoutBags(EmbeddingBagOp op) {
    return op.getOffsets() && op.getIncludeLastOffset() &&
           op.getMode() != GatherMode::unchecked;
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    SmallVector<Range> domain = Base::getIterationDomain(op, b);
    if (domain.size() != 2 || !checksWithoutBags(cast<EmbeddingBagOp>(op)))
      return domain;
    MLIRContext *ctx = b.getContext();
    domain[0].size = affine::makeComposedFoldedAffineMax(
        b, op->getLoc(),
        AffineMap::get(
            0, 1, {getAffineSymbolExpr(0, ctx), getAffineConstantExpr(1, ctx)},
            ctx),
        {domain[0].size});
    return domain;
  }

  /// The bags of the result that the domain's tile of `size` bags from
  /// `offset` computes: all of them but past the result's last bag.
  static OpFoldResult resultBags(Operation *op, OpBuilder &b,
                                 OpFoldResult offset, OpFoldResult size) {
    if (!checksWithoutBags(cast<EmbeddingBagOp>(op)))
      return size;
    ReifiedRankedShapedTypeDims reified;
    if (failed(reifyResultShapes(b, op, reified)))
      return size;
    Location loc = op->getLoc();
    MLIRContext *ctx = b.getContext();
    AffineExpr s0 = getAffineSymbolExpr(0, ctx),
               s1 = getAffineSymbolExpr(1, ctx);
    OpFoldResult left = affine::makeComposedFoldedAffineMax(
        b, loc,
        AffineMap::get(0, 2, {s1 - s0, getAffineConstantExpr(0, ctx)}, ctx),
        {offset, reified[0][0]});
    return affine::makeComposedFoldedAffineMin(
        b, loc, AffineMap::get(0, 2, {s0, s1}, ctx), {size, left});
  }

  LogicalResult getResultTilePosition(
      Operation *op, OpBuilder &b, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
      SmallVector<OpFoldResult> &resultSizes) const {
    if (sizes.size() != 2)
      return failure();
    resultOffsets = resultTileOffsets(op, b, offsets);
    resultSizes.assign(sizes.begin(), sizes.end());
    resultSizes[0] = resultBags(op, b, offsets[0], sizes[0]);
    return success();
  }

  /// A tile of the result (fusion): the domain's tile at the same place,
  /// of the type its sizes give.
  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    FailureOr<TilingResult> result =
        getTiledImplementation(op, b, offsets, sizes);
    if (failed(result))
      return failure();
    castTileToSizes(b, op->getLoc(), *result, sizes);
    return result;
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    auto bagOp = cast<EmbeddingBagOp>(op);
    auto resultType = dyn_cast<RankedTensorType>(bagOp.getType());
    if (!resultType ||
        !llvm::all_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>))
      return failure();
    // A tile's dynamic bag count hides static sizes no lowering can count:
    // once the count folds back, the collapsed ids' size would wrap.
    if (!hasCountableStaticSizes(op))
      return op->emitOpError("has static sizes whose element count overflows "
                             "int64; it cannot be tiled or lowered");
    Location loc = op->getLoc();
    SmallVector<Range> domain = getIterationDomain(op, b);
    if (domain.size() != 2 || sizes.size() != 2)
      return failure();
    auto whole = [&](int64_t d) {
      return isZeroInteger(offsets[d]) &&
             isEqualConstantIntOrValue(sizes[d], domain[d].size);
    };
    auto sliceDim = [&](Value source, int64_t d, OpFoldResult offset,
                        OpFoldResult size) -> Value {
      auto type = cast<RankedTensorType>(source.getType());
      SmallVector<OpFoldResult> at(type.getRank(), b.getIndexAttr(0));
      SmallVector<OpFoldResult> extent = tensor::getMixedSizes(b, loc, source);
      SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
      at[d] = offset;
      extent[d] = size;
      // A static empty dim has no element to slice (a slice at offset 0 of
      // it does not verify).
      if (llvm::is_contained(type.getShape(), 0))
        return tensor::EmptyOp::create(b, loc, extent, type.getElementType());
      return tensor::ExtractSliceOp::create(b, loc, source, at, extent,
                                            strides);
    };
    SmallVector<Operation *> slices;
    auto track = [&](Value v) {
      if (Operation *def = v.getDefiningOp())
        slices.push_back(def);
      return v;
    };

    Value weight = bagOp.getWeight(), ids = bagOp.getIds(),
          bagOffsets = bagOp.getOffsets(),
          weights = bagOp.getPerSampleWeights();
    bool includeLast = bagOp.getIncludeLastOffset();
    // A quantized row's values cannot be cut apart from its scale and bias
    // (row-wise), nor packed values from their blocks' scales and zero
    // points (block-quantized): its tile computes whole rows, then slices
    // them.
    bool quantized = bagOp.getRowwiseBits() || bagOp.getScales();
    bool sliceResult = !whole(1) && quantized;
    if (!whole(1) && !sliceResult) {
      weight = track(sliceDim(
          weight, 1, offsets[1],
          sizeWithin(b, loc, weight, 1, offsets[1], sizes[1], domain[1].size)));
    }
    if (!whole(0) && !bagOffsets) {
      ids = track(sliceDim(
          ids, 0, offsets[0],
          sizeWithin(b, loc, ids, 0, offsets[0], sizes[0], domain[0].size)));
      if (weights)
        weights =
            track(sliceDim(weights, 0, offsets[0],
                           sizeWithin(b, loc, weights, 0, offsets[0], sizes[0],
                                      domain[0].size, /*mustMatch=*/true)));
    } else if (!whole(0)) {
      // Bags [b0, b0 + n) read the ids from start = offsets[b0] (0 for the
      // first tile, whose offsets[0] is still checked) on. The tile's
      // offsets are offsets[b0 .. b0 + n] minus start, with
      // include_last_offset: the last one is the offset after the tile
      // (or, after the last bag without include_last_offset, the end of the
      // ids). So each tile checks its offsets against the next tile's first
      // and against the end of the ids, and every rule stays checked.
      // The tile's offsets are index or i64 whatever the op's are: the end
      // of the ids (a count) may not fit an i8 or i16 offset.
      auto offsetsType = cast<RankedTensorType>(bagOffsets.getType());
      Type offsetElement = b.getI64Type();
      if (offsetsType.getElementType().isIndex())
        offsetElement = b.getIndexType();
      auto toIndex = [&](Value v) {
        return getValueOrCreateCastToIndexLike(b, loc, b.getIndexType(), v);
      };
      auto toElement = [&](Value v) {
        return getValueOrCreateCastToIndexLike(b, loc, offsetElement, v);
      };
      // The tile's bags: the domain's extra bag (checksWithoutBags) is
      // none of the result's.
      OpFoldResult tileBags = resultBags(op, b, offsets[0], sizes[0]);
      Value b0 = getValueOrCreateConstantIndexOp(b, loc, offsets[0]);
      Value n = getValueOrCreateConstantIndexOp(b, loc, tileBags);
      Value numIds = getValueOrCreateConstantIndexOp(
          b, loc, tensor::getMixedSize(b, loc, ids, 0));
      Value numOffsets = getValueOrCreateConstantIndexOp(
          b, loc, tensor::getMixedSize(b, loc, bagOffsets, 0));
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value noOffset = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             numOffsets, zero);
      // offsets[at], at clamped into the offsets; 0 when there is none
      // (every tile reads an offset; none must be read out of bounds).
      auto offsetAt = [&](Value at) -> Value {
        Value last = arith::MaxSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, numOffsets, one), zero);
        Value within = arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, at, zero), last);
        auto read = [&]() -> Value {
          return tensor::ExtractOp::create(b, loc, bagOffsets,
                                           ValueRange{within});
        };
        if (!offsetsType.isDynamicDim(0) && offsetsType.getDimSize(0) > 0)
          return read();
        Type element = offsetsType.getElementType();
        auto ifSome = scf::IfOp::create(b, loc, TypeRange{element}, noOffset,
                                        /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifSome.thenBlock());
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::ConstantOp::create(b, loc, b.getZeroAttr(element))
                           .getResult()});
        b.setInsertionPointToStart(ifSome.elseBlock());
        scf::YieldOp::create(b, loc, read());
        return ifSome.getResult(0);
      };
      Value first =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, b0, zero);
      // Clamped into the ids, so that broken offsets slice nothing out of
      // bounds (the tile's rules then report them).
      Value start = arith::SelectOp::create(
          b, loc, first, zero,
          arith::MinSIOp::create(
              b, loc,
              arith::MaxSIOp::create(b, loc, toIndex(offsetAt(b0)), zero),
              numIds));
      Value rest = arith::SubIOp::create(b, loc, numIds, start);
      ids = track(sliceDim(ids, 0, start, rest));
      if (weights) {
        // per_sample_weights from start to its own end: a size that differs
        // from the ids' is still the tile's error.
        Value size = getValueOrCreateConstantIndexOp(
            b, loc, tensor::getMixedSize(b, loc, weights, 0));
        Value from = arith::MinSIOp::create(b, loc, start, size);
        weights = track(
            sliceDim(weights, 0, from,
                     arith::SubIOp::create(b, loc, size, from).getResult()));
      }
      Value base = toElement(start);
      // The offset after the tile's last bag. An empty tile (upstream's
      // num_threads tiling makes them) has no bag, and one offset: 0, but
      // for the first tile, whose one offset is offsets[0], still checked
      // (the domain's extra bag is such a tile).
      Value next = arith::AddIOp::create(b, loc, b0, n);
      Value after = toElement(offsetAt(next));
      if (!includeLast)
        after = arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next,
                                  numOffsets),
            after, toElement(numIds));
      after = arith::SelectOp::create(
          b, loc,
          arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n, zero),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, b0,
                                    zero)),
          base, after);
      Value tileOffsets = track(sliceDim(bagOffsets, 0, offsets[0], tileBags));
      // The tile's offsets end in the offset after it, but for no offset
      // at all with include_last_offset: then the tile has none either, so
      // that it reports the op's error.
      OpFoldResult ends = b.getIndexAttr(1);
      if (includeLast && offsetsType.isDynamicDim(0))
        ends = arith::SelectOp::create(b, loc, noOffset, zero, one).getResult();
      AffineExpr s0 = getAffineSymbolExpr(0, b.getContext()),
                 s1 = getAffineSymbolExpr(1, b.getContext());
      SmallVector<OpFoldResult> withEnd{affine::makeComposedFoldedAffineApply(
          b, loc, s0 + s1, {tileBags, ends})};
      Value init = tensor::EmptyOp::create(b, loc, withEnd, offsetElement);
      Value head = tensor::ExtractSliceOp::create(
          b, loc, init, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{tileBags},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      AffineMap identity = b.getMultiDimIdentityMap(1);
      auto rebased = linalg::GenericOp::create(
          b, loc, TypeRange{head.getType()}, ValueRange{tileOffsets},
          ValueRange{head}, ArrayRef<AffineMap>{identity, identity},
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
          [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(),
                                nested.getInsertionPoint());
            linalg::YieldOp::create(
                b, nestedLoc,
                ValueRange{arith::SubIOp::create(b, nestedLoc,
                                                 toElement(args[0]), base)});
          });
      Value joined = tensor::InsertSliceOp::create(
          b, loc, rebased.getResult(0), init,
          ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{tileBags},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      Value end = arith::SubIOp::create(b, loc, after, base);
      if (isOneInteger(ends)) {
        bagOffsets =
            track(tensor::InsertOp::create(b, loc, end, joined, ValueRange{n})
                      .getResult());
      } else {
        Value one1 = tensor::FromElementsOp::create(b, loc, ValueRange{end});
        Value endSlice = tensor::ExtractSliceOp::create(
            b, loc, one1, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{ends},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
        bagOffsets = track(tensor::InsertSliceOp::create(
                               b, loc, endSlice, joined,
                               ArrayRef<OpFoldResult>{tileBags},
                               ArrayRef<OpFoldResult>{ends},
                               ArrayRef<OpFoldResult>{b.getIndexAttr(1)})
                               .getResult());
      }
      includeLast = true;
    }

    // In the op's operand order; a tile has the same optional operands, so
    // the clone keeps their segment sizes.
    SmallVector<Value> operands{weight, ids};
    for (Value operand : {bagOffsets, weights, Value(bagOp.getScales()),
                          Value(bagOp.getZeroPoints())})
      if (operand)
        operands.push_back(operand);
    SmallVector<Type> inferred;
    auto tiled =
        cast<EmbeddingBagOp>(mlir::clone(b, op, {resultType}, operands));
    tiled.setIncludeLastOffset(includeLast);
    if (failed(EmbeddingBagOp::inferReturnTypes(
            b.getContext(), loc, tiled->getOperands(),
            tiled->getRawDictionaryAttrs(), tiled->getPropertiesStorage(),
            tiled->getRegions(), inferred))) {
      tiled->erase();
      return failure();
    }
    tiled.getResult().setType(cast<TensorType>(inferred[0]));
    TilingResult result{{tiled}, {tiled.getResult()}, slices};
    if (sliceResult) {
      SmallVector<OpFoldResult> at{b.getIndexAttr(0), offsets[1]};
      SmallVector<OpFoldResult> extent{
          tensor::getMixedSize(b, loc, tiled.getResult(), 0), sizes[1]};
      SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
      auto slice = tensor::ExtractSliceOp::create(b, loc, tiled.getResult(), at,
                                                  extent, strides);
      result.tiledOps.push_back(slice);
      result.tiledValues[0] = slice;
    }
    castTileToSizes(b, loc, result,
                    {resultBags(op, b, offsets[0], sizes[0]), sizes[1]});
    return result;
  }

  /// Fixed-length bags ([bags, n] ids) read their rows of ids whole: a tile
  /// of the ids (operand 1) that takes whole rows fixes those bags, every
  /// column of the result. Bags with offsets read ranges that the offsets'
  /// values decide, which no tile of the ids fixes: failure.
  LogicalResult getIterationDomainTileFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes,
      SmallVectorImpl<OpFoldResult> &iterDomainOffsets,
      SmallVectorImpl<OpFoldResult> &iterDomainSizes) const {
    auto bagOp = cast<EmbeddingBagOp>(op);
    auto idsType = dyn_cast<RankedTensorType>(bagOp.getIds().getType());
    if (operandNumbers.size() != 1 ||
        operandNumbers[0] != bagOp.getIdsMutable().getOperandNumber() ||
        bagOp.getOffsets() || !idsType || idsType.getRank() != 2)
      return failure();
    ArrayRef<OpFoldResult> offsets = allOffsets[0], sizes = allSizes[0];
    // Whole rows: the tile's size is the ids' row length, which a dynamic
    // row length can show only through the producer (value bounds).
    if (!isZeroInteger(offsets[1]))
      return failure();
    FailureOr<bool> wholeRows = ValueBoundsConstraintSet::areEqual(
        sizes[1], {bagOp.getIds(), /*dim=*/1});
    if (failed(wholeRows) || !*wholeRows)
      return failure();
    SmallVector<Range> domain = getIterationDomain(op, b);
    if (domain.size() != 2)
      return failure();
    iterDomainOffsets.assign({offsets[0], domain[1].offset});
    iterDomainSizes.assign({sizes[0], domain[1].size});
    return success();
  }
};

/// Whether `value` is computed from an scf.forall's induction variable:
/// tiles of a forall run in no order.
static bool dependsOnForallIv(OpFoldResult value) {
  SmallVector<Value> worklist;
  if (auto v = dyn_cast<Value>(value))
    worklist.push_back(v);
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto forall = dyn_cast<scf::ForallOp>(arg.getOwner()->getParentOp()))
        if (arg.getArgNumber() < forall.getRank())
          return true;
      continue;
    }
    llvm::append_range(worklist, v.getDefiningOp()->getOperands());
  }
  return false;
}

/// A scatter's iteration domain is its updates, walked in row-major order.
/// A dim of updates that writes dest at its own position (readDataDim: batch
/// dims, the dims around the axis, gather_nd's slice dims,
/// scatter_elements' dims off the axis) is parallel: tiles along it write
/// disjoint parts of dest. The dims of index positions are reductions: tiles
/// along them may write the same element. A tile is the same op on slices
/// of dest (the tile along the parallel dims, whole along the indexed
/// ones), of indices and of updates, so index values keep their meaning and
/// every mode holds per tile. In an `scf.for` nest the tiles run in the
/// nest's order, which keeps the updates that land on one element in their
/// row-major order (they differ only in the reduction dims): the result is
/// the untiled op's, bit for bit. Tiles of an `scf.forall` run in no order,
/// so a forall along a reduction dim is refused.
template <typename OpTy>
struct ScatterTiling
    : TilingInterface::ExternalModel<ScatterTiling<OpTy>, OpTy> {
  static FailureOr<GatherShape> getShape(Operation *op) {
    FailureOr<GatherShape> shape = cast<OpTy>(op).getGatherShape();
    if (failed(shape) || !shape->ranked)
      return failure();
    return shape;
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    FailureOr<GatherShape> shape = getShape(op);
    if (failed(shape))
      return {};
    return llvm::map_to_vector(shape->dims, [](const ResultDimSource &src) {
      return src.walksIndexPositions() ? utils::IteratorType::reduction
                                       : utils::IteratorType::parallel;
    });
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    return llvm::map_to_vector(
        tensor::getMixedSizes(b, op->getLoc(), cast<OpTy>(op).getUpdates()),
        [&](OpFoldResult size) { return Range{zero, size, one}; });
  }

  /// The tile of dest that a tile of the domain writes. dest's dims that a
  /// dim of updates equals (dataDim) must match it; scatter_elements' dims
  /// off the axis may be longer than the updates.
  static SliceOfSource destTile(Operation *op, OpBuilder &b,
                                const GatherShape &shape,
                                ArrayRef<OpFoldResult> offsets,
                                ArrayRef<OpFoldResult> sizes,
                                ArrayRef<Range> domain) {
    return tileInSource(
        b, op->getLoc(), cast<OpTy>(op).getDest(), shape, offsets, sizes,
        domain, [](const ResultDimSource &src) { return src.readDataDim; },
        [](const ResultDimSource &src) { return src.dataDim >= 0; });
  }

  LogicalResult getResultTilePosition(
      Operation *op, OpBuilder &b, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
      SmallVector<OpFoldResult> &resultSizes) const {
    FailureOr<GatherShape> shape = getShape(op);
    if (failed(shape))
      return failure();
    SliceOfSource tile =
        destTile(op, b, *shape, offsets, sizes, getIterationDomain(op, b));
    resultOffsets = resultTileOffsets(op, b, tile.offsets);
    resultSizes = std::move(tile.sizes);
    return success();
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    auto scatterOp = cast<OpTy>(op);
    FailureOr<GatherShape> shape = getShape(op);
    SmallVector<Range> domain = getIterationDomain(op, b);
    if (failed(shape) || domain.size() != sizes.size())
      return failure();
    for (auto [src, offset] : llvm::zip_equal(shape->dims, offsets))
      if (src.walksIndexPositions() && dependsOnForallIv(offset))
        return op->emitOpError(
            "cannot be tiled by scf.forall along a dim of index positions: "
            "its tiles may write the same element of dest, in no order");
    Location loc = op->getLoc();
    auto destSlice = sliceAt(b, loc, scatterOp.getDest(),
                             destTile(op, b, *shape, offsets, sizes, domain));
    // The indices' dims equal the updates' that walk them.
    auto indicesSlice = sliceForTile(
        b, loc, scatterOp.getIndices(), *shape, offsets, sizes, domain,
        [](const ResultDimSource &src) { return src.indicesDim; },
        [](const ResultDimSource &) { return true; });
    SliceOfSource updatesTile{SmallVector<OpFoldResult>(offsets),
                              SmallVector<OpFoldResult>(sizes)};
    auto updatesSlice = sliceAt(b, loc, scatterOp.getUpdates(), updatesTile);
    Operation *tiled = mlir::clone(b, op, {destSlice.getType()},
                                   {destSlice, indicesSlice, updatesSlice});
    return TilingResult{{tiled},
                        {tiled->getResult(0)},
                        {destSlice.getDefiningOp(),
                         indicesSlice.getDefiningOp(),
                         updatesSlice.getDefiningOp()}};
  }

  /// A tile of the result is written by the updates along the parallel
  /// dims that write it, with the reduction dims whole; it must take the
  /// dims of dest that indices select along whole.
  LogicalResult getIterationDomainTileFromResultTile(
      Operation *op, OpBuilder &b, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes,
      SmallVectorImpl<OpFoldResult> &iterDomainOffsets,
      SmallVectorImpl<OpFoldResult> &iterDomainSizes) const {
    FailureOr<GatherShape> shape = getShape(op);
    if (failed(shape))
      return failure();
    Value dest = cast<OpTy>(op).getDest();
    SmallVector<bool> walked(cast<RankedTensorType>(dest.getType()).getRank());
    SmallVector<Range> domain = getIterationDomain(op, b);
    iterDomainOffsets.clear();
    iterDomainSizes.clear();
    for (auto [src, range] : llvm::zip_equal(shape->dims, domain)) {
      // scatter_elements' dims off the axis may be shorter than dest's: a
      // tile of dest is not a tile of them.
      if (!src.walksIndexPositions() && src.dataDim < 0)
        return failure();
      if (src.walksIndexPositions()) {
        iterDomainOffsets.push_back(range.offset);
        iterDomainSizes.push_back(range.size);
        continue;
      }
      walked[src.readDataDim] = true;
      iterDomainOffsets.push_back(offsets[src.readDataDim]);
      iterDomainSizes.push_back(sizes[src.readDataDim]);
    }
    for (auto [d, isWalked] : llvm::enumerate(walked)) {
      if (isWalked)
        continue;
      if (!isZeroInteger(offsets[d]) ||
          !isEqualConstantIntOrValue(
              sizes[d], tensor::getMixedSize(b, op->getLoc(), dest, d)))
        return failure();
    }
    return success();
  }

  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned resultNumber,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    SmallVector<OpFoldResult> domainOffsets, domainSizes;
    if (failed(getIterationDomainTileFromResultTile(
            op, b, resultNumber, offsets, sizes, domainOffsets, domainSizes)))
      return failure();
    return getTiledImplementation(op, b, domainOffsets, domainSizes);
  }
};

} // namespace

void mlir::gather::registerTilingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, GatherDialect *) {
    GatherOp::attachInterface<GatherTiling<GatherOp>>(*context);
    GatherElementsOp::attachInterface<GatherTiling<GatherElementsOp>>(*context);
    GatherNDOp::attachInterface<GatherTiling<GatherNDOp>>(*context);
    EmbeddingBagOp::attachInterface<EmbeddingBagTiling>(*context);
    ScatterOp::attachInterface<ScatterTiling<ScatterOp>>(*context);
    ScatterElementsOp::attachInterface<ScatterTiling<ScatterElementsOp>>(
        *context);
    ScatterNDOp::attachInterface<ScatterTiling<ScatterNDOp>>(*context);
    // Tiles are slices and affine.min/max sizes.
    context->loadDialect<affine::AffineDialect, tensor::TensorDialect,
                         linalg::LinalgDialect, scf::SCFDialect>();
  });
}
