//===- EmbeddingBagOps.cpp - gather.embedding_bag ---------------*- C++ -*-===//
//
// The shape rules of gather.embedding_bag, written once: the verifier, type
// inference and shape reification all read them from embeddingBagShape.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::gather;

namespace {
/// The result's static shape [bags, dim], kDynamic where a size is known
/// only at run time.
struct BagShape {
  int64_t bags, dim;
  /// The element type of the result and of per_sample_weights.
  Type valueType;
};
} // namespace

/// How the table holds its values: floats, or one of two quantized layouts.
struct TableLayout {
  std::optional<RowwiseLayout> rowwise;
  std::optional<BlockLayout> block;
};

/// The layout the attributes and operands name, checked against the
/// table's element type `element`.
static FailureOr<TableLayout>
tableLayout(EmbeddingBagOp::Adaptor op, Type element, ShapeErrorFn emitError) {
  auto fail = [&](const Twine &msg) {
    if (emitError)
      (void)emitError(msg);
    return failure();
  };
  std::optional<uint64_t> rowBits = op.getRowwiseBits(),
                          blockBits = op.getBlockBits(),
                          blockSize = op.getBlockSize();
  bool scales = static_cast<bool>(op.getScales());
  if (op.getZeroPoints() && !scales)
    return fail("zero_points needs scales");
  if (scales != blockBits.has_value() || scales != blockSize.has_value())
    return fail("a block-quantized table takes scales, block_bits and "
                "block_size together");
  if (rowBits && scales)
    return fail("rowwise_bits and scales name two layouts of the table: "
                "give one");
  TableLayout layout;
  if (rowBits) {
    if (*rowBits != 8 && *rowBits != 4)
      return fail("rowwise_bits must be 8 or 4, not " +
                  Twine(static_cast<int64_t>(*rowBits)));
    layout.rowwise = RowwiseLayout{static_cast<int64_t>(*rowBits)};
  }
  if (scales) {
    FailureOr<BlockLayout> block =
        BlockLayout::get(static_cast<int64_t>(*blockBits),
                         static_cast<int64_t>(*blockSize), emitError);
    if (failed(block))
      return failure();
    layout.block = *block;
  }
  bool quantized = rowBits || scales;
  if (!quantized && !isa<FloatType>(element))
    return fail("a table of i8 is a quantized table: it needs rowwise_bits "
                "(8 or 4), or scales with block_bits and block_size");
  if (quantized && !element.isInteger(8))
    return fail(Twine(rowBits ? "a row-wise quantized table (rowwise_bits)"
                              : "a block-quantized table (scales)") +
                " holds bytes: weight must have element type i8");
  return layout;
}

