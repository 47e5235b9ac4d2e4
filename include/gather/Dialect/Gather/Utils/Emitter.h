//===- Emitter.h - What the lowerings' emitters build with ------*- C++ -*-===//
//
// The base of every class that emits a lowering of a gather op (the affine
// kernels, the linalg path, embedding bags as loops, the rank dispatch):
// the builder, the op's location, and the constants they all make.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_EMITTER_H
#define GATHER_DIALECT_GATHER_UTILS_EMITTER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::gather {

/// The bytes of a cache line, the unit the kernels' prefetches name (one
/// `memref.prefetch` a line).
constexpr int64_t kCacheLineBytes = 64;

/// `cond ? then() : otherwise()` as an scf.if yielding a value of `type`:
/// each branch is built only inside its own region.
Value createIfElse(OpBuilder &b, Location loc, Type type, Value cond,
                   function_ref<Value()> then, function_ref<Value()> otherwise);

/// A slice's `offset` into a dim of size `dimSize` (kDynamic: unknown): as
/// given, but a value where it is a constant at or past a static dim's end.
/// Upstream's slice verifier rejects such an offset even for an empty slice
/// (an offset 0 into a dim of size 0, an offset 2 into a dim of size 2),
/// and its constant folder keeps it a value.
OpFoldResult sliceOffsetInto(OpBuilder &b, Location loc, OpFoldResult offset,
                             int64_t dimSize);

/// An `!llvm.ptr` to the element of the strided memref `memref` at
/// `subscripts` (none: the first element of its view), its elements
/// `elementBytes` bytes each: the address an LLVM memcpy or memmove takes.
Value createElementPointer(OpBuilder &b, Location loc, Value memref,
                           ValueRange subscripts, Value elementBytes);

class EmitterBase {
protected:
  EmitterBase(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constIndex(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value constI64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value constBool(bool v) {
    return arith::ConstantIntOp::create(b, loc, b.getI1Type(), v);
  }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  /// The size of dim `d` of the ranked tensor or memref `shaped`, as an
  /// index value (a constant where it is static).
  Value tensorDim(Value shaped, int64_t d);
  /// The zero of `type`: an integer, float or complex scalar, or a vector
  /// of integers or floats.
  Value zero(Type type);

  OpBuilder &b;
  Location loc;
};

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_EMITTER_H
