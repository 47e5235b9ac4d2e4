//===- KernelValidation.cpp - Phase 1 of a kernel ---------------*- C++ -*-===//
//
// Run-time shape rules and index checks; nothing of `data` is read here.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::detail;

Value KernelEmitter::validateShapes(const GatherShape &shape) {
  if (mode == GatherMode::unchecked)
    return nullptr;
  auto dataType = cast<MemRefType>(data.getType());
  auto indicesType = cast<MemRefType>(indices.getType());
  auto outType = cast<MemRefType>(out.getType());
  // (rule, dim, a, b): the rule holds when a == b, or, for gather_elements'
  // rule, b <= a. Only pairs that involve a dynamic dim need run-time tests.
  struct Rule {
    int64_t rule, dim;
    Value a, b;
  };
  SmallVector<Rule> rules;
  auto needsTest = [](MemRefType x, int64_t dx, MemRefType y, int64_t dy) {
    return x.isDynamicDim(dx) || y.isDynamicDim(dy);
  };
  for (const OperandDimRule &r : shape.getRunTimeRules(dataType, indicesType))
    rules.push_back(
        {r.atMost ? GATHER_MLIR_RULE_ELEMENTS_DIM : GATHER_MLIR_RULE_BATCH_DIM,
         r.dataDim, dimI64(data, r.dataDim), dimI64(indices, r.indicesDim)});
  // The result buffer has the size the operands give: its static dims, and
  // every dim of a destination that is not an allocation sized from them.
  bool sizedFromOperands = out.getDefiningOp<memref::AllocOp>() != nullptr;
  for (auto [d, src] : llvm::enumerate(shape.dims)) {
    bool fromData = src.dataDim >= 0;
    MemRefType srcType = fromData ? dataType : indicesType;
    int64_t srcDim = fromData ? src.dataDim : src.indicesDim;
    if (!needsTest(outType, d, srcType, srcDim) ||
        (sizedFromOperands && outType.isDynamicDim(d)))
      continue;
    rules.push_back({GATHER_MLIR_RULE_RESULT_DIM, static_cast<int64_t>(d),
                     dimI64(out, d),
                     dimI64(fromData ? data : indices, srcDim)});
  }
  if (rules.empty())
    return nullptr;
  Value ok = constBool(true);
  Value isFalse = constBool(false);
  for (const Rule &r : rules) {
    Value holds = arith::CmpIOp::create(b, loc,
                                        r.rule == GATHER_MLIR_RULE_ELEMENTS_DIM
                                            ? arith::CmpIPredicate::sle
                                            : arith::CmpIPredicate::eq,
                                        r.b, r.a);
    Value broken =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, holds, isFalse);
    // Report only the first rule that fails.
    ifThenElse(arith::AndIOp::create(b, loc, ok, broken), [&] {
      emitShapeError(b, loc, op, b.getI64IntegerAttr(r.rule),
                     b.getI64IntegerAttr(r.dim), r.a, r.b);
    });
    ok = arith::AndIOp::create(b, loc, ok, holds);
  }
  return ok;
}

int64_t KernelEmitter::checkLanes(int64_t tuple) const {
  // Four vectors of indices with one reduction and branch (LLVM splits the
  // wide vector into the target's).
  constexpr int64_t kCheckUnroll = 4;
  if (!hasUnitInnerStride(indices))
    return 0;
  auto indicesType = cast<MemRefType>(indices.getType());
  int64_t lanes =
      planner.vectorLanes(indicesType.getElementType()) * kCheckUnroll;
  return lanes - lanes % tuple;
}

