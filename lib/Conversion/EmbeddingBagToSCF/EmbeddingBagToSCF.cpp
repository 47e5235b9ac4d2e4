//===- EmbeddingBagToSCF.cpp - Lower embedding bags to loops ----*- C++ -*-===//
//
// gather.embedding_bag on tensors becomes, in upstream ops only:
//
//  1. unless the mode is `unchecked`, the rules the verifier could not check
//     (dynamic dims of per_sample_weights and the result, include_last_offset's
//     one offset) and then the offsets (offsets[0] == 0, non-decreasing, none
//     past the ids) are checked, one scf.for over the offsets that finds the
//     first bad one; `clamp`/`wrap` with ids in bags need rows. A failure
//     is reported (run-time hook or cf.assert) and the result is zeros:
//     nothing is read out of bounds;
//  2. an scf.forall over bags (threads when the pipeline maps it to OpenMP):
//     each bag reads its ids, 16 at a time, to learn whether all are rows
//     as they are; then it walks its ids with an scf.for, taking each id
//     as its row if so, else resolving each by the mode (`check` records
//     whether the bag held an id out of range, and when one did, a scan of
//     the ids in order names the first), and accumulates each row, a
//     chunk of kChunkBits at a time, in vector registers (f32 for f16/bf16
//     and row-wise quantized tables, whose rows are dequantized as they
//     are read), so the work is O(ids x dim); padding ids are skipped;
//     `fill` ids give zero rows; mean divides by the count, max of no row
//     is zeros. (The elementwise form, for convert-gather-to-linalg,
//     asserts each id and walks a bag per result element.)
//
// The same code serves gather-to-llvm (hooks, whose messages name the bad
// value) and convert-gather-to-linalg (cf.assert).
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/EmbeddingBagToSCF/EmbeddingBagToSCF.h"

#include "gather-c/Runtime.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"
#include "gather/Dialect/Gather/Utils/Lowering.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTEMBEDDINGBAGTOSCF
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// The bits of a row reduced at once (see BagEmitter::chunkType).
constexpr int64_t kChunkBits = 4096;

/// Bags of fewer ids take the loop that resolves each id without reading
/// their ids first: the read (the bag's ids and the 16 its prefetches
/// read) costs more than the per-id work it saves on so few.
/// Evidence: docs/decisions/embedding-bags.md.
constexpr int64_t kMinScannedBagIds = 4;

/// A run-time rule: `ok` holds, or the hook gets (rule, dim, a, b).
struct Rule {
  Value ok;
  int64_t rule;
  Value dim, a, b;
  std::string message;
};

class BagEmitter : EmitterBase {
public:
  BagEmitter(OpBuilder &b, EmbeddingBagOp op, Value weight, Value ids,
             Value offsets, Value sampleWeights, Value scales,
             Value zeroPoints, BagErrorReport report, BagForm form,
             int64_t prefetchDistance)
      : EmitterBase(b, op.getLoc()), op(op), report(report), form(form),
        prefetchDistance(prefetchDistance), weight(weight),
        ids(ids), offsets(offsets), sampleWeights(sampleWeights),
        scales(scales), zeroPoints(zeroPoints),
        element(cast<RankedTensorType>(weight.getType()).getElementType()),
        valueType(op.getValueType()), acc(op.getAccumulatorType()),
        layout(op.getRowwiseLayout()), block(op.getBlockLayout()),
        reduction(op.getReduction()), mode(op.getMode()),
        splitBias(layout && reduction != BagReduction::max) {}

