//===- KernelBuildingBlocks.cpp - Loops, memory, index math -----*- C++ -*-===//
//
// The helpers every phase of a kernel uses.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::detail;

void KernelEmitter::forLoop(Value ub, int64_t step,
                            function_ref<void(Value)> body, bool parallel) {
  if (getConstantIntValue(ub) == 0)
    return; // No iteration: emit nothing.
  OpBuilder::InsertionGuard guard(b);
  Block *bodyBlock;
  Value iv;
  if (parallel) {
    auto loop =
        scf::ParallelOp::create(b, loc, ValueRange{constIndex(0)},
                                ValueRange{ub}, ValueRange{constIndex(step)});
    bodyBlock = loop.getBody();
    iv = loop.getInductionVars().front();
  } else if (affine::isValidSymbol(ub)) {
    AffineMap lbMap = b.getConstantAffineMap(0);
    AffineMap ubMap = AffineMap::get(0, 1, b.getAffineSymbolExpr(0));
    auto loop = affine::AffineForOp::create(b, loc, ValueRange{}, lbMap,
                                            ValueRange{ub}, ubMap, step);
    bodyBlock = loop.getBody();
    iv = loop.getInductionVar();
  } else {
    auto loop = scf::ForOp::create(b, loc, constIndex(0), ub, constIndex(step));
    bodyBlock = loop.getBody();
    iv = loop.getInductionVar();
  }
  b.setInsertionPoint(bodyBlock->getTerminator());
  body(iv);
}

void KernelEmitter::loopNest(ArrayRef<Value> ubs,
                             function_ref<void(ValueRange)> body,
                             SmallVector<Value> ivs) {
  if (ubs.empty())
    return body(ivs);
  forLoop(ubs.front(), 1, [&](Value iv) {
    SmallVector<Value> inner = ivs;
    inner.push_back(iv);
    loopNest(ubs.drop_front(), body, inner);
  });
}

void KernelEmitter::parallelNest(ArrayRef<Value> ubs,
                                 function_ref<void(ValueRange)> body) {
  if (ubs.empty() || !options.parallel)
    return loopNest(ubs, body);
  forLoop(
      ubs.front(), 1, [&](Value iv) { loopNest(ubs.drop_front(), body, {iv}); },
      /*parallel=*/true);
}

void KernelEmitter::ifThenElse(Value cond, function_ref<void()> then,
                               function_ref<void()> otherwise) {
  OpBuilder::InsertionGuard guard(b);
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/!!otherwise);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  then();
  if (otherwise) {
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    otherwise();
  }
}

static bool allAffineDims(ValueRange values) {
  return llvm::all_of(values, [](Value v) { return affine::isValidDim(v); });
}

Value KernelEmitter::load(Value memref, ValueRange subscripts) {
  if (allAffineDims(subscripts))
    return affine::AffineLoadOp::create(b, loc, memref, subscripts);
  return memref::LoadOp::create(b, loc, memref, subscripts);
}

void KernelEmitter::store(Value value, Value memref, ValueRange subscripts) {
  if (allAffineDims(subscripts))
    affine::AffineStoreOp::create(b, loc, value, memref, subscripts);
  else
    memref::StoreOp::create(b, loc, value, memref, subscripts);
}

Value KernelEmitter::zero(Type type) {
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Attribute z = b.getZeroAttr(complexType.getElementType());
    return complex::ConstantOp::create(b, loc, complexType,
                                       b.getArrayAttr({z, z}));
  }
  if (auto vectorType = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vectorType,
        DenseElementsAttr::get(vectorType,
                               b.getZeroAttr(vectorType.getElementType())));
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

Value KernelEmitter::constI64Like(Type like, int64_t v) {
  auto vectorType = dyn_cast<VectorType>(like);
  if (!vectorType)
    return constI64(v);
  auto type = VectorType::get(vectorType.getShape(), b.getI64Type());
  return arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getI64IntegerAttr(v)));
}

Value KernelEmitter::toI64(Value raw) {
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

Value KernelEmitter::readIndex(ValueRange subscripts) {
  return toI64(load(indices, subscripts));
}

Value KernelEmitter::normalize(Value i, Value s) {
  if (isa<VectorType>(i.getType()))
    s = vector::BroadcastOp::create(b, loc, i.getType(), s);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                         constI64Like(i.getType(), 0));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::AddIOp::create(b, loc, i, s), i);
}

