//===- BagValidation.cpp - The bags' run-time rules
//-------------------------===//

#include "BagEmitter.h"

using namespace mlir;
using namespace mlir::gather;

namespace mlir::gather::bags {

Value BagEmitter::zeros() {
  return linalg::FillOp::create(b, loc, floatConst(valueType, 0.0), init)
      .getResult(0);
}

Value BagEmitter::guarded(Value ok, function_ref<void()> onError,
                          function_ref<Value()> body) {
  // Every outcome has the type of the one destination they all fill.
  Type type = init.getType();
  auto cast = [&](Value value) -> Value {
    if (value.getType() == type)
      return value;
    return tensor::CastOp::create(b, loc, type, value);
  };
  return createIfElse(
      b, loc, type, ok, [&] { return cast(body()); },
      [&] {
        onError();
        return cast(zeros());
      });
}

void BagEmitter::reportRule(const Rule &rule) {
  if (report == BagErrorReport::Asserts) {
    cf::AssertOp::create(b, loc,
                         arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
                         ("gather.embedding_bag: " + rule.message));
    return;
  }
  emitShapeError(b, loc, op, b.getI64IntegerAttr(rule.rule), rule.dim, rule.a,
                 rule.b);
}

void BagEmitter::reportId(Value id) {
  if (report == BagErrorReport::Asserts) {
    cf::AssertOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
        mode == GatherMode::check
            ? "gather.embedding_bag: an id is out of range for the table"
            : "gather.embedding_bag: an id selects a row of an empty table");
    return;
  }
  emitIndexError(b, loc, op, b.getI64IntegerAttr(0), id, numRowsI64);
}

Value BagEmitter::emitChecked(ArrayRef<Rule> rules) {
  if (rules.empty())
    return emitOffsetsChecked();
  const Rule &rule = rules.front();
  return guarded(
      rule.ok, [&] { reportRule(rule); },
      [&] { return emitChecked(rules.drop_front()); });
}

BagEmitter::OffsetRules BagEmitter::offsetRules(Value k) {
  Value first = cmp(arith::CmpIPredicate::eq, k, constIndex(0));
  // offsets[k - 1], or offsets[0] for k = 0 (never compared then).
  Value previousAt = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, k, constIndex(1)), constIndex(1));
  Value here = toI64(extract(offsets, k));
  Value previous = toI64(extract(offsets, previousAt));
  Value notFirst = arith::XOrIOp::create(
      b, loc, first, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  return {
      here, previous,
      arith::AndIOp::create(b, loc, first,
                            cmp(arith::CmpIPredicate::ne, here, constI64(0))),
      arith::AndIOp::create(b, loc, notFirst,
                            cmp(arith::CmpIPredicate::slt, here, previous))};
}

Value BagEmitter::assertedThrough(Value values,
                                  function_ref<Value(ValueRange, Value)> okAt,
                                  StringRef message) {
  auto type = cast<RankedTensorType>(values.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, values);
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{values}, ValueRange{empty},
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        SmallVector<Value> at;
        for (int64_t d = 0; d < type.getRank(); ++d)
          at.push_back(linalg::IndexOp::create(b, loc, d));
        cf::AssertOp::create(b, loc, okAt(at, args[0]),
                             ("gather.embedding_bag: " + message).str());
        linalg::YieldOp::create(b, loc, args[0]);
      });
  return generic.getResult(0);
}

Value BagEmitter::emitOffsetsChecked() {
  if (!offsets || mode == GatherMode::unchecked)
    return emitIdsChecked();
  Value numIdsI64 = toI64(numIds);
  if (form == BagForm::Elementwise) {
    // (offsetRules reads the offsets as given: the member is replaced by
    // the checked ones after.)
    offsets = assertedThrough(
        offsets,
        [&](ValueRange at, Value) {
          OffsetRules rules = offsetRules(at[0]);
          Value bad = arith::OrIOp::create(
              b, loc,
              arith::OrIOp::create(b, loc, rules.notZero, rules.decreasing),
              cmp(arith::CmpIPredicate::sgt, rules.here, numIdsI64));
          Value yes = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
          return arith::XOrIOp::create(b, loc, bad, yes);
        },
        "offsets must start at 0, be non-decreasing and end within the ids");
    return emitIdsChecked();
  }
  // The first k that breaks a rule (numOffsets if none): offsets[0] == 0,
  // offsets[k] >= offsets[k - 1], offsets[k] <= numIds.
  auto loop = scf::ForOp::create(
      b, loc, constIndex(0), numOffsets, constIndex(1), ValueRange{numOffsets},
      [&](OpBuilder &nested, Location, Value k, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        OffsetRules at = offsetRules(k);
        Value bad = arith::OrIOp::create(
            b, loc, arith::OrIOp::create(b, loc, at.notZero, at.decreasing),
            cmp(arith::CmpIPredicate::sgt, at.here, numIdsI64));
        Value none = cmp(arith::CmpIPredicate::eq, args[0], numOffsets);
        Value found =
            select(arith::AndIOp::create(b, loc, none, bad), k, args[0]);
        scf::YieldOp::create(b, loc, found);
      });
  Value k = loop.getResult(0);
  Value ok = cmp(arith::CmpIPredicate::eq, k, numOffsets);
  return guarded(
      ok,
      [&] {
        // Which rule offsets[k] breaks, in the order they are listed.
        OffsetRules at = offsetRules(k);
        Value rule = select(
            at.notZero, constI64(GATHER_MLIR_RULE_OFFSETS_FIRST),
            select(at.decreasing, constI64(GATHER_MLIR_RULE_OFFSETS_ORDER),
                   constI64(GATHER_MLIR_RULE_OFFSETS_END)));
        Value other = select(at.decreasing, at.previous, numIdsI64);
        if (report == BagErrorReport::Asserts) {
          reportRule({nullptr, 0, nullptr, nullptr, nullptr,
                      "offsets must start at 0, be non-decreasing and end "
                      "within the ids"});
          return;
        }
        emitShapeError(b, loc, op, rule, toI64(k), at.here, other);
      },
      [&] { return emitIdsChecked(); });
}