  Value emit();

private:
  Value toI64(Value v) { return indexValueToI64(b, loc, v); }
  Value toIndex(Value i64) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
  }
  Value extract(Value tensor, Value at) {
    return tensor::ExtractOp::create(b, loc, tensor, at);
  }
  /// ids[j] (or per_sample_weights[j]) as i64.
  Value idAt(Value j) { return toI64(extract(ids, j)); }
  Value floatConst(Type type, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
  }
  Value widen(Value v) {
    return v.getType() == acc ? v : arith::ExtFOp::create(b, loc, acc, v);
  }

  /// The result of `body`, or, when `ok` is false, zeros after reporting
  /// with `onError`.
  Value guarded(Value ok, function_ref<void()> onError,
                function_ref<Value()> body);
  void reportRule(const Rule &rule);
  void reportId(Value id);
  Value zeros();
  /// Checks `rules[i..]`, then the offsets and ids, then computes.
  Value emitChecked(ArrayRef<Rule> rules);
  /// offsets[k] (i64), offsets[k - 1], and whether offsets[k] breaks the
  /// first rule (offsets[0] == 0) or the order.
  struct OffsetRules {
    Value here, previous, notZero, decreasing;
  };
  OffsetRules offsetRules(Value k);
  /// BagForm::Elementwise's checks: `values` through a linalg.generic that
  /// cf.asserts okAt(position, value) for each element with `message` and
  /// yields it, so that what reads the result reads checked values (and a
  /// compiler that builds dispatches from linalg ops checks in one).
  Value assertedThrough(Value values,
                        function_ref<Value(ValueRange, Value)> okAt,
                        StringRef message);
  Value emitOffsetsChecked();
  Value emitIdsChecked();
  /// The end of the ids that bags hold (the offsets are checked): the ids
  /// after it are in no bag, and are neither read nor checked, as in torch.
  Value idsInBagsEnd();
  /// Whether some id in bags is out of range (check mode), and the first
  /// such id: one scf.for over the ids in order.
  std::pair<Value, Value> firstBadId();
  /// `computed` (the bags' result, made of the ids in range), or, when a
  /// bag has an id out of range (`flags`, one i8 a bag), zeros after
  /// reporting the first such id.
  Value checkedResult(Value computed, Value flags);
  /// [start, end) of bag `bag` in the ids, clamped into [0, numIds].
  std::pair<Value, Value> bagBounds(Value bag);
  /// The bags' result, ids out of range skipped (check mode's report is
  /// checkedResult's), in the emitter's form.
  Value compute();
  /// Whether every id in [start, end) is a row of the table as it is (in
  /// [0, rows): one unsigned compare an id), 16 ids at a time.
  Value idsAreRows(Value start, Value end);
  /// compute's BagForm::Elementwise: one linalg.generic over the result.
  Value computeElementwise();
  /// A splat of `v` in the accumulator's chunk type.
  Value splat(double v);
  /// What a bag's ids accumulate in a chunk: the chunk's lanes and, for a
  /// quantized table summed (splitBias), the sum of the rows' biases apart
  /// (q * scale is added into the lanes with one fma, the biases once at
  /// the end).
  struct Sums {
    Value lanes, bias;
  };
  /// `a` with row `row`'s lanes from `d0` accumulated, scaled by `scale`
  /// (null: 1); `inBounds` false for the last, partial chunk.
  Sums addRow(Sums a, Value row, Value d0, Value scale, bool inBounds);
  /// The values a quantized row packs `bits` to a byte, low bits first:
  /// `bytes` unpacked, in order.
  Value unpack(Value bytes, int64_t bits);
  /// The lanes from `d0` of quantized row `row` as f32 (q), and the scale
  /// and bias of their dequantization (q * scale + bias), both times
  /// `scale` (null: 1). A block-quantized row has no bias: its q is minus
  /// the zero point already, as ONNX Runtime computes (q - zp) * scale.
  std::tuple<Value, Value, Value> quantizedChunk(Value row, Value d0,
                                                 Value scale, bool inBounds);
  /// `a` with a row of zeros accumulated (a `fill` id out of range).
  Sums addZeros(Sums a);
  /// The result lanes of a chunk over `count` rows.
  Value finalize(Sums a, Value count);
  /// The position of the id whose row the prefetch at `j` reads:
  /// prefetchDistance on, within the ids (of which there are some).
  Value prefetchedAt(Value j) {
    return arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, j, constIndex(prefetchDistance)),
        arith::SubIOp::create(b, loc, numIds, constIndex(1)));
  }
  /// Prefetches the chunk at `d0` of the row of the id at prefetchedAt(j):
  /// its first `values` values (those in the row).
  void prefetchRow(Value j, Value d0, int64_t values);
  /// The result lanes from `d0` of bag rows [start, end) reduced. In check
  /// mode `bad` (an i1, in and out) also records whether an id is out of
  /// range.
  Value bagChunk(Value d0, Value start, Value end, bool inBounds, Value &bad);
  EmbeddingBagOp op;
  BagErrorReport report;
  BagForm form;
  int64_t prefetchDistance;
  /// The bag's loops are emitted for ids known to be rows (idsAreRows): an
  /// id is its row, with no normalization, range test or check flag.
  bool rowIds = false;
  /// The table as a read-only memref, for prefetches (null without).
  Value weightBuffer;
  Value weight, ids, offsets, sampleWeights, scales, zeroPoints;
  /// The table's element type, the result's, and the accumulator's.
  Type element, valueType, acc;
  std::optional<RowwiseLayout> layout;
  std::optional<BlockLayout> block;
  BagReduction reduction;
  GatherMode mode;
  /// The bits of a quantized table's values (0 for a float table).
  int64_t quantizedBits() const {
    return layout ? layout->bits : block ? block->bits : 0;
  }
  /// The values a column of the table holds: a byte's of a quantized
  /// table, else one.
  int64_t valuesPerColumn() const {
    return layout ? layout->valuesPerByte()
           : block ? block->valuesPerByte()
                   : 1;
  }
  /// Sums::bias is used: a row-wise quantized table, summed or averaged.
  bool splitBias;
  // Sizes, as index values: rowSize is the values of a row (the result's
  // dim), rowCols the table's dim 1 (bytes of a quantized row).
  Value numRows, rowSize, rowCols, numIds, numOffsets, bags, bagLength;
  // The result's tensor.empty, which every outcome fills.
  Value init;
  // The table's row count and the normalized padding row, as i64.
  Value numRowsI64, paddingRow;
  RankedTensorType resultType;
  /// rowSize if static, else kDynamic.
  int64_t staticRowSize;
  /// The lanes of a row reduced at once, in the accumulator's type:
  /// kChunkBits (128 f32 lanes: eight AVX-512 or sixteen AVX2 registers,
  /// split by LLVM), so that a bag's sums stay in registers while its rows
  /// stream by.
  VectorType chunkType;
};

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
    cf::AssertOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
        ("gather.embedding_bag: " + rule.message));
    return;
  }
  emitShapeError(b, loc, op, b.getI64IntegerAttr(rule.rule), rule.dim,
                 rule.a, rule.b);
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
  return {here, previous,
          arith::AndIOp::create(
              b, loc, first, cmp(arith::CmpIPredicate::ne, here, constI64(0))),
          arith::AndIOp::create(
              b, loc, notFirst,
              cmp(arith::CmpIPredicate::slt, here, previous))};
}

Value BagEmitter::assertedThrough(Value values,
                                  function_ref<Value(ValueRange, Value)> okAt,
                                  StringRef message) {
  auto type = cast<RankedTensorType>(values.getType());
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, loc, values);
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
      b, loc, constIndex(0), numOffsets, constIndex(1),
      ValueRange{numOffsets},
      [&](OpBuilder &nested, Location, Value k, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        OffsetRules at = offsetRules(k);
        Value bad = arith::OrIOp::create(
            b, loc, arith::OrIOp::create(b, loc, at.notZero, at.decreasing),
            cmp(arith::CmpIPredicate::sgt, at.here, numIdsI64));
        Value none = cmp(arith::CmpIPredicate::eq, args[0], numOffsets);
        Value found = select(arith::AndIOp::create(b, loc, none, bad), k,
                             args[0]);
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
        b, loc, none,
        cmp(arith::CmpIPredicate::ne, numRowsI64, constI64(0)));
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
            scf::YieldOp::create(
                b, loc,
                ValueRange{arith::OrIOp::create(b, loc, args[0],
                                                extract(flags, bag))});
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
        b, loc, next,
        arith::SubIOp::create(b, loc, numOffsets, constIndex(1)));
    end = select(hasNext, toIndex(toI64(extract(offsets, at))), numIds);
  } else {
    start = arith::MulIOp::create(b, loc, bag, bagLength);
    end = arith::MulIOp::create(b, loc, next, bagLength);
  }
  // Checked offsets are in range already; unchecked ones must not take a
  // read out of the ids.
  start = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, start, constIndex(0)), numIds);
  end = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, end, start),
                               numIds);
  return {start, end};
}

