//===- GatherShapes.cpp - Shape rules of the gather ops ---------*- C++ -*-===//
//
// Every rule of docs/Semantics.md that the operand shapes decide is checked
// here, once, on ShapeViews; the forms taking types check that the operands are
// tensors and read their shapes. See GatherShapes.h for who uses them.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherShapes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::gather;

namespace {
/// Wraps the optional error callback: a null callback fails silently.
struct Reporter {
  ShapeErrorFn fn;
  LogicalResult operator()(const Twine &msg) const {
    return fn ? fn(msg) : failure();
  }
};
} // namespace

bool mlir::gather::modeRejectsEmptyDims(GatherMode mode) {
  return mode == GatherMode::check || mode == GatherMode::clamp ||
         mode == GatherMode::wrap;
}

/// "-1" or "-1 (normalized: 1)".
static std::string describe(int64_t written, int64_t normalized) {
  std::string s = std::to_string(written);
  if (written != normalized)
    s += " (normalized: " + std::to_string(normalized) + ")";
  return s;
}

std::optional<int64_t>
mlir::gather::getCheckedNumElements(ArrayRef<int64_t> shape) {
  // Empty whatever the other sizes, in any order.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t product = 1;
  for (int64_t size : shape) {
    assert(!ShapedType::isDynamic(size) && "the shape must be static");
    if (llvm::MulOverflow(product, size, product))
      return std::nullopt;
  }
  return product;
}

int64_t mlir::gather::getElementSizeInBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getElementSizeInBytes(complex.getElementType());
  if (type.isIndex())
    return IndexType::kInternalStorageBitWidth / 8;
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return 1;
}

std::optional<int64_t> mlir::gather::getStaticSizeInBytes(ShapedType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> count = getCheckedNumElements(type.getShape());
  int64_t bytes;
  if (!count ||
      llvm::MulOverflow(*count, getElementSizeInBytes(type.getElementType()),
                        bytes))
    return std::numeric_limits<int64_t>::max();
  return bytes;
}

bool mlir::gather::hasCountableStaticSizes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return true;
  SmallVector<int64_t> sizes =
      llvm::map_to_vector(shaped.getShape(), [](int64_t d) {
        return ShapedType::isDynamic(d) ? 1 : d;
      });
  return getCheckedNumElements(sizes).has_value();
}

bool mlir::gather::hasCountableStaticSizes(Operation *op) {
  return llvm::all_of(op->getOperandTypes(),
                      [](Type t) { return hasCountableStaticSizes(t); }) &&
         llvm::all_of(op->getResultTypes(),
                      [](Type t) { return hasCountableStaticSizes(t); });
}

bool mlir::gather::hasCountableStaticBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  std::optional<int64_t> bytes =
      shaped ? getStaticSizeInBytes(shaped) : std::nullopt;
  return hasCountableStaticSizes(type) &&
         (!bytes || *bytes < std::numeric_limits<int64_t>::max());
}

static constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

/// `a + b` for `a, b >= 0`, saturating at INT64_MAX.
static int64_t addSaturated(int64_t a, int64_t b) {
  int64_t sum;
  return llvm::AddOverflow(a, b, sum) ? kInt64Max : sum;
}

/// The least rank for which `axis` (as written, maybe negative) is in range,
/// saturating at INT64_MAX.
static int64_t minRankForAxis(int64_t axis) {
  if (axis >= 0)
    return addSaturated(axis, 1);
  return axis == std::numeric_limits<int64_t>::min() ? kInt64Max : -axis;
}

/// The number of elements in dims [from, to) of `t`: 0 if any is 0, otherwise
/// std::nullopt if any is dynamic (or t is unranked), and -1 if the product
/// overflows int64_t.
static std::optional<int64_t> staticProduct(ShapeView t, int64_t from,
                                            int64_t to) {
  if (!t.hasRank())
    return std::nullopt;
  ArrayRef<int64_t> dims = t.getShape().slice(from, to - from);
  if (llvm::is_contained(dims, 0))
    return 0;
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return std::nullopt;
  return getCheckedNumElements(dims).value_or(-1);
}

