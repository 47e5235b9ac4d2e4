//===- IndexArithmetic.cpp - Index values under the gather modes ---------===//

#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::gather;

Value mlir::gather::indexValueToI64(OpBuilder &b, Location loc, Value raw,
                                    IndexExtension extension) {
  Type i64 = b.getI64Type();
  if (auto vectorType = dyn_cast<VectorType>(raw.getType()))
    i64 = VectorType::get(vectorType.getShape(), i64);
  Type element = getElementTypeOrSelf(raw.getType());
  if (element.isIndex())
    return arith::IndexCastOp::create(b, loc, i64, raw);
  if (element.getIntOrFloatBitWidth() < 64 &&
      extension == IndexExtension::Unsigned)
    return arith::ExtUIOp::create(b, loc, i64, raw);
  if (element.getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(b, loc, i64, raw);
  return raw;
}

Value mlir::gather::createI64Like(OpBuilder &b, Location loc, Type like,
                                  int64_t v) {
  auto vectorType = dyn_cast<VectorType>(like);
  if (!vectorType)
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  auto type = VectorType::get(vectorType.getShape(), b.getI64Type());
  return arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getI64IntegerAttr(v)));
}

/// Scalar `s` splat to the shape of `like` when that is a vector.
static Value splatLike(OpBuilder &b, Location loc, Value s, Value like) {
  if (auto vectorType = dyn_cast<VectorType>(like.getType()))
    return vector::BroadcastOp::create(
        b, loc, VectorType::get(vectorType.getShape(), s.getType()), s);
  return s;
}

Value mlir::gather::normalizeIndex(OpBuilder &b, Location loc, Value i,
                                   Value s) {
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                         createI64Like(b, loc, i.getType(), 0));
  return arith::SelectOp::create(
      b, loc, negative,
      arith::AddIOp::create(b, loc, i, splatLike(b, loc, s, i)), i);
}

Value mlir::gather::isIndexInRange(OpBuilder &b, Location loc, Value n, Value s,
                                   bool outside) {
  return arith::CmpIOp::create(
      b, loc, outside ? arith::CmpIPredicate::uge : arith::CmpIPredicate::ult,
      n, splatLike(b, loc, s, n));
}

/// `cond` (an i1, or a vector of them: all lanes) ? then() : otherwise(),
/// as a value of `type`.
static Value select(OpBuilder &b, Location loc, Type type, Value cond,
                    function_ref<Value()> then,
                    function_ref<Value()> otherwise) {
  if (isa<VectorType>(cond.getType()))
    cond =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::AND, cond);
  return createIfElse(b, loc, type, cond, then, otherwise);
}

/// Indices of smaller magnitude than this take pythonModulo's quotient from
/// doubles: they convert exactly, and the quotient is off by at most one.
static constexpr int64_t kDoubleQuotientBound = int64_t(1) << 52;

/// Python modulo of `i` by `s`: the remainder takes the divisor's sign.
/// Validation rejects s == 0 first; the max keeps the division defined.
/// A divisor known only at run time makes a division take tens of
/// cycles (one a lane on vectors): indices below kDoubleQuotientBound in
/// magnitude (all but absurd ones) take the quotient q from a double
/// multiply by 1 / s instead, truncated (within [floor(i / s) - 1,
/// floor(i / s) + 2]: i - q s is in [-2s, 2s), which two additions and one
/// subtraction of s bring into [0, s)); the others divide.
static Value pythonModulo(OpBuilder &b, Location loc, Value i, Value s) {
  Type type = i.getType();
  Value zero = createI64Like(b, loc, type, 0);
  Value divisor = arith::MaxSIOp::create(b, loc, splatLike(b, loc, s, i),
                                         createI64Like(b, loc, type, 1));
  auto divided = [&]() -> Value {
    Value rem = arith::RemSIOp::create(b, loc, i, divisor);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
    Value shifted = arith::AddIOp::create(b, loc, rem, divisor);
    return arith::SelectOp::create(b, loc, negative, shifted, rem);
  };
  auto fromDoubles = [&]() -> Value {
    Type f64 = b.getF64Type();
    if (auto vectorType = dyn_cast<VectorType>(type))
      f64 = VectorType::get(vectorType.getShape(), f64);
    Value d = arith::SIToFPOp::create(b, loc, f64, divisor);
    FloatAttr oneAttr = b.getF64FloatAttr(1.0);
    Value one = arith::ConstantOp::create(
        b, loc,
        isa<VectorType>(f64)
            ? TypedAttr(DenseElementsAttr::get(cast<ShapedType>(f64), oneAttr))
            : TypedAttr(oneAttr));
    Value reciprocal = arith::DivFOp::create(b, loc, one, d);
    Value q = arith::FPToSIOp::create(
        b, loc, type,
        arith::MulFOp::create(b, loc, arith::SIToFPOp::create(b, loc, f64, i),
                              reciprocal));
    Value r = arith::SubIOp::create(b, loc, i,
                                    arith::MulIOp::create(b, loc, q, divisor));
    for (int k = 0; k < 2; ++k)
      r = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero),
          arith::AddIOp::create(b, loc, r, divisor), r);
    return arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, r, divisor),
        arith::SubIOp::create(b, loc, r, divisor), r);
  };
  // A constant divisor: LLVM divides by multiplying, exactly.
  if (getConstantIntValue(s))
    return divided();
  // |i| < bound: i + bound, as unsigned, below 2 bound.
  Value small = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult,
      arith::AddIOp::create(b, loc, i,
                            createI64Like(b, loc, type, kDoubleQuotientBound)),
      createI64Like(b, loc, type, 2 * kDoubleQuotientBound));
  return select(b, loc, type, small, fromDoubles, divided);
}