Value BagEmitter::splat(double v) {
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(chunkType, b.getFloatAttr(acc, v)));
}

std::tuple<Value, Value, Value>
BagEmitter::quantizedChunk(Value row, Value d0, Value scale, bool inBounds) {
  int64_t lanes = chunkType.getNumElements();
  int64_t bits = quantizedBits();
  int64_t perByte = 8 / bits;
  Type i8 = b.getI8Type();
  // The chunk's bytes; past the row's end (the last chunk) 0. Lanes past
  // the values read the scale and bias, and are never written.
  auto bytesType = VectorType::get({lanes / perByte}, i8);
  Value col = perByte == 1 ? d0
                           : arith::DivUIOp::create(b, loc, d0,
                                                    constIndex(perByte))
                                 .getResult();
  Value q = vector::TransferReadOp::create(
      b, loc, bytesType, weight, ValueRange{row, col},
      arith::ConstantIntOp::create(b, loc, i8, 0), ArrayRef<bool>{inBounds});
  Value x = arith::UIToFPOp::create(b, loc, chunkType, unpack(q, bits));
  if (block) {
    // The chunk lies in one block (chunks are at most a block long): its
    // scale, and its zero point (slot blk mod perByte of byte blk /
    // perByte, or the middle of the range).
    Value blk = arith::DivUIOp::create(b, loc, d0,
                                       constIndex(block->blockSize));
    Value rowScale = widen(
        tensor::ExtractOp::create(b, loc, scales, ValueRange{row, blk}));
    Value zero;
    if (zeroPoints) {
      Value byte = tensor::ExtractOp::create(
          b, loc, zeroPoints,
          ValueRange{row, arith::DivUIOp::create(b, loc, blk,
                                                 constIndex(perByte))});
      Value slot = arith::IndexCastOp::create(
          b, loc, i8,
          arith::RemUIOp::create(b, loc, blk, constIndex(perByte)));
      Value shift = arith::MulIOp::create(
          b, loc, slot, arith::ConstantIntOp::create(b, loc, i8, bits));
      Value value = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, byte, shift),
          arith::ConstantIntOp::create(b, loc, i8, (1 << bits) - 1));
      zero = arith::UIToFPOp::create(b, loc, acc, value);
    } else {
      zero = floatConst(acc, double(1 << (bits - 1)));
    }
    x = arith::SubFOp::create(
        b, loc, x, vector::BroadcastOp::create(b, loc, chunkType, zero));
    if (scale)
      rowScale = arith::MulFOp::create(b, loc, rowScale, scale);
    return {x, rowScale, Value()};
  }
  // The scale and bias after the values (rows hold them: checked first).
  int64_t trailer = layout->trailerBytes();
  Value at = arith::SubIOp::create(b, loc, rowCols, constIndex(trailer));
  Value raw = vector::TransferReadOp::create(
      b, loc, VectorType::get({trailer}, i8), weight, ValueRange{row, at},
      arith::ConstantIntOp::create(b, loc, i8, 0), ArrayRef<bool>{true});
  Type scaleType = layout->scaleBits() == 32 ? Type(b.getF32Type())
                                             : Type(b.getF16Type());
  Value pair = vector::BitCastOp::create(
      b, loc, VectorType::get({2}, scaleType), raw);
  Value rowScale = widen(vector::ExtractOp::create(b, loc, pair, 0));
  Value bias = widen(vector::ExtractOp::create(b, loc, pair, 1));
  if (scale) {
    rowScale = arith::MulFOp::create(b, loc, rowScale, scale);
    bias = arith::MulFOp::create(b, loc, bias, scale);
  }
  return {x, rowScale, bias};
}

Value BagEmitter::unpack(Value bytes, int64_t bits) {
  if (bits == 8)
    return bytes;
  auto type = cast<VectorType>(bytes.getType());
  auto splatI8 = [&](int64_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getIntegerAttr(b.getI8Type(), v)));
  };
  // Slot k of each byte: (byte >> k * bits) & mask.
  auto slot = [&](int64_t k) -> Value {
    Value shifted = k == 0 ? bytes
                           : arith::ShRUIOp::create(b, loc, bytes,
                                                    splatI8(k * bits))
                                 .getResult();
    if ((k + 1) * bits == 8)
      return shifted;
    return arith::AndIOp::create(b, loc, shifted, splatI8((1 << bits) - 1));
  };
  if (bits == 4)
    return vector::InterleaveOp::create(b, loc, slot(0), slot(1));
  // Two bits: interleaving (0, 2) with (1, 3) puts the four slots in order.
  return vector::InterleaveOp::create(
      b, loc, vector::InterleaveOp::create(b, loc, slot(0), slot(2)),
      vector::InterleaveOp::create(b, loc, slot(1), slot(3)));
}

