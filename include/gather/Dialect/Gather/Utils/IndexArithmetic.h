//===- IndexArithmetic.h - Index values under the gather modes --*- C++ -*-===//
//
// The one home of docs/Semantics.md's index rules in emitted IR: normalization
// of negative indices, the range test, and what each mode makes of an index.
// Both lowerings (affine/vector kernels, linalg.generic bodies) and the
// sharding models' partitions use it, on i64 scalars or vectors of i64.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_INDEXARITHMETIC_H
#define GATHER_DIALECT_GATHER_UTILS_INDEXARITHMETIC_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::gather {

/// How the elements of an index buffer are read: signed, the ops' rule, or
/// unsigned, where a lowering reads the narrower operand of an arith.extui
/// (or index_castui) that widens the op's indices (convert-gather-to-loops).
enum class IndexExtension { Signed, Unsigned };

/// An index value as the ops read it: an element of any index type (i8..i64
/// or `index`, scalar or vector) as i64, extended as `extension` says.
Value indexValueToI64(OpBuilder &b, Location loc, Value raw,
                      IndexExtension extension = IndexExtension::Signed);

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

/// Index values outside [0, s) that one scalar operation resolves under a
/// mode along a dimension of size `s` > 0, and that operation: in `clamp`
/// every index that is not negative, as min(i, s - 1) (unsigned); in
/// `wrap` with s a power of two, every index, as i & (s - 1). (Positions,
/// in [0, s), need none in any mode.) A kernel reads such indices as
/// scalars (a vector's subscripts moved to scalar registers cost more).
class DirectIndex {
public:
  /// Whether `mode` has such indices: clamp and wrap.
  static bool hasRule(GatherMode mode) {
    return mode == GatherMode::clamp || mode == GatherMode::wrap;
  }
  /// The rule for `mode` (one that hasRule) along size `s` (an i64
  /// scalar): its run-time parts are computed here, once.
  DirectIndex(OpBuilder &b, Location loc, GatherMode mode, Value s);
  /// Whether index value `i` (i64, or a vector) is one of them: an i1, or
  /// a vector of i1.
  Value admits(OpBuilder &b, Location loc, Value i) const;
  /// The subscript of an admitted index value `i` (i64): what resolveIndex
  /// makes of it.
  Value subscript(OpBuilder &b, Location loc, Value i) const;

private:
  GatherMode mode;
  /// clamp: s - 1; wrap: s - 1 (a mask of the low bits).
  Value bound;
  /// wrap: whether s is a power of two.
  Value powerOfTwo;
};

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_INDEXARITHMETIC_H
