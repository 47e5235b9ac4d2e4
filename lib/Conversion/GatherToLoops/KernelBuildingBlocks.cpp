//===- KernelBuildingBlocks.cpp - Loops, memory, index math -----*- C++ -*-===//
//
// The helpers every phase of a kernel uses.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

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
  ifNoneEmpty(innerBounds(ubs), [&] {
    emitPlanned(
        ubs.empty() ? nullptr : planner.parallel(out),
        [&] { threadedNest(ubs, body); }, [&] { loopNest(ubs, body); });
  });
}

/// Pieces a row is split into for threads: whole cache lines and vectors
/// of any element type (from 4 KiB), and enough of them to balance the
/// threads of a row worth threading (KernelPlanner::parallel).
static constexpr int64_t kRowPieceElements = 4096;

/// An outermost dim of at least this many positions balances threads on
/// its own: its rows are not split into pieces (piecedNest).
static constexpr int64_t kPiecedOuterMax = 64;

void KernelEmitter::piecedNest(ArrayRef<Value> outer, Value n, RowFn row) {
  SmallVector<Value> sizes(innerBounds(outer));
  sizes.push_back(n);
  auto serial = [&] {
    loopNest(outer, [&](ValueRange ivs) { row(ivs, n, nullptr); });
  };
  auto whole = [&] {
    threadedNest(outer, [&](ValueRange ivs) { row(ivs, n, nullptr); });
  };
  auto pieced = [&] {
    Value pieces = pieceCount(n);
    forLoop(
        pieceItems(outer, pieces), 1,
        [&](Value k) { pieceItem(outer, n, pieces, k, row); },
        /*parallel=*/true);
  };
  Value few = fewLongRows(outer, n);
  // A lone row that stays whole has nothing to share: serial.
  ifNoneEmpty(sizes, [&] {
    emitPlanned(
        outer.empty() && !few ? nullptr : planner.parallel(out),
        [&] { emitPlanned(few, pieced, whole); }, serial);
  });
}

Value KernelEmitter::fewLongRows(ArrayRef<Value> outer, Value n) {
  std::optional<int64_t> staticN = getConstantIntValue(n);
  if (staticN && *staticN <= kRowPieceElements)
    return nullptr;
  if (outer.empty())
    return constBool(true);
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                       outer.front(),
                                       constIndex(kPiecedOuterMax));
}

Value KernelEmitter::pieceItems(ArrayRef<Value> outer, Value pieces) {
  if (outer.empty())
    return pieces;
  return b.createOrFold<arith::MulIOp>(loc, outer.front(), pieces);
}

void KernelEmitter::pieceItem(ArrayRef<Value> outer, Value n, Value pieces,
                              Value k, RowFn row) {
  // Item k is piece k % pieces of the rows at position k / pieces of the
  // outermost dim (k itself when that dim is absent or the constant 1).
  bool single = outer.empty() || getConstantIntValue(outer.front()) == 1;
  Value piece = single ? k : b.createOrFold<arith::RemUIOp>(loc, k, pieces);
  std::pair<Value, Value> bounds = pieceBounds(n, piece);
  SmallVector<Value> prefix;
  if (!outer.empty())
    prefix.push_back(single ? constIndex(0)
                            : b.createOrFold<arith::DivUIOp>(loc, k, pieces));
  loopNest(
      outer.drop_front(outer.empty() ? 0 : 1),
      [&](ValueRange ivs) { row(ivs, bounds.second, bounds.first); }, prefix);
}

void KernelEmitter::sliceNest(const SlicePlan &plan, ArrayRef<Value> ubs,
                              RowFn body) {
  if (plan.extents.empty())
    return parallelNest(ubs,
                        [&](ValueRange ivs) { body(ivs, nullptr, nullptr); });
  piecedNest(ubs, plan.extents.back(), body);
}

Value KernelEmitter::pieceCount(Value n) {
  return b.createOrFold<arith::CeilDivUIOp>(loc, n,
                                            constIndex(kRowPieceElements));
}

std::pair<Value, Value> KernelEmitter::pieceBounds(Value n, Value k) {
  Value piece = constIndex(kRowPieceElements);
  Value start = b.createOrFold<arith::MulIOp>(loc, k, piece);
  Value length = b.createOrFold<arith::MinUIOp>(
      loc, piece, b.createOrFold<arith::SubIOp>(loc, n, start));
  return {start, length};
}

void KernelEmitter::columnBlockNest(ArrayRef<Value> ubs, int64_t axis,
                                    RowFn row) {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  int64_t blockElements =
      std::max<int64_t>(1, kColumnBlockBytes / getElementSizeInBytes(element));
  Value block = constIndex(blockElements);
  Value last = ubs.back();
  SmallVector<Value> outer;
  for (int64_t d = 0, e = ubs.size() - 1; d < e; ++d)
    if (d != axis)
      outer.push_back(ubs[d]);
  outer.push_back(arith::CeilDivUIOp::create(b, loc, last, block));
  parallelNest(outer, [&](ValueRange blockIvs) {
    Value start = arith::MulIOp::create(b, loc, blockIvs.back(), block);
    Value length = arith::MinUIOp::create(
        b, loc, block, arith::SubIOp::create(b, loc, last, start));
    forLoop(ubs[axis], 1, [&](Value position) {
      SmallVector<Value> ivs(blockIvs.drop_back());
      ivs.insert(ivs.begin() + axis, position);
      row(ivs, length, start);
    });
  });
}