/// For an i64 size s: max(s, 1) - 1, and whether s is a power of two (or
/// zero).
static std::pair<Value, Value> lowBitsMask(OpBuilder &b, Location loc,
                                           Value s) {
  Value one = createI64Like(b, loc, s.getType(), 1);
  Value mask = arith::SubIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, s, one), one);
  Value powerOfTwo = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, arith::AndIOp::create(b, loc, s, mask),
      createI64Like(b, loc, s.getType(), 0));
  return {mask, powerOfTwo};
}

/// `i` wrapped into [0, s): indices in [-s, s) need only the normalization
/// `n`, and the remainder runs only when some index lies outside. A power
/// of two s known at run time (ids hashed into 2^k rows; a test outside the
/// loop) takes i's low bits instead, which are the remainder of the
/// divisor's sign: no range test, no division.
static Value wrapIndex(OpBuilder &b, Location loc, Value i, Value n, Value s) {
  Type type = i.getType();
  auto general = [&] {
    return select(
        b, loc, type, isIndexInRange(b, loc, n, s), [&] { return n; },
        [&] { return pythonModulo(b, loc, i, s); });
  };
  if (getConstantIntValue(s))
    return general();
  Value mask, powerOfTwo;
  std::tie(mask, powerOfTwo) = lowBitsMask(b, loc, s);
  return select(
      b, loc, type, powerOfTwo,
      [&]() -> Value {
        return arith::AndIOp::create(b, loc, i, splatLike(b, loc, mask, i));
      },
      general);
}

ResolvedIndex mlir::gather::resolveIndex(OpBuilder &b, Location loc,
                                         GatherMode mode, Value i, Value s) {
  Type type = i.getType();
  Value n = normalizeIndex(b, loc, i, s);
  switch (mode) {
  case GatherMode::wrap:
    return {wrapIndex(b, loc, i, n, s), nullptr};
  case GatherMode::clamp: {
    Value upper = arith::SubIOp::create(b, loc, splatLike(b, loc, s, i),
                                        createI64Like(b, loc, type, 1));
    Value clamped =
        arith::MaxSIOp::create(b, loc, arith::MinSIOp::create(b, loc, n, upper),
                               createI64Like(b, loc, type, 0));
    return {clamped, nullptr};
  }
  case GatherMode::fill: {
    Value valid = isIndexInRange(b, loc, n, s);
    return {arith::SelectOp::create(b, loc, valid, n,
                                    createI64Like(b, loc, type, 0)),
            valid};
  }
  case GatherMode::check:     // Validated before the gather runs.
  case GatherMode::unchecked: // The caller promised in-range indices.
    break;
  }
  return {n, nullptr};
}

DirectIndex::DirectIndex(OpBuilder &b, Location loc, GatherMode mode, Value s)
    : mode(mode) {
  assert(hasRule(mode) && "no index outside [0, s) is direct in this mode");
  if (mode == GatherMode::clamp) {
    bound =
        arith::SubIOp::create(b, loc, s, createI64Like(b, loc, s.getType(), 1));
    return;
  }
  std::tie(bound, powerOfTwo) = lowBitsMask(b, loc, s);
}

Value DirectIndex::admits(OpBuilder &b, Location loc, Value i) const {
  if (mode == GatherMode::clamp)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i,
                                 createI64Like(b, loc, i.getType(), 0));
  return splatLike(b, loc, powerOfTwo, i);
}

Value DirectIndex::subscript(OpBuilder &b, Location loc, Value i) const {
  if (mode == GatherMode::clamp)
    return arith::MinUIOp::create(b, loc, i, bound);
  return arith::AndIOp::create(b, loc, i, bound);
}