/// data.shape[:b] == indices.shape[:b] where both sizes are static.
static LogicalResult checkBatchDims(ShapeView data, ShapeView indices,
                                    int64_t b, Reporter report) {
  for (int64_t d = 0; d < b; ++d) {
    int64_t x = data.getDimSize(d), y = indices.getDimSize(d);
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return report("batch dimension " + Twine(d) + " has size " + Twine(x) +
                    " in data but " + Twine(y) + " in indices");
  }
  return success();
}

/// A static data dimension of size 0 has no valid index: an error when the
/// mode does not define a result for it and `indexCount` (a staticProduct)
/// is known non-zero.
static LogicalResult checkEmptyDim(ShapeView data, int64_t dim,
                                   std::optional<int64_t> indexCount,
                                   GatherMode mode, Reporter report) {
  if (data.getDimSize(dim) != 0 || !modeRejectsEmptyDims(mode) || !indexCount ||
      *indexCount == 0)
    return success();
  std::string count = *indexCount < 0 ? "more than " + std::to_string(kInt64Max)
                                      : std::to_string(*indexCount);
  return report("data dimension " + Twine(dim) +
                " has size 0, so none of the " + count +
                " indices is valid in mode '" + stringifyGatherMode(mode) +
                "' (use 'fill')");
}

/// `axis` normalized into [0, r), or a report that it is outside [-r, r-1].
static FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t r,
                                        Reporter report) {
  if (axis < -r || axis >= r)
    return report("axis " + Twine(axis) + " is out of range [" + Twine(-r) +
                  ", " + Twine(r - 1) + "] for data of rank " + Twine(r));
  return axis < 0 ? axis + r : axis;
}

/// Data of rank 0 has nothing to gather along.
static LogicalResult checkDataRank(ShapeView data, Reporter report) {
  if (data.hasRank() && data.getRank() == 0)
    return report("data must have rank >= 1, but has rank 0");
  return success();
}

FailureOr<std::pair<ShapeView, ShapeView>>
mlir::gather::getOperandShapes(Type data, Type indices,
                               ShapeErrorFn emitError) {
  Reporter report{emitError};
  auto dataType = dyn_cast<TensorType>(data);
  auto indicesType = dyn_cast<TensorType>(indices);
  if (!dataType)
    return report("data must be a tensor");
  if (!indicesType)
    return report("indices must be a tensor");
  return std::make_pair(ShapeView::get(dataType), ShapeView::get(indicesType));
}

FailureOr<GatherShape>
mlir::gather::inferGatherShape(ShapeView data, ShapeView indices, int64_t axis,
                               int64_t batchDims, GatherMode mode,
                               ShapeErrorFn emitError) {
  Reporter report{emitError};
  GatherShape shape;
  shape.axis = axis;
  shape.batchDims = batchDims;

  if (failed(checkDataRank(data, report)))
    return failure();
  if (data.hasRank()) {
    FailureOr<int64_t> a = normalizeAxis(axis, data.getRank(), report);
    if (failed(a))
      return failure();
    shape.axis = shape.firstIndexedDim = *a;
  }
  if (indices.hasRank()) {
    int64_t q = indices.getRank();
    if (batchDims < -q || batchDims > q)
      return report("batch_dims " + Twine(batchDims) + " is out of range [" +
                    Twine(-q) + ", " + Twine(q) + "] for indices of rank " +
                    Twine(q));
    shape.batchDims = batchDims < 0 ? batchDims + q : batchDims;
  }
  if (!data.hasRank() || !indices.hasRank()) {
    // Compare only what the known ranks let us normalize.
    bool axisKnown = data.hasRank() || axis >= 0;
    bool batchDimsKnown = indices.hasRank() || batchDims >= 0;
    if (axisKnown && batchDimsKnown && shape.batchDims > shape.axis)
      return report("batch_dims " + describe(batchDims, shape.batchDims) +
                    " must not exceed axis " + describe(axis, shape.axis));
    // rank(result) = (r - 1) + (q - b), where a negative batch_dims makes
    // q - b = -batch_dims.
    int64_t dataPart =
        data.hasRank() ? data.getRank() - 1 : minRankForAxis(axis) - 1;
    int64_t indicesPart = indices.hasRank()
                              ? indices.getRank() - shape.batchDims
                          : batchDims < 0 ? minRankForAxis(batchDims)
                                          : 0;
    shape.minResultRank = addSaturated(dataPart, indicesPart);
    return shape;
  }

  int64_t r = data.getRank(), q = indices.getRank();
  int64_t a = shape.axis, b = shape.batchDims;
  if (b > a)
    return report("batch_dims " + describe(batchDims, b) +
                  " must not exceed axis " + describe(axis, a));
  if (failed(checkBatchDims(data, indices, b, report)) ||
      failed(
          checkEmptyDim(data, a, staticProduct(indices, 0, q), mode, report)))
    return failure();

  shape.ranked = true;
  for (int64_t d = 0; d < a; ++d)
    shape.dims.push_back({d, d < b ? d : -1, d});
  for (int64_t d = b; d < q; ++d)
    shape.dims.push_back({-1, d});
  for (int64_t d = a + 1; d < r; ++d)
    shape.dims.push_back({d, -1, d});
  shape.minResultRank = shape.dims.size();
  return shape;
}

