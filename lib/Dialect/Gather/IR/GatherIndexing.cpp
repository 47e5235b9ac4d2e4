//===- GatherIndexing.cpp - What index values select ------------*- C++ -*-===//

#include "gather/Dialect/Gather/IR/GatherIndexing.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;
using namespace mlir::gather;

std::optional<int64_t> mlir::gather::resolveIndex(int64_t i, int64_t s,
                                                  GatherMode mode) {
  if (s <= 0)
    return std::nullopt;
  if (mode == GatherMode::wrap) {
    int64_t r = i % s; // Never overflows: s > 0.
    return r < 0 ? r + s : r;
  }
  int64_t n = i < 0 ? i + s : i; // Never overflows: s > 0 > i.
  if (mode == GatherMode::clamp)
    return std::clamp<int64_t>(n, 0, s - 1);
  if (n < 0 || n >= s)
    return std::nullopt;
  return n;
}

bool mlir::gather::isInRange(int64_t lo, int64_t hi, int64_t s) {
  return s > 0 && lo <= hi && lo >= -s && hi < s;
}

std::optional<ConstantIndices> ConstantIndices::match(Value indices) {
  // A cast changes what is known of the shape, never the values or their
  // row-major order.
  while (auto cast = indices.getDefiningOp<tensor::CastOp>())
    indices = cast.getSource();
  DenseIntElementsAttr attr;
  if (!matchPattern(indices, m_Constant(&attr)))
    return std::nullopt;
  // A splat's shape is free to have more elements than int64_t counts.
  return ConstantIndices(attr,
                         getCheckedNumElements(attr.getType().getShape())
                             .value_or(std::numeric_limits<int64_t>::max()));
}

/// The row-major position of element `flat` of static `shape`. Needs no
/// strides, so it cannot overflow.
static SmallVector<int64_t> delinearizeInShape(int64_t flat,
                                               ArrayRef<int64_t> shape) {
  SmallVector<int64_t> position(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    position[d] = flat % shape[d];
    flat /= shape[d];
  }
  return position;
}

namespace {
/// The parts of a gather op the index walk needs.
struct OpView {
  enum Kind { Gather, Elements, ND } kind;
  GatherShape shape;
  GatherMode mode;
  ShapedType data, indices, result;
};
} // namespace

static std::optional<OpView> viewOf(Operation *op) {
  auto gather = dyn_cast<GatherOpInterface>(op);
  if (!gather)
    return std::nullopt;
  OpView view;
  view.kind = isa<GatherNDOp>(op)         ? OpView::ND
              : isa<GatherElementsOp>(op) ? OpView::Elements
                                          : OpView::Gather;
  view.mode = gather.getMode();
  FailureOr<GatherShape> shape = gather.getGatherShape();
  if (failed(shape) || !shape->ranked)
    return std::nullopt;
  view.shape = *shape;
  view.data = cast<ShapedType>(op->getOperand(0).getType());
  view.indices = cast<ShapedType>(op->getOperand(1).getType());
  view.result = cast<ShapedType>(op->getResult(0).getType());
  if (!view.data.hasRank() || !view.indices.hasRank())
    return std::nullopt;
  return view;
}

std::string BadIndex::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "index " << value << " at indices[";
  llvm::interleaveComma(position, os);
  os << "] is out of range [" << -dimSize << ", " << dimSize - 1
     << "] for data dimension " << dataDim << " of size " << dimSize;
  return text;
}

std::optional<BadIndex> mlir::gather::findBadConstantIndex(Operation *op) {
  std::optional<OpView> view = viewOf(op);
  if (!view)
    return std::nullopt;
  std::optional<ConstantIndices> indices =
      ConstantIndices::match(op->getOperand(1));
  if (!indices)
    return std::nullopt;
  return findBadConstantIndex(view->shape, view->mode, view->data,
                              view->indices, *indices);
}

