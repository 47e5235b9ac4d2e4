//===- GatherIndexing.h - What index values select --------------*- C++ -*-===//
//
// The index semantics of SEMANTICS.md on known values: the verifier (constant
// indices out of range in check mode), the folders and the canonicalization
// patterns all use it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERINDEXING_H
#define GATHER_DIALECT_GATHER_IR_GATHERINDEXING_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
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

/// The values of a constant index operand, sign-extended, or std::nullopt.
std::optional<SmallVector<int64_t>> getConstantIndexValues(Value indices);

/// One index value that selects nothing: its row-major position in `indices`
/// and the data dimension it indexes.
struct BadIndex {
  SmallVector<int64_t> position;
  int64_t value;
  int64_t dataDim;
  int64_t dimSize;
};

/// For a gather op whose data, indices and result shapes are static, with
/// index values `indexValues` (row-major): for each result element, the
/// row-major position of the data element it reads, or -1 for a zero. Fails
/// with the first index that selects nothing in a mode that does not fill.
FailureOr<SmallVector<int64_t>>
computeSourcePositions(Operation *op, ArrayRef<int64_t> indexValues,
                       BadIndex *firstBad = nullptr);

/// For a `check`-mode op with constant indices: the first index that
/// selects nothing along a data dimension of static size.
std::optional<BadIndex> findBadConstantIndex(Operation *op);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHERINDEXING_H