void KernelEmitter::threadedNest(ArrayRef<Value> ubs,
                                 function_ref<void(ValueRange)> body) {
  forLoop(
      ubs.front(), 1, [&](Value iv) { loopNest(ubs.drop_front(), body, {iv}); },
      /*parallel=*/true);
}

void KernelEmitter::ifNoneEmpty(ArrayRef<Value> sizes,
                                function_ref<void()> body) {
  Value none;
  for (Value size : sizes) {
    std::optional<int64_t> c = getConstantIntValue(size);
    if (c == 0)
      return;
    if (c)
      continue;
    Value nonZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          size, constIndex(0));
    none = none ? arith::AndIOp::create(b, loc, none, nonZero).getResult()
                : nonZero;
  }
  if (!none)
    return body();
  ifThenElse(none, body);
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

void KernelEmitter::emitPlanned(Value plan, function_ref<void()> then,
                                function_ref<void()> otherwise) {
  std::optional<int64_t> known =
      plan ? getConstantIntValue(plan) : std::optional<int64_t>(0);
  if (!known)
    return ifThenElse(plan, then, otherwise);
  if (*known)
    return then();
  if (otherwise)
    otherwise();
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

Value KernelEmitter::constI64Like(Type like, int64_t v) {
  return createI64Like(b, loc, like, v);
}

Value KernelEmitter::readIndex(ValueRange subscripts) {
  return widenIndex(load(indices, subscripts));
}

Value KernelEmitter::normalize(Value i, Value s) {
  return normalizeIndex(b, loc, i, s);
}

Value KernelEmitter::inRange(Value n, Value s, bool outside) {
  return isIndexInRange(b, loc, n, s, outside);
}

void KernelEmitter::forEachChunk(Value n, int64_t lanes,
                                 function_ref<void(Value, Value, Value)> chunk,
                                 ArrayRef<FastChunk> fast, Value offset) {
  Value full = fullVectors(n, lanes);
  // Element j of the n, as the callbacks count it.
  auto at = [&](Value j) -> Value {
    return offset ? arith::AddIOp::create(b, loc, offset, j).getResult() : j;
  };
  if (fast.empty()) {
    forLoop(full, lanes,
            [&](Value j) { chunk(at(j), nullptr, constIndex(lanes)); });
  } else if (std::optional<int64_t> count = getConstantIntValue(full);
             !count || *count > 0) {
    // Each way's vectors from where the way before stopped up to the first
    // its test fails for, then chunks. Loops, not one with a branch a
    // vector: LLVM merges the branches' loads into one block fed by both
    // ways of computing their subscripts, which spills the fast way's.
    Type indexType = b.getIndexType();
    Value from = constIndex(0);
    for (const FastChunk &way : fast) {
      // way.holds(j) for a full vector at j, else false.
      auto holdsAt = [&](Value j) {
        OpBuilder::InsertionGuard guard(b);
        auto ifOp = scf::IfOp::create(
            b, loc, TypeRange{b.getI1Type()},
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j, full),
            /*withElseRegion=*/true);
        b.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(b, loc, way.holds(at(j)));
        b.setInsertionPointToStart(ifOp.elseBlock());
        scf::YieldOp::create(b, loc, constBool(false));
        return ifOp.getResult(0);
      };
      auto wayLoop =
          scf::WhileOp::create(b, loc, TypeRange{indexType, b.getI1Type()},
                               ValueRange{from, holdsAt(from)});
      OpBuilder::InsertionGuard guard(b);
      Block *before = b.createBlock(&wayLoop.getBefore(), {},
                                    {indexType, b.getI1Type()}, {loc, loc});
      scf::ConditionOp::create(b, loc, before->getArgument(1),
                               before->getArguments());
      Block *after = b.createBlock(&wayLoop.getAfter(), {},
                                   {indexType, b.getI1Type()}, {loc, loc});
      Value j = after->getArgument(0);
      Value next = arith::AddIOp::create(b, loc, j, constIndex(lanes));
      Value nextHolds = holdsAt(next);
      way.emit(at(j));
      scf::YieldOp::create(b, loc, ValueRange{next, nextHolds});
      from = wayLoop.getResult(0);
    }
    auto rest = scf::ForOp::create(b, loc, from, full, constIndex(lanes));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rest.getBody()->getTerminator());
    chunk(at(rest.getInductionVar()), nullptr, constIndex(lanes));
  }
  std::optional<int64_t> staticN = getConstantIntValue(n);
  if (staticN && *staticN % lanes == 0)
    return;
  auto tail = [&] {
    Value rest = b.createOrFold<arith::SubIOp>(loc, n, full);
    auto maskType = VectorType::get({lanes}, b.getI1Type());
    chunk(at(full), vector::CreateMaskOp::create(b, loc, maskType, rest), rest);
  };
  if (staticN)
    return tail();
  ifThenElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, n, full),
             tail);
}

Subscript KernelEmitter::resolve(Value i, Value size,
                                 std::optional<GatherMode> as) {
  ResolvedIndex r = resolveIndex(b, loc, as.value_or(mode), i, size);
  // vector.gather takes i64 offsets as they are; loads take an index.
  if (isa<VectorType>(r.index.getType()))
    return {r.index, r.valid};
  return {arith::IndexCastOp::create(b, loc, b.getIndexType(), r.index),
          r.valid};
}