BagEmitter::Sums BagEmitter::addRow(Sums a, Value row, Value d0,
                                    Value scale, bool inBounds) {
  Value x;
  if (layout || block) {
    auto [q, rowScale, bias] = quantizedChunk(row, d0, scale, inBounds);
    Value scales = vector::BroadcastOp::create(b, loc, chunkType, rowScale);
    // Sums: q * scale into the lanes, a row-wise bias apart.
    if (reduction != BagReduction::max)
      return {vector::FMAOp::create(b, loc, q, scales, a.lanes),
              bias ? arith::AddFOp::create(b, loc, a.bias, bias).getResult()
                   : a.bias};
    x = bias ? vector::FMAOp::create(
                   b, loc, q, scales,
                   vector::BroadcastOp::create(b, loc, chunkType, bias))
                   .getResult()
             : arith::MulFOp::create(b, loc, q, scales).getResult();
  } else {
    // Lanes past the row's end (the last chunk) read 0 and are never
    // written.
    x = vector::TransferReadOp::create(
        b, loc, VectorType::get(chunkType.getShape(), element), weight,
        ValueRange{row, d0}, floatConst(element, 0.0),
        ArrayRef<bool>{inBounds});
    if (element != acc)
      x = arith::ExtFOp::create(b, loc, chunkType, x);
    // A weighted row (sum only) is one fused multiply-add a lane, as
    // FBGEMM's kernels do.
    if (scale)
      return {vector::FMAOp::create(
                  b, loc, x,
                  vector::BroadcastOp::create(b, loc, chunkType, scale),
                  a.lanes),
              a.bias};
  }
  if (reduction == BagReduction::max)
    return {arith::MaximumFOp::create(b, loc, a.lanes, x), a.bias};
  return {arith::AddFOp::create(b, loc, a.lanes, x), a.bias};
}

BagEmitter::Sums BagEmitter::addZeros(Sums a) {
  // Only max sees a row of zeros; sum and mean add nothing.
  if (reduction != BagReduction::max)
    return a;
  return {arith::MaximumFOp::create(b, loc, a.lanes, splat(0.0)), a.bias};
}

Value BagEmitter::finalize(Sums sums, Value count) {
  Value a = sums.lanes;
  if (sums.bias)
    a = arith::AddFOp::create(
        b, loc, a, vector::BroadcastOp::create(b, loc, chunkType, sums.bias));
  if (reduction == BagReduction::mean) {
    Value countF = arith::UIToFPOp::create(
        b, loc, acc,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count));
    // An empty bag divides zeros by 0: the select below gives its zeros.
    a = arith::DivFOp::create(
        b, loc, a, vector::BroadcastOp::create(b, loc, chunkType, countF));
  }
  if (reduction != BagReduction::sum)
    a = arith::SelectOp::create(
        b, loc, cmp(arith::CmpIPredicate::eq, count, constIndex(0)),
        splat(0.0), a);
  if (valueType != acc)
    a = arith::TruncFOp::create(
        b, loc, VectorType::get(chunkType.getShape(), valueType), a);
  return a;
}

void BagEmitter::prefetchRow(Value j, Value d0, int64_t values) {
  // The row of the id prefetchDistance positions on (across bags: the next
  // bag's first rows too), kept in the table: a prefetch never faults, but
  // it names an element of the table all the same. One unsigned min, as
  // the id is not normalized: a negative id (rare; torch rejects them)
  // prefetches the last row instead of its own. Ids known to be rows need
  // none: they include the ids the bag's prefetches read.
  Value row = idAt(prefetchedAt(j));
  if (!rowIds)
    row = arith::MinUIOp::create(
        b, loc, row,
        arith::MaxSIOp::create(
            b, loc, arith::SubIOp::create(b, loc, numRowsI64, constI64(1)),
            constI64(0)));
  row = toIndex(row);
  // Every cache line of the chunk within the row (columns of the table:
  // bytes of a quantized row), and a quantized row's scale and bias. One
  // prefetch a line rather than one every other line: faster on rows that
  // are mostly in the caches, as fast on cold ones
  // (docs/decisions/embedding-bags.md, "Prefetch").
  // Only the chunk's values in the row: a prefetch is not removed as
  // redundant, so a narrow row must not name its last line eight times.
  int64_t colBytes = getElementSizeInBytes(element);
  int64_t perCol = valuesPerColumn();
  int64_t cols = llvm::divideCeil(values, perCol);
  Value firstCol = perCol == 1 ? d0
                               : arith::DivUIOp::create(b, loc, d0,
                                                        constIndex(perCol))
                                     .getResult();
  Value lastCol = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, rowCols, constIndex(1)),
      constIndex(0));
  auto prefetch = [&](Value col) {
    memref::PrefetchOp::create(b, loc, weightBuffer, ValueRange{row, col},
                               /*isWrite=*/false, /*localityHint=*/3,
                               /*isDataCache=*/true);
  };
  auto colAt = [&](int64_t col) -> Value {
    return arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, firstCol, constIndex(col)),
        lastCol);
  };
  for (int64_t col = 0; col < cols; col += kCacheLineBytes / colBytes)
    prefetch(colAt(col));
  // The chunk's last line too: a row need not start on a line (numpy's
  // large arrays start 16 bytes past one), and then it spans one line more
  // than its bytes fill. A quantized row's scale and bias lie past it.
  if (layout)
    prefetch(lastCol);
  else if (cols > 1)
    prefetch(colAt(cols - 1));
}