/// Sizes `a` and `b` that differ, both static.
static bool contradict(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

static FailureOr<BagShape> embeddingBagShape(EmbeddingBagOp::Adaptor op,
                                             ShapeErrorFn emitError) {
  auto fail = [&](const Twine &msg) -> FailureOr<BagShape> {
    if (emitError)
      (void)emitError(msg);
    return failure();
  };
  // Operands that are not even shaped (type inference runs before the
  // verifier) read as unranked, which every rule rejects.
  auto shapeOf = [](Value v) -> std::optional<ShapeView> {
    if (!v)
      return std::nullopt;
    auto type = dyn_cast<ShapedType>(v.getType());
    return type ? ShapeView::get(type) : ShapeView::getUnranked();
  };
  BagOperandShapes operands{*shapeOf(op.getWeight()), *shapeOf(op.getIds())};
  operands.offsets = shapeOf(op.getOffsets());
  operands.perSampleWeights = shapeOf(op.getPerSampleWeights());
  operands.includeLastOffset = op.getIncludeLastOffset();
  operands.sum = op.getReduction() == BagReduction::sum;
  operands.paddingIdx = op.getPaddingIdx();
  FailureOr<int64_t> bags = inferEmbeddingBagCount(operands, emitError);
  if (failed(bags))
    return failure();
  auto weight = cast<RankedTensorType>(op.getWeight().getType());
  FailureOr<TableLayout> layout =
      tableLayout(op, weight.getElementType(), emitError);
  if (failed(layout))
    return failure();
  int64_t dim = weight.getDimSize(1), num = weight.getDimSize(0);
  Type valueType = weight.getElementType();
  if ((layout->rowwise && !layout->rowwise->countsValues(dim)) ||
      (layout->block && !layout->block->countsValues(dim)))
    return fail("rows of " + Twine(dim) +
                " bytes hold more values than a dimension can count");
  if (layout->rowwise) {
    const RowwiseLayout &rowwise = *layout->rowwise;
    if (!ShapedType::isDynamic(dim) && rowwise.values(dim) < 0)
      return fail("rows of " + Twine(dim) + " bytes are shorter than the " +
                  Twine(rowwise.trailerBytes()) +
                  " bytes of their scale and bias (rowwise_bits = " +
                  Twine(rowwise.bits) + ")");
    dim = rowwise.values(dim);
    valueType = Float32Type::get(weight.getContext());
  }
  if (layout->block) {
    const BlockLayout &block = *layout->block;
    dim = block.values(dim);
    int64_t blocks = block.blocks(dim);
    // A 2-D operand with a row per table row and `columns` columns (what
    // `need` says they hold).
    auto perRow = [&](Value operand, StringRef name, StringRef shape,
                      int64_t columns, const Twine &need) -> LogicalResult {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || type.getRank() != 2)
        return fail(name + " must be 2-D " + shape);
      if (contradict(type.getDimSize(0), num))
        return fail(name + " has " + Twine(type.getDimSize(0)) +
                    " rows, but the table has " + Twine(num));
      if (contradict(type.getDimSize(1), columns))
        return fail(name + " has " + Twine(type.getDimSize(1)) +
                    " columns, but " + need);
      return success();
    };
    if (failed(perRow(op.getScales(), "scales", "[num, blocks]", blocks,
                      "rows of " + Twine(dim) + " values have " +
                          Twine(blocks) + " blocks of " +
                          Twine(block.blockSize))))
      return failure();
    valueType = getElementTypeOrSelf(op.getScales().getType());
    int64_t bytes = block.zeroPointBytes(blocks);
    if (Value zeroPoints = op.getZeroPoints();
        zeroPoints &&
        failed(perRow(zeroPoints, "zero_points", "[num, bytes]", bytes,
                      Twine(blocks) + " blocks of " + Twine(block.bits) +
                          "-bit zero points need " + Twine(bytes))))
      return failure();
  }
  if (Value weights = op.getPerSampleWeights();
      weights && getElementTypeOrSelf(weights.getType()) != valueType)
    return fail(layout->rowwise ? Twine("per_sample_weights must be f32 with a "
                                        "row-wise quantized table")
                : layout->block
                    ? Twine("per_sample_weights must have the element "
                            "type of scales")
                    : Twine("per_sample_weights must have the element "
                            "type of weight"));
  return BagShape{*bags, dim, valueType};
}

LogicalResult EmbeddingBagOp::verify() {
  FailureOr<BagShape> shape = embeddingBagShape(
      Adaptor(*this), [&](const Twine &msg) { return emitOpError(msg); });
  if (failed(shape))
    return failure();
  auto result = cast<ShapedType>(getResult().getType());
  if (result.getElementType() != shape->valueType && getRowwiseBits())
    return emitOpError("result element type ")
           << result.getElementType()
           << " must be f32 for a row-wise quantized table";
  if (result.getElementType() != shape->valueType && getScales())
    return emitOpError("result element type ")
           << result.getElementType() << " must be the scales' "
           << shape->valueType;
  if (result.getElementType() != shape->valueType)
    return emitOpError("result element type ")
           << result.getElementType() << " must match the weight element type "
           << shape->valueType;
  if (!result.hasRank())
    return success();
  if (result.getRank() != 2)
    return emitOpError("result must have rank 2 ([bags, dim]), but has rank ")
           << result.getRank();
  int64_t expected[] = {shape->bags, shape->dim};
  for (auto [d, want] : llvm::enumerate(expected)) {
    int64_t have = result.getDimSize(d);
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
        want != have)
      return emitOpError("result dimension ")
             << d << " has size " << have << ", but the operands give " << want;
  }
  return success();
}

LogicalResult EmbeddingBagOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor op(operands, attributes, properties, regions);
  auto emitError = [&](const Twine &msg) {
    return emitOptionalError(location, "'", getOperationName(), "' op ", msg);
  };
  FailureOr<BagShape> shape = embeddingBagShape(op, emitError);
  if (failed(shape))
    return failure();
  inferred.push_back(
      RankedTensorType::get({shape->bags, shape->dim}, shape->valueType));
  return success();
}

OpFoldResult EmbeddingBagOp::fold(FoldAdaptor) {
  // Bags that hold no id are zeros, in every mode: only when every size is
  // static, so that no rule is left to check when the op runs.
  auto type = dyn_cast<RankedTensorType>(getType());
  auto weight = dyn_cast<RankedTensorType>(getWeight().getType());
  auto ids = dyn_cast<RankedTensorType>(getIds().getType());
  if (!type || !type.hasStaticShape() || !weight || weight.isDynamicDim(1) ||
      !ids)
    return {};
  for (Value operand : {getPerSampleWeights(), getScales(), getZeroPoints()})
    if (operand && !cast<ShapedType>(operand.getType()).hasStaticShape())
      return {};
  bool noIdInBags;
  if (Value offsets = getOffsets()) {
    // No offset: no bag (with include_last_offset, an error).
    auto offsetsType = dyn_cast<RankedTensorType>(offsets.getType());
    noIdInBags = offsetsType && offsetsType.getRank() == 1 &&
                 offsetsType.getDimSize(0) == 0 && !getIncludeLastOffset();
  } else {
    // Fixed-length bags of no id.
    noIdInBags = ids.getRank() == 2 && ids.getDimSize(1) == 0;
  }
  if (!noIdInBags)
    return {};
  return DenseElementsAttr::get(type,
                                FloatAttr::get(type.getElementType(), 0.0));
}