std::optional<BadIndex>
mlir::gather::findBadConstantIndex(const GatherShape &shape, GatherMode mode,
                                   ShapedType data, ShapedType indicesType,
                                   const ConstantIndices &indices) {
  if (mode != GatherMode::check || !shape.ranked || !data.hasRank() ||
      !indicesType.hasStaticShape())
    return std::nullopt;
  int64_t k = shape.tupleSize;
  for (auto [flat, value] : llvm::enumerate(indices.getValuesModulo(k))) {
    int64_t dim = shape.indexedDim(flat % k);
    int64_t size = data.getDimSize(dim);
    if (ShapedType::isDynamic(size) || resolveIndex(value, size, mode))
      continue;
    return BadIndex{delinearizeInShape(flat, indicesType.getShape()), value,
                    dim, size};
  }
  return std::nullopt;
}

FailureOr<SmallVector<int64_t>> mlir::gather::computeSourcePositions(
    Operation *op, const ConstantIndices &indexValues, BadIndex *firstBad) {
  std::optional<OpView> view = viewOf(op);
  if (!view || !view->data.hasStaticShape() ||
      !view->indices.hasStaticShape() || !view->result.hasStaticShape())
    return failure();
  // The limit first; then the strides below cannot overflow.
  std::optional<int64_t> count = getCheckedNumElements(view->result.getShape());
  if (!count || *count > kMaxMaterializedElements ||
      !getCheckedNumElements(view->data.getShape()) ||
      !getCheckedNumElements(view->indices.getShape()))
    return failure();
  ArrayRef<int64_t> dataShape = view->data.getShape();
  SmallVector<int64_t> dataStrides = computeSuffixProduct(dataShape);
  SmallVector<int64_t> indexStrides =
      computeSuffixProduct(view->indices.getShape());
  SmallVector<int64_t> resultStrides =
      computeSuffixProduct(view->result.getShape());
  int64_t a = view->shape.axis, b = view->shape.batchDims;
  int64_t q = view->indices.getRank();

  // Resolves the index at `position` of `indices`; nullopt means "zero".
  bool failedIndex = false;
  auto select = [&](ArrayRef<int64_t> position,
                    int64_t dim) -> std::optional<int64_t> {
    int64_t value = indexValues[linearize(position, indexStrides)];
    std::optional<int64_t> r = resolveIndex(value, dataShape[dim], view->mode);
    if (!r && view->mode != GatherMode::fill) {
      if (firstBad && !failedIndex)
        *firstBad = {SmallVector<int64_t>(position), value, dim,
                     dataShape[dim]};
      failedIndex = true;
    }
    return r;
  };

  SmallVector<int64_t> positions;
  positions.reserve(*count);
  for (int64_t flat = 0; flat < *count && !failedIndex; ++flat) {
    SmallVector<int64_t> o = delinearize(flat, resultStrides);
    SmallVector<int64_t> d;
    bool zero = false;
    auto take = [&](ArrayRef<int64_t> position, int64_t dim) {
      std::optional<int64_t> r = select(position, dim);
      zero |= !r;
      d.push_back(r.value_or(0));
    };
    switch (view->kind) {
    case OpView::Gather: {
      SmallVector<int64_t> at(o.begin(), o.begin() + b);
      at.append(o.begin() + a, o.begin() + a + q - b);
      d.assign(o.begin(), o.begin() + a);
      take(at, a);
      d.append(o.begin() + a + q - b, o.end());
      break;
    }
    case OpView::Elements: {
      SmallVector<int64_t> rest(o);
      d.assign(o.begin(), o.begin() + a);
      take(o, a);
      d.append(rest.begin() + a + 1, rest.end());
      break;
    }
    case OpView::ND: {
      d.assign(o.begin(), o.begin() + b);
      for (int64_t c = 0; c < view->shape.tupleSize; ++c) {
        SmallVector<int64_t> at(o.begin(), o.begin() + q - 1);
        at.push_back(c);
        take(at, view->shape.indexedDim(c));
      }
      d.append(o.begin() + q - 1, o.end());
      break;
    }
    }
    positions.push_back(zero ? -1 : linearize(d, dataStrides));
  }
  if (failedIndex)
    return failure();
  return positions;
}
