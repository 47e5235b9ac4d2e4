//===- GatherIndexing.h - What index values select --------------*- C++ -*-===//
//
// The index semantics of docs/Semantics.md on known values: the warning about
// constant indices out of range in check mode, the folders and the
// canonicalization patterns all use it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERINDEXING_H
#define GATHER_DIALECT_GATHER_IR_GATHERINDEXING_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::gather {

/// The position index value `i` selects along a dimension of size `s` in
/// `mode`, or std::nullopt when it selects nothing (an error in `check`, a
/// zero in `fill`, undefined in `unchecked`, an empty dimension in any mode).
std::optional<int64_t> resolveIndex(int64_t i, int64_t s, GatherMode mode);

/// Whether every value in [lo, hi] is a valid index into a dimension of size
/// `s` (i.e. lies in [-s, s)); then all modes agree with `unchecked`.
bool isInRange(int64_t lo, int64_t hi, int64_t s);

/// Bounded access to a constant index operand. The elements are read in place,
/// never copied, so a splat costs O(1) whatever its shape; a walk over a
/// non-splat constant costs what the attribute already stores.
class ConstantIndices {
public:
  /// The constant that `indices` is (seen through tensor.cast), or
  /// std::nullopt when it is not one.
  static std::optional<ConstantIndices> match(Value indices);

  /// The number of elements, saturated at INT64_MAX (only a splat has more).
  int64_t size() const { return numElements; }
  bool isSplat() const { return attr.isSplat(); }
  /// The value at row-major position `flat`, sign-extended.
  int64_t operator[](int64_t flat) const {
    return attr.getValues<APInt>()[flat].getSExtValue();
  }
  /// The first `count` (<= size()) values, row-major, sign-extended, read
  /// lazily.
  auto getLeadingValues(int64_t count) const {
    auto values = attr.getValues<APInt>();
    return llvm::map_range(
        llvm::make_range(values.begin(), values.begin() + count),
        [](const APInt &v) { return v.getSExtValue(); });
  }
  /// Every value.
  auto getValues() const { return getLeadingValues(numElements); }
  /// The values a check that depends only on a value and on its position
  /// modulo `period` must see: all of them, or the first `period` of a splat
  /// (gather_nd: one per tuple component).
  auto getValuesModulo(int64_t period) const {
    return getLeadingValues(isSplat() ? std::min(period, numElements)
                                      : numElements);
  }

private:
  ConstantIndices(DenseIntElementsAttr attr, int64_t numElements)
      : attr(attr), numElements(numElements) {}

  DenseIntElementsAttr attr;
  int64_t numElements;
};

/// One index value that selects nothing: its row-major position in `indices`
/// and the data dimension it indexes.
struct BadIndex {
  SmallVector<int64_t> position;
  int64_t value;
  int64_t dataDim;
  int64_t dimSize;

  /// "index V at indices[P] is out of range [-S, S-1] for data dimension D
  /// of size S".
  std::string describe() const;
};

/// The most elements computeSourcePositions computes (and a folder
/// materializes).
constexpr int64_t kMaxMaterializedElements = 4096;

/// For a gather op whose data, indices and result shapes are static, with
/// constant indices `indices`: for each result element, the row-major
/// position of the data element it reads, or -1 for a zero. Fails, before any
/// work, when the result has more than kMaxMaterializedElements elements or
/// an operand's element count overflows int64_t; fails with the first index
/// that selects nothing in a mode that does not fill.
FailureOr<SmallVector<int64_t>>
computeSourcePositions(Operation *op, const ConstantIndices &indices,
                       BadIndex *firstBad = nullptr);

/// For a `check`-mode op with constant indices: the first index that
/// selects nothing along a data dimension of static size.
std::optional<BadIndex> findBadConstantIndex(Operation *op);

/// The same on the parts of an op (one that may not exist yet, such as the
/// one a rewrite is about to build): the rules' result `shape`, the operand
/// types and the constant `indices`.
std::optional<BadIndex> findBadConstantIndex(const GatherShape &shape,
                                             GatherMode mode, ShapedType data,
                                             ShapedType indicesType,
                                             const ConstantIndices &indices);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHERINDEXING_H