FailureOr<GatherShape>
mlir::gather::inferGatherElementsShape(ShapeView data, ShapeView indices,
                                       int64_t axis, GatherMode mode,
                                       ShapeErrorFn emitError) {
  Reporter report{emitError};
  GatherShape shape;
  shape.axis = axis;
  if (!data.hasRank() && !indices.hasRank()) {
    // The result has the operands' rank, which `axis` needs.
    shape.minResultRank = minRankForAxis(axis);
    return shape;
  }

  // The rank both operands share; known from either.
  int64_t r = data.hasRank() ? data.getRank() : indices.getRank();
  if (failed(checkDataRank(data, report)))
    return failure();
  if (indices.hasRank() && indices.getRank() != r)
    return report("indices must have the rank of data (" + Twine(r) +
                  "), but has rank " + Twine(indices.getRank()));
  if (r == 0)
    return report("indices must have rank >= 1, but has rank 0");
  FailureOr<int64_t> normalized = normalizeAxis(axis, r, report);
  if (failed(normalized))
    return failure();
  int64_t a = shape.axis = shape.firstIndexedDim = *normalized;

  if (data.hasRank() && indices.hasRank()) {
    for (int64_t d = 0; d < r; ++d) {
      int64_t x = indices.getDimSize(d), y = data.getDimSize(d);
      if (d != a && !ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) &&
          x > y)
        return report("indices dimension " + Twine(d) + " has size " +
                      Twine(x) + ", larger than data dimension " + Twine(d) +
                      " of size " + Twine(y) +
                      " (only the axis dimension may be larger)");
    }
    if (failed(
            checkEmptyDim(data, a, staticProduct(indices, 0, r), mode, report)))
      return failure();
  }

  shape.ranked = true;
  for (int64_t d = 0; d < r; ++d)
    shape.dims.push_back({-1, d, d == a ? -1 : d});
  shape.minResultRank = r;
  return shape;
}