bool EmbeddingBagOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip_equal(lhs, rhs))
    if (getElementTypeOrSelf(l) != getElementTypeOrSelf(r) ||
        failed(verifyCompatibleShape(l, r)))
      return false;
  return true;
}

LogicalResult
EmbeddingBagOp::reifyResultShapes(OpBuilder &b,
                                  ReifiedRankedShapedTypeDims &reified) {
  FailureOr<BagShape> shape = embeddingBagShape(Adaptor(*this), nullptr);
  if (failed(shape))
    return failure();
  Location loc = getLoc();
  OpFoldResult bags;
  if (Value offsets = getOffsets()) {
    bags = tensor::getMixedSize(b, loc, offsets, 0);
    // max(n - 1, 0): no offset (an error unless unchecked) gives no bag, as
    // the lowering makes none.
    if (getIncludeLastOffset()) {
      if (std::optional<int64_t> n = getConstantIntValue(bags))
        bags = b.getIndexAttr(std::max<int64_t>(*n - 1, 0));
      else
        bags = arith::MaxSIOp::create(
                   b, loc,
                   arith::SubIOp::create(
                       b, loc, cast<Value>(bags),
                       arith::ConstantIndexOp::create(b, loc, 1)),
                   arith::ConstantIndexOp::create(b, loc, 0))
                   .getResult();
    }
  } else {
    bags = tensor::getMixedSize(b, loc, getIds(), 0);
  }
  SmallVector<OpFoldResult> sizes{bags, getRowValues(b, loc)};
  if (auto type = dyn_cast<RankedTensorType>(getType()))
    sizes = asReifiedSizesOf(b, loc, type, sizes);
  reified.push_back(sizes);
  return success();
}

OpFoldResult EmbeddingBagOp::getRowValues(OpBuilder &b, Location loc) {
  OpFoldResult bytes = tensor::getMixedSize(b, loc, getWeight(), 1);
  if (std::optional<BlockLayout> block = getBlockLayout()) {
    if (std::optional<int64_t> known = getConstantIntValue(bytes))
      return b.getIndexAttr(block->values(*known));
    return arith::MulIOp::create(
               b, loc, cast<Value>(bytes),
               arith::ConstantIndexOp::create(b, loc, block->valuesPerByte()))
        .getResult();
  }
  std::optional<RowwiseLayout> layout = getRowwiseLayout();
  if (!layout)
    return bytes;
  if (std::optional<int64_t> known = getConstantIntValue(bytes))
    return b.getIndexAttr(std::max<int64_t>(layout->values(*known), 0));
  // max(bytes - trailer, 0) * values per byte: a row too short for its
  // scale and bias (an error the lowering reports) holds no value.
  Value values = arith::MaxSIOp::create(
      b, loc,
      arith::SubIOp::create(
          b, loc, cast<Value>(bytes),
          arith::ConstantIndexOp::create(b, loc, layout->trailerBytes())),
      arith::ConstantIndexOp::create(b, loc, 0));
  if (layout->valuesPerByte() != 1)
    values = arith::MulIOp::create(
        b, loc, values,
        arith::ConstantIndexOp::create(b, loc, layout->valuesPerByte()));
  return values;
}

Type EmbeddingBagOp::getValueType() {
  if (getRowwiseBits())
    return Float32Type::get(getContext());
  if (Value scales = getScales())
    return getElementTypeOrSelf(scales.getType());
  return getElementTypeOrSelf(getWeight().getType());
}

Type EmbeddingBagOp::getAccumulatorType() {
  Type element = getValueType();
  if (element.isF16() || element.isBF16())
    return Float32Type::get(getContext());
  return element;
}

std::optional<BlockLayout> EmbeddingBagOp::getBlockLayout() {
  std::optional<uint64_t> bits = getBlockBits(), size = getBlockSize();
  if (!getScales() || !bits || !size)
    return std::nullopt;
  return BlockLayout{static_cast<int64_t>(*bits), static_cast<int64_t>(*size)};
}

std::optional<RowwiseLayout> EmbeddingBagOp::getRowwiseLayout() {
  if (std::optional<uint64_t> bits = getRowwiseBits())
    return RowwiseLayout{static_cast<int64_t>(*bits)};
  return std::nullopt;
}