Value BagEmitter::bagChunk(Value d0, Value start, Value end, bool inBounds,
                           Value &bad) {
  // The chunk's values that lie in the row: all its lanes, but in the last
  // partial chunk of a row of static size.
  int64_t valuesInRow = chunkType.getNumElements();
  if (!inBounds && !ShapedType::isDynamic(staticRowSize))
    valuesInRow = staticRowSize % valuesInRow;
  double initial = reduction == BagReduction::max
                       ? -std::numeric_limits<double>::infinity()
                       : 0.0;
  // Carried: the lanes, the count, the biases' sum (splitBias), whether an
  // id was out of range (check).
  SmallVector<Value> init{splat(initial), constIndex(0)};
  if (splitBias)
    init.push_back(floatConst(acc, 0.0));
  if (bad)
    init.push_back(bad);
  auto sumsOf = [&](ValueRange values, unsigned biasAt) {
    return Sums{values[0], splitBias ? values[biasAt] : Value()};
  };
  // Sums and the count as yielded: lanes, count, then the bias.
  auto yielded = [&](Sums sums, Value count) {
    SmallVector<Value> values{sums.lanes, count};
    if (sums.bias)
      values.push_back(sums.bias);
    return values;
  };
  auto loop = scf::ForOp::create(
      b, loc, start, end, constIndex(1), init,
      [&](OpBuilder &inner, Location, Value j, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(inner.getInsertionBlock(),
                            inner.getInsertionPoint());
        Sums a = sumsOf(carried, 2);
        Value count = carried[1];
        if (weightBuffer)
          prefetchRow(j, d0, valuesInRow);
        Value id = idAt(j);
        // check and unchecked add the rows of ids in range and skip the
        // others (check records them: the bag's result is an error, and
        // unchecked's is undefined), so no id reads out of bounds; fill's
        // out-of-range ids add zeros; clamp and wrap always pick a row.
        SmallVector<Value> badOut;
        // (resolveIndex only normalizes for check and unchecked: their
        // range test is the caller's.) Ids known to be rows are their rows.
        ResolvedIndex r = rowIds ? ResolvedIndex{id, Value()}
                                 : resolveIndex(b, loc, mode, id, numRowsI64);
        Value valid = r.valid;
        if (!rowIds && (mode == GatherMode::check ||
                        mode == GatherMode::unchecked)) {
          valid = isIndexInRange(b, loc, r.index, numRowsI64);
          if (bad)
            badOut.push_back(arith::OrIOp::create(
                b, loc, carried.back(),
                isIndexInRange(b, loc, r.index, numRowsI64,
                               /*outside=*/true)));
        }
        Value skip;
        if (paddingRow) {
          skip = cmp(arith::CmpIPredicate::eq, r.index, paddingRow);
          if (valid)
            skip = arith::AndIOp::create(b, loc, skip, valid);
        }
        Value scale;
        if (sampleWeights)
          scale = widen(extract(sampleWeights, j));
        Value row = toIndex(r.index);
        Value next = arith::AddIOp::create(b, loc, count, constIndex(1));
        auto sumsTypes = [&] {
          SmallVector<Type> types{chunkType};
          if (splitBias)
            types.push_back(acc);
          return types;
        };
        auto values = [](Sums sums) {
          SmallVector<Value> v{sums.lanes};
          if (sums.bias)
            v.push_back(sums.bias);
          return v;
        };
        // The row added, or (an invalid fill id) zeros; the count grows.
        auto added = [&]() -> Sums {
          if (!valid)
            return addRow(a, row, d0, scale, inBounds);
          auto ifValid = scf::IfOp::create(b, loc, sumsTypes(), valid,
                                           /*withElseRegion=*/true);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(ifValid.thenBlock());
          scf::YieldOp::create(b, loc,
                               values(addRow(a, row, d0, scale, inBounds)));
          b.setInsertionPointToStart(ifValid.elseBlock());
          scf::YieldOp::create(b, loc, values(addZeros(a)));
          return sumsOf(ifValid.getResults(), 1);
        };
        SmallVector<Value> results;
        if (!skip) {
          results = yielded(added(), next);
        } else {
          SmallVector<Type> types = sumsTypes();
          types.insert(types.begin() + 1, count.getType());
          auto ifSkip = scf::IfOp::create(b, loc, types, skip, true);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(ifSkip.thenBlock());
          scf::YieldOp::create(b, loc, yielded(a, count));
          b.setInsertionPointToStart(ifSkip.elseBlock());
          scf::YieldOp::create(b, loc, yielded(added(), next));
          results.assign(ifSkip.getResults().begin(),
                         ifSkip.getResults().end());
        }
        llvm::append_range(results, badOut);
        scf::YieldOp::create(b, loc, results);
      });
  if (bad)
    bad = loop.getResults().back();
  return finalize(sumsOf(loop.getResults(), 2), loop.getResult(1));
}

Value BagEmitter::idsAreRows(Value start, Value end) {
  // Whether some id is not a row (a negative one is a large unsigned one),
  // kIdLanes ids at a time, the last ones masked.
  constexpr int64_t kIdLanes = 16;
  auto idsType = VectorType::get(
      {kIdLanes}, cast<RankedTensorType>(ids.getType()).getElementType());
  auto flagsType = VectorType::get({kIdLanes}, b.getI1Type());
  Value none = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(flagsType, false));
  auto loop = scf::ForOp::create(
      b, loc, start, end, constIndex(kIdLanes), ValueRange{none},
      [&](OpBuilder &nested, Location, Value j, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value mask = vector::CreateMaskOp::create(
            b, loc, flagsType,
            ValueRange{arith::SubIOp::create(b, loc, end, j)});
        Value some = vector::TransferReadOp::create(
            b, loc, idsType, ids, ValueRange{j},
            b.getMultiDimIdentityMap(1),
            arith::ConstantOp::create(
                b, loc, b.getZeroAttr(idsType.getElementType())),
            mask, b.getBoolArrayAttr({true}));
        Value outside = arith::AndIOp::create(
            b, loc, mask,
            isIndexInRange(b, loc, indexValueToI64(b, loc, some), numRowsI64,
                           /*outside=*/true));
        scf::YieldOp::create(
            b, loc, ValueRange{arith::OrIOp::create(b, loc, args[0], outside)});
      });
  Value any = vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                          loop.getResult(0));
  return arith::XOrIOp::create(
      b, loc, any, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
}