FailureOr<GatherShape>
mlir::gather::inferGatherNDShape(ShapeView data, ShapeView indices,
                                 int64_t batchDims, GatherMode mode,
                                 ShapeErrorFn emitError) {
  Reporter report{emitError};
  GatherShape shape;
  shape.batchDims = batchDims;
  if (batchDims < 0)
    return report("batch_dims " + Twine(batchDims) + " must be >= 0");
  shape.firstIndexedDim = batchDims;
  if (failed(checkDataRank(data, report)))
    return failure();
  if (!indices.hasRank()) {
    // Tuples have k >= 1 components after the batch dims, and q - 1 >= b:
    // rank(result) = (q - 1) + (r - b - k) >= b.
    if (data.hasRank() && batchDims >= data.getRank())
      return report("index tuples after " + Twine(batchDims) +
                    " batch dimensions need data of rank >= " +
                    Twine(addSaturated(batchDims, 1)) + ", but data has rank " +
                    Twine(data.getRank()));
    shape.minResultRank = batchDims;
    return shape;
  }

  int64_t q = indices.getRank(), b = batchDims;
  if (q == 0)
    return report("indices must have rank >= 1 (its last dimension holds the "
                  "index tuples), but has rank 0");
  if (b >= q)
    return report("batch_dims " + Twine(b) +
                  " must be less than the rank of indices (" + Twine(q) + ")");
  int64_t k = indices.getDimSize(q - 1);
  if (ShapedType::isDynamic(k))
    return report("the index tuple length (the last dimension of indices) "
                  "must be static");
  if (k < 1)
    return report("index tuples must have at least 1 component, but the last "
                  "dimension of indices has size 0");
  shape.tupleSize = k;
  if (!data.hasRank()) {
    // rank(result) = (q - 1) + (r - b - k), and r >= b + k.
    shape.minResultRank = q - 1;
    return shape;
  }

  int64_t r = data.getRank();
  if (k > r - b) {
    int64_t needed;
    std::string rank = llvm::AddOverflow(b, k, needed)
                           ? (Twine(b) + " + " + Twine(k)).str()
                           : std::to_string(needed);
    return report("index tuples of length " + Twine(k) + " after " + Twine(b) +
                  " batch dimensions need data of rank >= " + rank +
                  ", but data has rank " + Twine(r));
  }
  if (failed(checkBatchDims(data, indices, b, report)))
    return failure();
  std::optional<int64_t> tuples = staticProduct(indices, 0, q - 1);
  for (int64_t c = 0; c < k; ++c)
    if (failed(checkEmptyDim(data, b + c, tuples, mode, report)))
      return failure();

  shape.ranked = true;
  for (int64_t d = 0; d < q - 1; ++d)
    shape.dims.push_back({d < b ? d : -1, d, d < b ? d : -1});
  for (int64_t d = b + k; d < r; ++d)
    shape.dims.push_back({d, -1, d});
  shape.minResultRank = shape.dims.size();
  return shape;
}

/// The static size of `t`'s dimension `d`, or dynamic when unknown.
static int64_t sizeOf(ShapeView t, int64_t d) {
  return d >= 0 && t.hasRank() ? t.getDimSize(d) : ShapedType::kDynamic;
}

SmallVector<int64_t> GatherShape::getStaticShape(ShapeView data,
                                                 ShapeView indices) const {
  assert(ranked && "the result rank is unknown");
  SmallVector<int64_t> result;
  for (const ResultDimSource &src : dims) {
    int64_t size = sizeOf(data, src.dataDim);
    if (ShapedType::isDynamic(size))
      size = sizeOf(indices, src.indicesDim);
    result.push_back(size);
  }
  return result;
}

