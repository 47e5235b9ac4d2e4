//===- IndexArithmetic.cpp - Index values under the gather modes ---------===//

#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::gather;

Value mlir::gather::indexValueToI64(OpBuilder &b, Location loc, Value raw) {
  Type i64 = b.getI64Type();
  if (auto vectorType = dyn_cast<VectorType>(raw.getType()))
    i64 = VectorType::get(vectorType.getShape(), i64);
  Type element = getElementTypeOrSelf(raw.getType());
  if (element.isIndex())
    return arith::IndexCastOp::create(b, loc, i64, raw);
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

/// `s` splat to the type of `like` when that is a vector.
static Value splatLike(OpBuilder &b, Location loc, Value s, Value like) {
  if (isa<VectorType>(like.getType()))
    return vector::BroadcastOp::create(b, loc, like.getType(), s);
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

/// Python modulo of `i` by `s`: the remainder takes the divisor's sign.
/// Validation rejects s == 0 first; the max keeps the division defined.
static Value pythonModulo(OpBuilder &b, Location loc, Value i, Value s) {
  Type type = i.getType();
  Value divisor = arith::MaxSIOp::create(b, loc, splatLike(b, loc, s, i),
                                         createI64Like(b, loc, type, 1));
  Value rem = arith::RemSIOp::create(b, loc, i, divisor);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem,
                                         createI64Like(b, loc, type, 0));
  Value shifted = arith::AddIOp::create(b, loc, rem, divisor);
  return arith::SelectOp::create(b, loc, negative, shifted, rem);
}

ResolvedIndex mlir::gather::resolveIndex(OpBuilder &b, Location loc,
                                         GatherMode mode, Value i, Value s) {
  Type type = i.getType();
  Value n = normalizeIndex(b, loc, i, s);
  switch (mode) {
  case GatherMode::wrap: {
    // Indices in [-s, s) need only the normalization; the remainder (a
    // division, one per lane on vectors) runs only when some index lies
    // outside.
    Value inside = isIndexInRange(b, loc, n, s);
    if (isa<VectorType>(type))
      inside = vector::ReductionOp::create(b, loc, vector::CombiningKind::AND,
                                           inside);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, inside,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, n);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, pythonModulo(b, loc, i, s));
    return {ifOp.getResult(0), nullptr};
  }
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