Value BagEmitter::compute() {
  bool check = mode == GatherMode::check;
  // Rows of no element: nothing to compute (and upstream rejects a slice at
  // offset 0 of a dim of static size 0).
  if (cast<RankedTensorType>(init.getType()).getDimSize(1) == 0)
    return check ? checkedResult(init, nullptr) : init;
  // Elementwise: the ids were asserted in range (emitIdsChecked).
  if (form == BagForm::Elementwise)
    return computeElementwise();
  int64_t lanes = chunkType.getNumElements();
  if (prefetchDistance > 0) {
    auto type = cast<RankedTensorType>(weight.getType());
    weightBuffer = bufferization::ToBufferOp::create(
        b, loc, MemRefType::get(type.getShape(), element), weight,
        /*readOnly=*/true);
  }
  // check: one i8 a bag, whether the bag holds an id out of range.
  SmallVector<Value> outs{init};
  Type i1 = b.getI1Type(), i8 = b.getI8Type();
  if (check)
    outs.push_back(tensor::EmptyOp::create(
        b, loc, ArrayRef<OpFoldResult>{getAsOpFoldResult(bags)}, i8));
  auto forall = scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{getAsOpFoldResult(bags)}, outs,
      std::nullopt, [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value bag = args[0], shared = args[1];
        Value bad;
        if (check)
          bad = arith::ConstantIntOp::create(b, loc, i1, 0);
        Value start, end;
        std::tie(start, end) = bagBounds(bag);
        SmallVector<OpFoldResult> offsetsAt{bag, b.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes{b.getIndexAttr(1),
                                        getAsOpFoldResult(rowSize)};
        SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
        // The bag's result row, as a 1 x dim tile of the result.
        auto tileType = RankedTensorType::get({1, staticRowSize}, valueType);
        Value out = tensor::ExtractSliceOp::create(b, loc, tileType, shared,
                                                   offsetsAt, sizes, strides);
        Value zeroIndex = constIndex(0);
        // Whole chunks of the row, then the rest with masked reads and
        // writes: each chunk's sum stays in registers across the bag.
        Value whole = arith::SubIOp::create(
            b, loc, rowSize,
            arith::RemUIOp::create(b, loc, rowSize, constIndex(lanes)));
        SmallVector<Value> carriedInit{out};
        if (bad)
          carriedInit.push_back(bad);
        // A row of static size emits only the parts it has: no loop of
        // whole chunks for a row narrower than one, no tail for a multiple.
        bool staticRow = !ShapedType::isDynamic(staticRowSize);
        // The chunk at `d0` reduced into the bag's tile (`carried`: the
        // tile, then the flag in check mode); returns both, to yield.
        auto reduceChunk = [&](Value d0, ValueRange carried, bool inBounds) {
          // (Ids known to be rows leave the flag as it is.)
          Value chunkBad = bad && !rowIds ? carried[1] : Value();
          Value chunk = bagChunk(d0, start, end, inBounds, chunkBad);
          SmallVector<Value> yielded{
              vector::TransferWriteOp::create(b, loc, chunk, carried[0],
                                              ValueRange{zeroIndex, d0},
                                              ArrayRef<bool>{inBounds})
                  .getResult()};
          if (bad)
            yielded.push_back(chunkBad ? chunkBad : carried[1]);
          return yielded;
        };
        // The bag's row, chunk by chunk.
        auto reduceRow = [&] {
          SmallVector<Value> chunks = carriedInit;
          if (!staticRow || staticRowSize >= lanes) {
            auto loop = scf::ForOp::create(
                b, loc, zeroIndex, whole, constIndex(lanes), carriedInit,
                [&](OpBuilder &inner, Location, Value d0, ValueRange carried) {
                  OpBuilder::InsertionGuard g(b);
                  b.setInsertionPoint(inner.getInsertionBlock(),
                                      inner.getInsertionPoint());
                  scf::YieldOp::create(b, loc,
                                       reduceChunk(d0, carried,
                                                   /*inBounds=*/true));
                });
            chunks.assign(loop.getResults().begin(), loop.getResults().end());
          }
          SmallVector<Value> done = chunks;
          if (staticRow && staticRowSize % lanes != 0) {
            // A static row ends in a chunk of its remaining lanes rounded up
            // to a power of two (LLVM splits such vectors into registers;
            // others, such as 100 lanes, into scalar shuffles), masked only
            // when it is not one: a row of 8 f32 in a 128-lane chunk added
            // seven vectors of zeros an id.
            int64_t tail = staticRowSize % lanes;
            llvm::SaveAndRestore<VectorType> tailChunk(
                chunkType, VectorType::get({int64_t(llvm::PowerOf2Ceil(tail))},
                                           chunkType.getElementType()));
            done = reduceChunk(whole, chunks,
                               /*inBounds=*/llvm::isPowerOf2_64(tail));
          } else if (!staticRow) {
            auto tail = scf::IfOp::create(
                b, loc, ValueRange(chunks).getTypes(),
                cmp(arith::CmpIPredicate::ult, whole, rowSize), true);
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(tail.thenBlock());
            scf::YieldOp::create(
                b, loc, reduceChunk(whole, chunks, /*inBounds=*/false));
            b.setInsertionPointToStart(tail.elseBlock());
            scf::YieldOp::create(b, loc, chunks);
            done.assign(tail.getResults().begin(), tail.getResults().end());
          }
          return done;
        };
        // A bag's ids nearly always are rows as they are. Then its loops
        // read each id's row with no work on the id: normalizing, testing
        // its range and (check) recording it for the report were a third
        // of a bag's time on narrow rows (docs/decisions/embedding-bags.md,
        // "What an id costs"). A bag with
        // another id (negative, or out of range in any mode) takes the
        // loops that resolve each id, as does a bag of fewer than
        // kMinScannedBagIds. With prefetches, the ids they read (up to
        // prefetchDistance past the bag) must be rows too.
        Value rowsOnly = createIfElse(
            b, loc, i1,
            cmp(arith::CmpIPredicate::uge,
                arith::SubIOp::create(b, loc, end, start),
                constIndex(kMinScannedBagIds)),
            [&] {
              // (The bag has ids: its last one's prefetch is defined.)
              Value scanned = end;
              if (weightBuffer)
                scanned = arith::AddIOp::create(
                    b, loc,
                    prefetchedAt(arith::SubIOp::create(b, loc, end,
                                                       constIndex(1))),
                    constIndex(1));
              return idsAreRows(start, scanned);
            },
            [&] { return arith::ConstantIntOp::create(b, loc, i1, 0); });
        auto split = scf::IfOp::create(b, loc,
                                       ValueRange(carriedInit).getTypes(),
                                       rowsOnly, true);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(split.thenBlock());
          {
            llvm::SaveAndRestore<bool> known(rowIds, true);
            scf::YieldOp::create(b, loc, reduceRow());
          }
          b.setInsertionPointToStart(split.elseBlock());
          scf::YieldOp::create(b, loc, reduceRow());
        }
        SmallVector<Value> done(split.getResults());
        // The bag's flag written into its element of the shared flags (a
        // slice of them, so that it bufferizes in place: a new tensor a
        // bag was a malloc and a free in every bag).
        Value flag;
        if (bad) {
          Value byte = arith::ExtUIOp::create(b, loc, i8, done[1]);
          Value element = tensor::ExtractSliceOp::create(
              b, loc, RankedTensorType::get({1}, i8), args[2],
              ArrayRef<OpFoldResult>{bag},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
          flag = tensor::InsertOp::create(b, loc, byte, element,
                                          ValueRange{zeroIndex});
        }
        auto terminator = scf::InParallelOp::create(b, loc);
        b.setInsertionPointToStart(terminator.getBody());
        tensor::ParallelInsertSliceOp::create(b, loc, done[0],
                                              shared, offsetsAt, sizes,
                                              strides);
        if (flag)
          tensor::ParallelInsertSliceOp::create(
              b, loc, flag, args[2], ArrayRef<OpFoldResult>{bag},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1)},
              ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
      });
  if (!check)
    return forall.getResult(0);
  return checkedResult(forall.getResult(0), forall.getResult(1));
}