Value BagEmitter::idsInBagsEnd() {
  if (!offsets)
    return numIds;
  if (op.getIncludeLastOffset())
    return toIndex(toI64(extract(
        offsets, arith::SubIOp::create(b, loc, numOffsets, constIndex(1)))));
  return select(cmp(arith::CmpIPredicate::eq, numOffsets, constIndex(0)),
                constIndex(0), numIds);
}

Value BagEmitter::emitIdsChecked() {
  if (mode == GatherMode::fill || mode == GatherMode::unchecked)
    return compute();
  Value end = idsInBagsEnd();
  Value none = cmp(arith::CmpIPredicate::eq, end, constIndex(0));
  if (mode != GatherMode::check) {
    // clamp and wrap pick a row for every id, unless there is none.
    Value ok = arith::OrIOp::create(
        b, loc, none, cmp(arith::CmpIPredicate::ne, numRowsI64, constI64(0)));
    return guarded(
        ok, [&] { reportId(idAt(constIndex(0))); }, [&] { return compute(); });
  }
  // check: the bag loop adds the rows of ids in range and records which
  // bags hold an id out of range; the ids are scanned in order only to
  // name the first.
  // Elementwise: each id in a bag is asserted in range before the bags
  // read it.
  if (form == BagForm::Elementwise)
    ids = assertedThrough(
        ids,
        [&](ValueRange at, Value id) -> Value {
          Value ok = isIndexInRange(
              b, loc, normalizeIndex(b, loc, toI64(id), numRowsI64),
              numRowsI64);
          return arith::OrIOp::create(
              b, loc, ok, cmp(arith::CmpIPredicate::sge, at[0], end));
        },
        "an id is out of range for the table");
  return compute();
}

std::pair<Value, Value> BagEmitter::firstBadId() {
  Value end = idsInBagsEnd();
  Type i1 = b.getI1Type();
  auto loop = scf::ForOp::create(
      b, loc, constIndex(0), end, constIndex(1),
      ValueRange{arith::ConstantIntOp::create(b, loc, i1, 0), constI64(0)},
      [&](OpBuilder &nested, Location, Value j, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value id = idAt(j);
        Value bad = isIndexInRange(
            b, loc, normalizeIndex(b, loc, id, numRowsI64), numRowsI64,
            /*outside=*/true);
        Value isFirst = arith::AndIOp::create(
            b, loc, bad,
            arith::XOrIOp::create(b, loc, args[0],
                                  arith::ConstantIntOp::create(b, loc, i1, 1)));
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::OrIOp::create(b, loc, args[0], bad),
                       select(isFirst, id, args[1])});
      });
  return {loop.getResult(0), loop.getResult(1)};
}

Value BagEmitter::checkedResult(Value computed, Value flags) {
  Type i1 = b.getI1Type(), i8 = b.getI8Type();
  // Rows of no value read no id: then the ids are scanned.
  auto scanned = [&] { return firstBadId().first; };
  Value bad;
  if (!flags) {
    bad = scanned();
  } else {
    // Any bag's flag set.
    auto flagged = [&]() -> Value {
      auto any = scf::ForOp::create(
          b, loc, constIndex(0), bags, constIndex(1),
          ValueRange{arith::ConstantIntOp::create(b, loc, i8, 0)},
          [&](OpBuilder &nested, Location, Value bag, ValueRange args) {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPoint(nested.getInsertionBlock(),
                                nested.getInsertionPoint());
            scf::YieldOp::create(b, loc,
                                 ValueRange{arith::OrIOp::create(
                                     b, loc, args[0], extract(flags, bag))});
          });
      return cmp(arith::CmpIPredicate::ne, any.getResult(0),
                 arith::ConstantIntOp::create(b, loc, i8, 0));
    };
    bad = createIfElse(b, loc, i1,
                       cmp(arith::CmpIPredicate::eq, rowSize, constIndex(0)),
                       scanned, flagged);
  }
  return createIfElse(
      b, loc, computed.getType(), bad,
      [&]() -> Value {
        reportId(report == BagErrorReport::Asserts ? Value()
                                                   : firstBadId().second);
        // Zeros in the same buffer, so both branches yield one.
        return linalg::FillOp::create(b, loc, floatConst(valueType, 0.0),
                                      computed)
            .getResult(0);
      },
      [&] { return computed; });
}

std::pair<Value, Value> BagEmitter::bagBounds(Value bag) {
  Value start, end;
  Value next = arith::AddIOp::create(b, loc, bag, constIndex(1));
  if (offsets) {
    start = toIndex(toI64(extract(offsets, bag)));
    // The next offset, or the end of the ids after the last bag.
    Value hasNext = cmp(arith::CmpIPredicate::ult, next, numOffsets);
    Value at = arith::MinUIOp::create(
        b, loc, next, arith::SubIOp::create(b, loc, numOffsets, constIndex(1)));
    end = select(hasNext, toIndex(toI64(extract(offsets, at))), numIds);
  } else {
    start = arith::MulIOp::create(b, loc, bag, bagLength);
    end = arith::MulIOp::create(b, loc, next, bagLength);
  }
  // Checked offsets are in range already; unchecked ones must not take a
  // read out of the ids.
  start = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, start, constIndex(0)), numIds);
  end = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, end, start), numIds);
  return {start, end};
}

} // namespace mlir::gather::bags