Value KernelEmitter::validate(
    ArrayRef<Value> positions, ArrayRef<Value> sizes,
    function_ref<SmallVector<IndexComponent>(ValueRange)> components,
    Value shapesOk, CheckedRowFn eachRow) {
  assert((!eachRow || (mode == GatherMode::check && sizes.size() == 1 &&
                       !positions.empty() && !shapesOk)) &&
         "rows are validated one at a time only for one check-mode index "
         "per position, once the shapes hold");
  if (mode == GatherMode::fill || mode == GatherMode::unchecked)
    return shapesOk;
  // clamp and wrap define a result for every index except along an empty
  // dimension, where any index at all is an error: checking the first
  // position is enough, and nothing when no dimension can be empty. check
  // looks at every index.
  bool everyIndex = mode == GatherMode::check;
  auto nonEmpty = [](Value size) {
    std::optional<int64_t> c = getConstantIntValue(size);
    return c && *c > 0;
  };
  if (!everyIndex && llvm::all_of(sizes, nonEmpty))
    return shapesOk;
  SmallVector<Value> bounds(positions);
  if (!everyIndex)
    for (Value &ub : bounds)
      ub = arith::MinUIOp::create(b, loc, ub, constIndex(1));

  // report = [failed, data dim, index, dim size], first failure wins.
  Type i64 = b.getI64Type();
  auto reportType = MemRefType::get({4}, i64);
  Value report = memref::AllocaOp::create(b, loc, reportType);
  Value c0 = constIndex(0);
  memref::StoreOp::create(b, loc, constI64(0), report, c0);

  auto checkAt = [&](ValueRange ivs) {
    for (const IndexComponent &c : components(ivs)) {
      Value s = c.size;
      Value bad = everyIndex
                      ? outOfRange(c.value, s)
                      : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              s, constI64(0))
                            .getResult();
      ifThenElse(bad, [&] {
        Value failed = memref::LoadOp::create(b, loc, report, c0);
        Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            failed, constI64(0));
        ifThenElse(first, [&] {
          int64_t fields[] = {1, c.dataDim};
          for (auto [pos, field] : llvm::enumerate(fields))
            memref::StoreOp::create(b, loc, constI64(field), report,
                                    constIndex(pos));
          memref::StoreOp::create(b, loc, c.value, report, constIndex(2));
          memref::StoreOp::create(b, loc, s, report, constIndex(3));
        });
      });
    }
  };
  // One index per position (gather, gather_elements: the positions are all
  // of `indices`) or a tuple (gather_nd: all but the last dimension) in
  // check mode: test a vector of indices at once and rescan only a chunk
  // that has a bad one.
  auto indicesType = cast<MemRefType>(indices.getType());
  int64_t tupleDims =
      indicesType.getRank() - static_cast<int64_t>(bounds.size());
  // Tuples are read as one row of the last two dimensions, which only an
  // identity layout keeps contiguous (not a slab's subview, not a strided
  // view).
  bool rowsOfIndices =
      !bounds.empty() && !sizes.empty() &&
      ((tupleDims == 0 && sizes.size() == 1) ||
       (tupleDims == 1 && indicesType.getLayout().isIdentity() &&
        indicesType.getShape().back() == static_cast<int64_t>(sizes.size())));
  int64_t lanes = everyIndex && rowsOfIndices ? checkLanes(sizes.size()) : 0;
  auto noFailure = [&] {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                 memref::LoadOp::create(b, loc, report, c0),
                                 constI64(0));
  };
  auto check = [&](ValueRange prefix) {
    // Positions [from, from + count) of the row at `prefix`, one at a time.
    auto checkEach = [&](Value from, Value count) {
      forLoop(count, 1, [&](Value t) {
        checkAt(appended(prefix, b.createOrFold<arith::AddIOp>(loc, from, t)));
      });
    };
    // Vectors at a time; a chunk with a bad index is rescanned one position
    // at a time, to report the first.
    if (lanes)
      return checkRow(prefix, bounds.back(), sizes, lanes, checkEach);
    checkEach(c0, bounds.back());
  };
  // Every position of `bs` (the bounds, or one slab's), serially.
  auto checkAll = [&](ArrayRef<Value> bs) {
    if (!lanes)
      return loopNest(bs, checkAt);
    loopNest(bs.drop_back(), check);
  };
  // check mode's scan of a large index array runs on threads: each flags
  // its bad rows, and the first flagged slab is scanned again for the
  // report.
  Value threads = everyIndex && !eachRow && bounds.size() > 1 && !serialChecks
                      ? planner.parallel(indices)
                      : nullptr;
  auto threaded = [&] {
    auto flagRow = [&](ValueRange prefix, Value flag) {
      if (lanes) {
        return checkRow(prefix, bounds.back(), sizes, lanes,
                        [&](Value, Value) { setFlag(flag); });
      }
      forLoop(bounds.back(), 1, [&](Value j) {
        for (const IndexComponent &c : components(appended(prefix, j)))
          ifThenElse(outOfRange(c.value, c.size), [&] { setFlag(flag); });
      });
    };
    threadedSlabs(bounds, flagRow, checkAll);
  };
  Value flag = eachRow ? newFlag() : nullptr;
  ifNoneEmpty(innerBounds(bounds), [&] {
    if (!eachRow)
      return emitPlanned(threads, threaded, [&] { checkAll(bounds); });
    // Row by row while no index has failed: gather it, checking its indices
    // on the way; a row flagged bad is scanned again, while its indices are
    // in L1, to report the first.
    loopNest(ArrayRef(bounds).drop_back(), [&](ValueRange prefix) {
      ifThenElse(noFailure(), [&] {
        eachRow(prefix, flag);
        ifThenElse(isSet(flag), [&] { check(prefix); });
      });
    });
  });

  Value failed = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      memref::LoadOp::create(b, loc, report, c0), constI64(0));
  Value mustReport = failed;
  if (shapesOk)
    mustReport = arith::AndIOp::create(b, loc, failed, shapesOk);
  ifThenElse(mustReport, [&] {
    auto field = [&](int64_t pos) -> OpFoldResult {
      return memref::LoadOp::create(b, loc, report, constIndex(pos))
          .getResult();
    };
    emitIndexError(b, loc, op, field(1), field(2), field(3));
  });
  Value ok = arith::XOrIOp::create(b, loc, failed, constBool(true));
  return shapesOk ? arith::AndIOp::create(b, loc, ok, shapesOk).getResult()
                  : ok;
}

