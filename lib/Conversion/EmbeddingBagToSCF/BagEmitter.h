//===- BagEmitter.h - The embedding-bag lowering's emitter ------*- C++ -*-===//
//
// The emitter convert-embedding-bag-to-scf builds each bag's loops with,
// shared by its three parts: BagValidation.cpp (the run-time rules, offsets
// and ids, and what a failure returns), BagAccumulation.cpp (rows read,
// dequantized and reduced in vector chunks) and BagLoops.cpp (the loop
// nests over bags and ids, and the elementwise form). Internal to
// lib/Conversion/EmbeddingBagToSCF.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_CONVERSION_EMBEDDINGBAGTOSCF_BAGEMITTER_H
#define GATHER_LIB_CONVERSION_EMBEDDINGBAGTOSCF_BAGEMITTER_H

#include "gather/Conversion/EmbeddingBagToSCF/EmbeddingBagToSCF.h"

#include "gather-c/Runtime.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"
#include "gather/Dialect/Gather/Utils/Lowering.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

namespace mlir::gather::bags {

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
             Value offsets, Value sampleWeights, Value scales, Value zeroPoints,
             BagErrorReport report, BagForm form, int64_t prefetchDistance)
      : EmitterBase(b, op.getLoc()), op(op), report(report), form(form),
        prefetchDistance(prefetchDistance), weight(weight), ids(ids),
        offsets(offsets), sampleWeights(sampleWeights), scales(scales),
        zeroPoints(zeroPoints),
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
    return layout  ? layout->valuesPerByte()
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

} // namespace mlir::gather::bags

#endif // GATHER_LIB_CONVERSION_EMBEDDINGBAGTOSCF_BAGEMITTER_H