GatherShape::CollapsedDims GatherShape::collapseDims(ShapeView data,
                                                     ShapeView indices) const {
  assert(ranked && "the result rank is unknown");
  // The next source continues the previous one: both unset, or one dim on.
  auto continues = [](int64_t previous, int64_t next) {
    return previous < 0 ? next < 0 : next == previous + 1;
  };
  auto mergesWithPrevious = [&](size_t r) {
    const ResultDimSource &a = dims[r - 1], &c = dims[r];
    if (!continues(a.dataDim, c.dataDim) ||
        !continues(a.indicesDim, c.indicesDim) ||
        !continues(a.readDataDim, c.readDataDim))
      return false;
    // gather_elements' dims off the axis: data may be longer than indices;
    // only an outer dim of a group may be.
    int64_t dataDim = c.dataDim >= 0 ? c.dataDim : c.readDataDim;
    return dataDim < 0 || c.indicesDim < 0 ||
           data.getDimSize(dataDim) == indices.getDimSize(c.indicesDim);
  };
  CollapsedDims collapsed;
  // An operand dim joins the group of the dim before it when the result
  // dims they are sources of merged.
  SmallVector<bool> dataJoins(data.getRank(), false),
      indicesJoins(indices.getRank(), false);
  for (size_t r = 0; r < dims.size(); ++r) {
    bool merges = r > 0 && mergesWithPrevious(r);
    if (merges)
      collapsed.result.back().push_back(r);
    else
      collapsed.result.push_back({static_cast<int64_t>(r)});
    const ResultDimSource &src = dims[r];
    int64_t dataDim = src.dataDim >= 0 ? src.dataDim : src.readDataDim;
    if (dataDim >= 0)
      dataJoins[dataDim] = merges;
    if (src.indicesDim >= 0)
      indicesJoins[src.indicesDim] = merges;
  }
  auto group = [](ArrayRef<bool> joins,
                  SmallVector<SmallVector<int64_t, 2>> &groups) {
    for (auto [d, join] : llvm::enumerate(joins)) {
      if (join && !groups.empty())
        groups.back().push_back(d);
      else
        groups.push_back({static_cast<int64_t>(d)});
    }
  };
  group(dataJoins, collapsed.data);
  group(indicesJoins, collapsed.indices);
  auto merge = [](ArrayRef<int64_t> sizes,
                  ArrayRef<SmallVector<int64_t, 2>> groups,
                  SmallVector<int64_t> &merged) {
    for (ArrayRef<int64_t> group : groups) {
      merged.push_back(1);
      for (int64_t d : group)
        merged.back() *= sizes[d];
    }
  };
  merge(data.getShape(), collapsed.data, collapsed.dataShape);
  merge(indices.getShape(), collapsed.indices, collapsed.indicesShape);
  merge(getStaticShape(data, indices), collapsed.result, collapsed.resultShape);
  // The collapsed attributes: the group that holds the axis, and the groups
  // within the batch dims.
  for (auto [g, dimsOfGroup] : llvm::enumerate(collapsed.data)) {
    if (llvm::is_contained(dimsOfGroup, axis))
      collapsed.axis = g;
    if (dimsOfGroup.front() < batchDims)
      collapsed.batchDims = g + 1;
  }
  return collapsed;
}

SmallVector<OperandDimRule>
GatherShape::getRunTimeRules(ShapeView data, ShapeView indices) const {
  assert(ranked && "the result rank is unknown");
  SmallVector<OperandDimRule> rules;
  for (const ResultDimSource &src : dims) {
    // A batch dim comes from both operands; gather_elements' dims off the
    // axis come from the indices and read data at the same position.
    int64_t dataDim = src.dataDim >= 0 ? src.dataDim : src.readDataDim;
    if (dataDim < 0 || src.indicesDim < 0)
      continue;
    if (!ShapedType::isDynamic(sizeOf(data, dataDim)) &&
        !ShapedType::isDynamic(sizeOf(indices, src.indicesDim)))
      continue;
    rules.push_back({dataDim, src.indicesDim, src.dataDim < 0});
  }
  return rules;
}

TensorType GatherShape::getResultType(ShapedType data,
                                      ShapedType indices) const {
  Type element = data.getElementType();
  if (!ranked)
    return UnrankedTensorType::get(element);
  return RankedTensorType::get(getStaticShape(data, indices), element);
}

/// The size of dimension `d` of a tensor or memref value.
static OpFoldResult getMixedSize(OpBuilder &b, Location loc, Value v,
                                 int64_t d) {
  if (isa<BaseMemRefType>(v.getType()))
    return memref::getMixedSize(b, loc, v, d);
  return tensor::getMixedSize(b, loc, v, d);
}

SmallVector<OpFoldResult> GatherShape::getMixedSizes(OpBuilder &b, Location loc,
                                                     Value data,
                                                     Value indices) const {
  auto dataType = cast<ShapedType>(data.getType());
  auto indicesType = cast<ShapedType>(indices.getType());
  SmallVector<int64_t> staticShape = getStaticShape(dataType, indicesType);
  SmallVector<OpFoldResult> sizes;
  for (auto [src, size] : llvm::zip_equal(dims, staticShape)) {
    if (!ShapedType::isDynamic(size))
      sizes.push_back(b.getIndexAttr(size));
    else if (src.dataDim >= 0)
      sizes.push_back(getMixedSize(b, loc, data, src.dataDim));
    else
      sizes.push_back(getMixedSize(b, loc, indices, src.indicesDim));
  }
  return sizes;
}