void KernelEmitter::checkRow(ValueRange prefix, Value n, ArrayRef<Value> sizes,
                             int64_t lanes,
                             function_ref<void(Value, Value)> badChunk) {
  auto indicesType = cast<MemRefType>(indices.getType());
  auto indexType = VectorType::get({lanes}, indicesType.getElementType());
  // The row's indices as one dimension: the last, or the last two (n
  // tuples of k) collapsed.
  int64_t k = sizes.size();
  Value row = indices;
  Value length = n;
  if (static_cast<int64_t>(prefix.size()) + 2 == indicesType.getRank()) {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0, e = prefix.size(); d < e; ++d)
      groups.push_back({d});
    groups.push_back({indicesType.getRank() - 2, indicesType.getRank() - 1});
    row = memref::CollapseShapeOp::create(b, loc, indices, groups);
    length = arith::MulIOp::create(b, loc, n, constIndex(k));
  }
  // -t <= i < t exactly when i + t, as unsigned, is below 2t (one add and
  // one compare a vector). t is s capped at 2^62, so 2t cannot overflow;
  // past the cap the test flags some good indices, and the rescan, which
  // is exact, does not report them. Lane l tests component l mod k (lanes
  // is a multiple of k, and every chunk starts at a tuple).
  auto wideType = VectorType::get({lanes}, b.getI64Type());
  SmallVector<Value> t, twoT;
  for (Value s : sizes) {
    t.push_back(arith::MinSIOp::create(b, loc, s, constI64(int64_t(1) << 62)));
    twoT.push_back(arith::AddIOp::create(b, loc, t.back(), t.back()));
  }
  auto lanesOf = [&](ArrayRef<Value> perComponent) -> Value {
    if (k == 1)
      return vector::BroadcastOp::create(b, loc, wideType, perComponent[0]);
    SmallVector<Value> elements;
    for (int64_t l = 0; l < lanes; ++l)
      elements.push_back(perComponent[l % k]);
    return vector::FromElementsOp::create(b, loc, wideType, elements);
  };
  Value tLanes = lanesOf(t), twoTLanes = lanesOf(twoT);
  forEachChunk(length, lanes, [&](Value j, Value mask, Value count) {
    Value raw = loadVector(row, indexType, appended(prefix, j), mask);
    Value bad = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge,
        arith::AddIOp::create(b, loc, widenIndex(raw), tLanes), twoTLanes);
    if (mask)
      bad = arith::AndIOp::create(b, loc, bad, mask);
    Value any =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, bad);
    // Chunks and the tail hold whole tuples: positions j / k on.
    ifThenElse(any, [&] {
      Value tuple = constIndex(k);
      badChunk(b.createOrFold<arith::DivUIOp>(loc, j, tuple),
               b.createOrFold<arith::DivUIOp>(loc, count, tuple));
    });
  });
}