Value BagEmitter::computeElementwise() {
  // A chunk is the values of one byte of a quantized row (one value of a
  // float table): element d of the result is lane d mod lanes of the chunk
  // at d - d mod lanes.
  int64_t lanes = chunkType.getNumElements();
  auto identity = b.getMultiDimIdentityMap(2);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{identity},
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location, ValueRange) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value bag = linalg::IndexOp::create(b, loc, 0);
        Value d = linalg::IndexOp::create(b, loc, 1);
        Value start, end;
        std::tie(start, end) = bagBounds(bag);
        Value lane = constIndex(0), d0 = d;
        if (lanes > 1) {
          lane = arith::RemUIOp::create(b, loc, d, constIndex(lanes));
          d0 = arith::SubIOp::create(b, loc, d, lane);
        }
        Value noFlag;
        // Lanes past the row's end (its last byte's) read 0.
        Value chunk = bagChunk(d0, start, end, /*inBounds=*/lanes == 1, noFlag);
        linalg::YieldOp::create(
            b, loc,
            vector::ExtractOp::create(b, loc, chunk, OpFoldResult(lane))
                .getResult());
      });
  return generic.getResult(0);
}

Value BagEmitter::emit() {
  resultType = cast<RankedTensorType>(op.getType());
  // A chunk of a block-quantized row lies in one block.
  int64_t lanes = kChunkBits / acc.getIntOrFloatBitWidth();
  if (block)
    lanes = std::min(lanes, block->blockSize);
  if (form == BagForm::Elementwise)
    lanes = valuesPerColumn();
  chunkType = VectorType::get({lanes}, acc);
  numRows = tensorDim(weight, 0);
  numRowsI64 = toI64(numRows);
  rowCols = tensorDim(weight, 1);
  rowSize = getValueOrCreateConstantIndexOp(b, loc, op.getRowValues(b, loc));
  int64_t staticCols = cast<RankedTensorType>(weight.getType()).getDimSize(1);
  staticRowSize = getConstantIntValue(rowSize).value_or(ShapedType::kDynamic);

  // Fixed-length bags are one run of ids: bag b is [b * n, (b + 1) * n).
  SmallVector<Rule> rules;
  bool check = mode != GatherMode::unchecked;
  // Rows of a quantized table hold their scale and bias (the verifier
  // checks static rows).
  if (layout && check && ShapedType::isDynamic(staticCols))
    rules.push_back({cmp(arith::CmpIPredicate::sge, rowCols,
                         constIndex(layout->trailerBytes())),
                     GATHER_MLIR_RULE_ROW_BYTES, constI64(1), toI64(rowCols),
                     constI64(layout->trailerBytes()),
                     "rows of a row-wise quantized table must hold their "
                     "scale and bias"});
  // A block-quantized table's scales and zero points have a row per row
  // and a column per block (a byte per values-per-byte blocks).
  if (block && check) {
    auto ceilDiv = [&](Value x, int64_t d) -> Value {
      return arith::DivUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, x, constIndex(d - 1)),
          constIndex(d));
    };
    Value blocks = ceilDiv(rowSize, block->blockSize);
    auto shapeRules = [&](Value operand, ArrayRef<Value> want, int64_t rule,
                          StringRef message) {
      auto type = cast<RankedTensorType>(operand.getType());
      for (auto [d, size] : llvm::enumerate(want)) {
        std::optional<int64_t> known = getConstantIntValue(size);
        if (!type.isDynamicDim(d) && known &&
            *known == type.getDimSize(d))
          continue;
        Value have = tensorDim(operand, d);
        rules.push_back({cmp(arith::CmpIPredicate::eq, have, size), rule,
                         constI64(d), toI64(have), toI64(size),
                         message.str()});
      }
    };
    shapeRules(scales, {numRows, blocks}, GATHER_MLIR_RULE_SCALES_DIM,
               "scales must have a row per row and a column per block");
    if (zeroPoints)
      shapeRules(zeroPoints,
                 {numRows, ceilDiv(blocks, block->valuesPerByte())},
                 GATHER_MLIR_RULE_ZERO_POINTS_DIM,
                 "zero_points must have a row per row and its blocks' bytes");
  }
  auto idsType = cast<RankedTensorType>(ids.getType());
  if (sampleWeights && check) {
    auto type = cast<RankedTensorType>(sampleWeights.getType());
    for (int64_t d = 0; d < idsType.getRank(); ++d)
      if (idsType.isDynamicDim(d) || type.isDynamicDim(d)) {
        Value have = tensorDim(sampleWeights, d), want = tensorDim(ids, d);
        rules.push_back({cmp(arith::CmpIPredicate::eq, have, want),
                         GATHER_MLIR_RULE_SAMPLE_WEIGHTS_DIM, constI64(d),
                         toI64(have), toI64(want),
                         "per_sample_weights must have the shape of ids"});
      }
  }
  if (!offsets) {
    bags = tensorDim(ids, 0);
    bagLength = tensorDim(ids, 1);
    // [bags, n] ids with a static 0 hold no id: they become an empty run
    // (a ? beside a 0 has no collapsed size that a buffer accepts).
    auto run = [&](Value tensor) -> Value {
      auto type = cast<RankedTensorType>(tensor.getType());
      if (llvm::is_contained(type.getShape(), 0))
        return tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{0},
                                       type.getElementType());
      SmallVector<ReassociationIndices> all{{0, 1}};
      return tensor::CollapseShapeOp::create(b, loc, tensor, all);
    };
    ids = run(ids);
    if (sampleWeights)
      sampleWeights = run(sampleWeights);
  } else {
    numOffsets = tensorDim(offsets, 0);
    bags = numOffsets;
    if (op.getIncludeLastOffset()) {
      if (check)
        rules.push_back({cmp(arith::CmpIPredicate::ne, numOffsets,
                             constIndex(0)),
                         GATHER_MLIR_RULE_OFFSETS_COUNT, constI64(0),
                         toI64(numOffsets), constI64(0),
                         "include_last_offset needs at least one offset"});
      // max(n - 1, 0): an unchecked empty offsets gives no bag.
      bags = arith::SubIOp::create(
          b, loc, arith::MaxUIOp::create(b, loc, numOffsets, constIndex(1)),
          constIndex(1));
    }
  }
  numIds = tensorDim(ids, 0);
  // A result dim the op declares static that the operands leave dynamic.
  Value actual[] = {bags, rowSize};
  for (int64_t d = 0; d < 2; ++d) {
    if (resultType.isDynamicDim(d) || !check)
      continue;
    std::optional<int64_t> known = getConstantIntValue(actual[d]);
    if (known && *known == resultType.getDimSize(d))
      continue;
    rules.push_back({cmp(arith::CmpIPredicate::eq, actual[d],
                         constIndex(resultType.getDimSize(d))),
                     GATHER_MLIR_RULE_RESULT_DIM, constI64(d),
                     constI64(resultType.getDimSize(d)), toI64(actual[d]),
                     "the result has another size than the operands give"});
  }
  if (std::optional<int64_t> pad = op.getPaddingIdx()) {
    // Negative counts from the end; one out of range matches no row.
    Value p = constI64(*pad);
    paddingRow = *pad < 0 ? arith::AddIOp::create(b, loc, p, numRowsI64)
                                .getResult()
                          : p;
  }
  // One destination for every outcome, so that the checks' branches yield
  // the same buffer.
  // Its sizes are the declared result's where they are static (the rules
  // above check them when the op runs), the operands' elsewhere: the
  // operands' may be known statically only now, and differ.
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(actual))
    sizes.push_back(resultType.isDynamicDim(d)
                        ? getAsOpFoldResult(size)
                        : OpFoldResult(b.getIndexAttr(resultType.getDimSize(d))));
  init = tensor::EmptyOp::create(b, loc, sizes, valueType);
  Value result = emitChecked(rules);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

