//===- IndexArithmetic.h - Index values under the gather modes --*- C++ -*-===//
//
// The one home of docs/Semantics.md's index rules in emitted IR: normalization of
// negative indices, the range test, and what each mode makes of an index.
// Both lowerings (affine/vector kernels, linalg.generic bodies) and the
// sharding models' partitions use it, on i64 scalars or vectors of i64.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_INDEXARITHMETIC_H
#define GATHER_DIALECT_GATHER_UTILS_INDEXARITHMETIC_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::gather {

/// An index value as the ops read it: an element of any index type (i8..i64
/// or `index`, scalar or vector) as i64, signed.
Value indexValueToI64(OpBuilder &b, Location loc, Value raw);

/// An i64 constant, or a splat of it shaped like `like` (a vector type).
Value createI64Like(OpBuilder &b, Location loc, Type like, int64_t v);

/// `i` (i64 or vector of i64) normalized along a dimension of size `s` (i64
/// scalar): -s <= i < 0 means i + s. Cannot overflow: s >= 0 > i.
Value normalizeIndex(OpBuilder &b, Location loc, Value i, Value s);

/// Whether the normalized `n` is in [0, s) (or, if `outside`, not): one
/// unsigned compare.
Value isIndexInRange(OpBuilder &b, Location loc, Value n, Value s,
                     bool outside = false);

/// What a mode makes of an index: an i64 (or vector) subscript that is in
/// bounds when the mode defines a result, and for `fill` whether the index
/// was in range (null for the other modes).
struct ResolvedIndex {
  Value index;
  Value valid;
};

/// Applies normalization and `mode` to `i` along a dimension of size `s`.
/// `check` and `unchecked` only normalize (check mode validates first);
/// `wrap` takes Python's modulo: the low bits when s is a power of two, else
/// the remainder, computed only when some index lies outside [-s, s).
ResolvedIndex resolveIndex(OpBuilder &b, Location loc, GatherMode mode, Value i,
                           Value s);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_INDEXARITHMETIC_H