void KernelEmitter::flaggedParts(Value count,
                                 function_ref<void(Value, Value)> part,
                                 function_ref<void(Value)> firstFlagged) {
  // Each flagged part takes part in an atomic min of the first.
  Type i64 = b.getI64Type();
  Value c0 = constIndex(0);
  Value countI64 = arith::IndexCastOp::create(b, loc, i64, count);
  Value firstBad = memref::AllocaOp::create(b, loc, MemRefType::get({1}, i64));
  memref::StoreOp::create(b, loc, countI64, firstBad, c0);
  forLoop(
      count, 1,
      [&](Value k) {
        // The part's flag lives in an alloca scope: one stack slot per
        // iteration, released after it. Lowering the scope splits the block
        // around it, so it sits in a region that may have several blocks (an
        // scf.execute_region kept as it is): when a loop of one part folds
        // away, its body lands in whatever holds the loop, an scf.if or an
        // scf.index_switch case, whose regions must stay one block.
        auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{},
                                                   /*no_inline=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&region.getRegion().emplaceBlock());
        scf::YieldOp::create(b, loc);
        b.setInsertionPointToStart(&region.getRegion().front());
        auto scope = memref::AllocaScopeOp::create(b, loc, TypeRange{});
        b.setInsertionPointToStart(&scope.getBodyRegion().emplaceBlock());
        Value flag = newFlag();
        part(k, flag);
        ifThenElse(isSet(flag), [&] {
          memref::AtomicRMWOp::create(
              b, loc, arith::AtomicRMWKind::mins,
              arith::IndexCastOp::create(b, loc, i64, k), firstBad,
              ValueRange{c0});
        });
        memref::AllocaScopeReturnOp::create(b, loc, ValueRange{});
      },
      /*parallel=*/true);
  Value bad = memref::LoadOp::create(b, loc, firstBad, c0);
  ifThenElse(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bad, countI64),
      [&] {
        firstFlagged(arith::IndexCastOp::create(b, loc, b.getIndexType(), bad));
      });
}

void KernelEmitter::threadedSlabs(ArrayRef<Value> positions, CheckedRowFn rowAt,
                                  function_ref<void(ArrayRef<Value>)> recheck) {
  // No index at all: no row to handle, and no slab a subview could name.
  if (llvm::is_contained(cast<MemRefType>(indices.getType()).getShape(), 0))
    return;
  auto slabRows = [&](Value slab, Value flag) {
    loopNest(positions.drop_front().drop_back(),
             [&](ValueRange prefix) {
               Value clean =
                   arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         isSet(flag), constBool(false));
               ifThenElse(clean, [&] { rowAt(prefix, flag); });
             },
             {slab});
  };
  auto recheckSlab = [&](Value bad) {
    // The slab as the indices: a subview whose outermost dim is 1 (and
    // whose dims past the positions, a gather_nd tuple's, are whole).
    SmallVector<Value> slab(positions);
    slab.front() = constIndex(1);
    int64_t rank = cast<MemRefType>(indices.getType()).getRank();
    SmallVector<Value> sizes(slab);
    llvm::append_range(sizes, dims(indices, slab.size(), rank));
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    offsets.front() = getAsOpFoldResult(bad);
    Value all = indices;
    indices = memref::SubViewOp::create(b, loc, all, offsets,
                                        getAsOpFoldResult(sizes), strides);
    llvm::SaveAndRestore serial(serialChecks, true);
    recheck(slab);
    indices = all;
  };
  flaggedParts(positions.front(), slabRows, recheckSlab);
}

void KernelEmitter::guarded(Value ok, function_ref<void()> body) {
  if (!ok)
    return body();
  ifThenElse(ok, body);
}