/// Whether the static dims of the op's operands and result count their
/// elements within int64 (a collapse of ids, or the strides of the table,
/// would overflow otherwise).
static bool hasCountableShapes(EmbeddingBagOp op) {
  return llvm::all_of(op->getOperandTypes(), hasCountableStaticSizes) &&
         hasCountableStaticSizes(op.getType());
}

struct EmbeddingBagToSCF : OpConversionPattern<EmbeddingBagOp> {
  EmbeddingBagToSCF(MLIRContext *context, BagErrorReport report,
                    BagForm form, int64_t prefetchDistance)
      : OpConversionPattern(context), report(report), form(form),
        prefetchDistance(prefetchDistance) {
    assert((form != BagForm::Elementwise ||
            report == BagErrorReport::Asserts) &&
           "the elementwise form checks with cf.assert");
  }

  LogicalResult
  matchAndRewrite(EmbeddingBagOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value operand : adaptor.getOperands())
      if (!isa<RankedTensorType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "needs ranked operands");
    if (!isa<RankedTensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "needs a ranked result");
    if (!hasCountableShapes(op))
      return rewriter.notifyMatchFailure(
          op, "static sizes whose element count overflows int64");
    BagEmitter emitter(rewriter, op, adaptor.getWeight(), adaptor.getIds(),
                       adaptor.getOffsets(), adaptor.getPerSampleWeights(),
                       adaptor.getScales(), adaptor.getZeroPoints(),
                       report, form, prefetchDistance);
    rewriter.replaceOp(op, emitter.emit());
    return success();
  }

  BagErrorReport report;
  BagForm form;
  int64_t prefetchDistance;
};

struct ConvertEmbeddingBagToSCFPass
    : gather::impl::ConvertEmbeddingBagToSCFBase<ConvertEmbeddingBagToSCFPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    WalkResult unranked = getOperation()->walk([](EmbeddingBagOp op) {
      if (!llvm::all_of(op->getOperandTypes(),
                        llvm::IsaPred<RankedTensorType>) ||
          !isa<RankedTensorType>(op.getType())) {
        op->emitError("convert-embedding-bag-to-scf needs ranked operands "
                      "and result (refine them with gather-shape-inference)");
        return WalkResult::interrupt();
      }
      if (!hasCountableShapes(op)) {
        op->emitError("convert-embedding-bag-to-scf: static sizes whose "
                      "element count overflows int64");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unranked.wasInterrupted())
      return signalPassFailure();
    ConversionTarget target(*context);
    target.addIllegalOp<EmbeddingBagOp>();
    RewritePatternSet patterns(context);
    populateEmbeddingBagToSCFPatterns(patterns, BagErrorReport::Hooks,
                                      BagForm::BagLoops, prefetchDistance);
    if (failed(applyLoweringPatterns(getOperation(), target,
                                     std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateEmbeddingBagToSCFPatterns(
    RewritePatternSet &patterns, BagErrorReport report, BagForm form,
    int64_t prefetchDistance) {
  patterns.add<EmbeddingBagToSCF>(patterns.getContext(), report, form,
                                  prefetchDistance);
}