SmallVector<Value>
GatherShape::getDynamicSizes(OpBuilder &b, Location loc, Value data,
                             Value indices,
                             ArrayRef<int64_t> resultShape) const {
  SmallVector<Value> dynamicSizes;
  for (auto [size, staticSize] :
       llvm::zip_equal(getMixedSizes(b, loc, data, indices), resultShape))
    if (ShapedType::isDynamic(staticSize))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  return dynamicSizes;
}

SmallVector<OpFoldResult>
mlir::gather::asReifiedSizesOf(OpBuilder &b, Location loc,
                               RankedTensorType type,
                               ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> reified;
  for (auto [d, size] : llvm::enumerate(sizes))
    reified.push_back(
        type.isDynamicDim(d)
            ? OpFoldResult(getValueOrCreateConstantIndexOp(b, loc, size))
            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
  return reified;
}

//===----------------------------------------------------------------------===//
// Embedding bags
//===----------------------------------------------------------------------===//

/// " but has rank N" or " but is unranked", for a shape that must have
/// another rank.
static std::string rankText(ShapeView shape) {
  if (!shape.hasRank())
    return ", but is unranked";
  if (shape.getRank() == 0)
    return ", but is a scalar";
  return ", but has rank " + std::to_string(shape.getRank());
}

FailureOr<int64_t>
mlir::gather::inferEmbeddingBagCount(const BagOperandShapes &operands,
                                     ShapeErrorFn emitError,
                                     const BagNames &names) {
  Reporter fail{emitError};
  const ShapeView &weight = operands.weight, &ids = operands.ids;
  if (!weight.hasRank() || weight.getRank() != 2)
    return fail("weight must be 2-D [num, dim]" + rankText(weight));
  int64_t num = weight.getDimSize(0);
  const std::optional<ShapeView> &offsets = operands.offsets;
  if (offsets && (!ids.hasRank() || ids.getRank() != 1))
    return fail(names.ids + " must be 1-D with offsets" + rankText(ids));
  if (!offsets && (!ids.hasRank() || ids.getRank() != 2))
    return fail(names.ids + " must be 2-D [bags, n] without offsets " +
                "(fixed-length bags)" + rankText(ids));
  int64_t bags = ids.getDimSize(0);
  if (!offsets) {
    if (operands.includeLastOffset)
      return fail("include_last_offset needs offsets (1-D " + names.ids + ")");
  } else {
    if (!offsets->hasRank() || offsets->getRank() != 1)
      return fail("offsets must be 1-D" + rankText(*offsets));
    bags = offsets->getDimSize(0);
    if (operands.includeLastOffset && bags == 0)
      return fail("include_last_offset needs at least one offset (the end "
                  "of the last bag)");
    if (operands.includeLastOffset && !ShapedType::isDynamic(bags))
      --bags;
  }
  if (const std::optional<ShapeView> &weights = operands.perSampleWeights) {
    if (!operands.sum)
      return fail("per_sample_weights is only supported with " +
                  names.sumReduction);
    if (!weights->hasRank() ||
        failed(verifyCompatibleShape(weights->getShape(), ids.getShape())))
      return fail("per_sample_weights must have the shape of " + names.ids);
  }
  if (std::optional<int64_t> pad = operands.paddingIdx;
      pad && !ShapedType::isDynamic(num) && (*pad < -num || *pad >= num))
    return fail("padding_idx " + Twine(*pad) + " is out of range [" +
                Twine(-num) + ", " + Twine(num - 1) + "] for a table of " +
                Twine(num) + " rows");
  return bags;
}

FailureOr<BlockLayout> BlockLayout::get(int64_t bits, int64_t blockSize,
                                        ShapeErrorFn emitError,
                                        StringRef bitsName) {
  Reporter fail{emitError};
  if (bits != 8 && bits != 4 && bits != 2)
    return fail(bitsName + " must be 8, 4 or 2, not " + Twine(bits));
  if (blockSize < 16 || !llvm::isPowerOf2_64(blockSize))
    return fail("block_size must be a power of two >= 16, not " +
                Twine(blockSize));
  return BlockLayout{bits, blockSize};
}