Value KernelEmitter::inRange(Value n, Value s, bool outside) {
  if (isa<VectorType>(n.getType()))
    s = vector::BroadcastOp::create(b, loc, n.getType(), s);
  return arith::CmpIOp::create(
      b, loc, outside ? arith::CmpIPredicate::uge : arith::CmpIPredicate::ult,
      n, s);
}

void KernelEmitter::forEachChunk(
    Value n, int64_t lanes, int64_t unroll,
    function_ref<void(Value, Value, Value)> chunk) {
  Value count = constIndex(lanes);
  Value blocks = fullVectors(n, lanes * unroll);
  forLoop(blocks, lanes * unroll, [&](Value j) {
    for (int64_t u = 0; u < unroll; ++u)
      chunk(u ? arith::AddIOp::create(b, loc, j, constIndex(u * lanes))
                    .getResult()
              : j,
            nullptr, count);
  });
  Value full = fullVectors(n, lanes);
  Value singles = b.createOrFold<arith::SubIOp>(loc, full, blocks);
  forLoop(singles, lanes, [&](Value t) {
    chunk(arith::AddIOp::create(b, loc, blocks, t), nullptr, count);
  });
  std::optional<int64_t> staticN = getConstantIntValue(n);
  if (staticN && *staticN % lanes == 0)
    return;
  auto tail = [&] {
    Value rest = b.createOrFold<arith::SubIOp>(loc, n, full);
    auto maskType = VectorType::get({lanes}, b.getI1Type());
    chunk(full, vector::CreateMaskOp::create(b, loc, maskType, rest), rest);
  };
  if (staticN)
    return tail();
  ifThenElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, n, full),
             tail);
}

Subscript KernelEmitter::resolve(Value i, Value size) {
  // Works lane-wise on vectors of indices too: constants and the size are
  // splat to i's type.
  auto vectorType = dyn_cast<VectorType>(i.getType());
  auto constI64 = [&](int64_t v) { return constI64Like(i.getType(), v); };
  Value s =
      vectorType ? vector::BroadcastOp::create(b, loc, vectorType, size) : size;
  Value c0 = constI64(0);
  auto toIndex = [&](Value v) -> Value {
    if (vectorType) // vector.gather takes i64 offsets as they are.
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  };
  Value n = normalize(i, size);
  if (mode == GatherMode::wrap) {
    // Indices in [-s, s) need only the normalization; the remainder (a
    // division, split into one per lane on vectors) runs only when some
    // index lies outside.
    Value inside = inRange(n, size);
    Value allInside =
        vectorType ? vector::ReductionOp::create(
                         b, loc, vector::CombiningKind::AND, inside)
                         .getResult()
                   : inside;
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{n.getType()}, allInside,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, n);
    b.setInsertionPointToStart(ifOp.elseBlock());
    // Python modulo: the remainder takes the divisor's sign. Validation has
    // already rejected s == 0; the max keeps the division defined anyway.
    Value divisor = arith::MaxSIOp::create(b, loc, s, constI64(1));
    Value rem = arith::RemSIOp::create(b, loc, i, divisor);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, c0);
    Value shifted = arith::AddIOp::create(b, loc, rem, divisor);
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::SelectOp::create(b, loc, negative,
                                                            shifted, rem)});
    b.setInsertionPointAfter(ifOp);
    return {toIndex(ifOp.getResult(0)), nullptr};
  }
  switch (mode) {
  case GatherMode::clamp: {
    Value upper = arith::SubIOp::create(b, loc, s, constI64(1));
    Value clamped = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, n, upper), c0);
    return {toIndex(clamped), nullptr};
  }
  case GatherMode::fill: {
    Value valid = inRange(n, size);
    return {toIndex(arith::SelectOp::create(b, loc, valid, n, c0)), valid};
  }
  case GatherMode::check:     // Validated before the gather runs.
  case GatherMode::unchecked: // The caller promised in-range indices.
  case GatherMode::wrap:
    break;
  }
  return {toIndex(n), nullptr};
}
