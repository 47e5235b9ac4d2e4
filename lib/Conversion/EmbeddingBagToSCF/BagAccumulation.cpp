//===- BagAccumulation.cpp - Rows reduced in vector chunks
//------------------===//

#include "BagEmitter.h"

using namespace mlir;
using namespace mlir::gather;

namespace mlir::gather::bags {

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
  Value col =
      perByte == 1
          ? d0
          : arith::DivUIOp::create(b, loc, d0, constIndex(perByte)).getResult();
  Value q = vector::TransferReadOp::create(
      b, loc, bytesType, weight, ValueRange{row, col},
      arith::ConstantIntOp::create(b, loc, i8, 0), ArrayRef<bool>{inBounds});
  Value x = arith::UIToFPOp::create(b, loc, chunkType, unpack(q, bits));
  if (block) {
    // The chunk lies in one block (chunks are at most a block long): its
    // scale, and its zero point (slot blk mod perByte of byte blk /
    // perByte, or the middle of the range).
    Value blk =
        arith::DivUIOp::create(b, loc, d0, constIndex(block->blockSize));
    Value rowScale =
        widen(tensor::ExtractOp::create(b, loc, scales, ValueRange{row, blk}));
    Value zero;
    if (zeroPoints) {
      Value byte = tensor::ExtractOp::create(
          b, loc, zeroPoints,
          ValueRange{row,
                     arith::DivUIOp::create(b, loc, blk, constIndex(perByte))});
      Value slot = arith::IndexCastOp::create(
          b, loc, i8, arith::RemUIOp::create(b, loc, blk, constIndex(perByte)));
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
  Type scaleType =
      layout->scaleBits() == 32 ? Type(b.getF32Type()) : Type(b.getF16Type());
  Value pair =
      vector::BitCastOp::create(b, loc, VectorType::get({2}, scaleType), raw);
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
        b, loc,
        DenseElementsAttr::get(type, b.getIntegerAttr(b.getI8Type(), v)));
  };
  // Slot k of each byte: (byte >> k * bits) & mask.
  auto slot = [&](int64_t k) -> Value {
    Value shifted =
        k == 0 ? bytes
               : arith::ShRUIOp::create(b, loc, bytes, splatI8(k * bits))
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

BagEmitter::Sums BagEmitter::addRow(Sums a, Value row, Value d0, Value scale,
                                    bool inBounds) {
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
        b, loc, cmp(arith::CmpIPredicate::eq, count, constIndex(0)), splat(0.0),
        a);
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
  Value firstCol =
      perCol == 1
          ? d0
          : arith::DivUIOp::create(b, loc, d0, constIndex(perCol)).getResult();
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
        if (!rowIds &&
            (mode == GatherMode::check || mode == GatherMode::unchecked)) {
          valid = isIndexInRange(b, loc, r.index, numRowsI64);
          if (bad)
            badOut.push_back(
                arith::OrIOp::create(b, loc, carried.back(),
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
            b, loc, idsType, ids, ValueRange{j}, b.getMultiDimIdentityMap(1),
            arith::ConstantOp::create(b, loc,
                                      b.getZeroAttr(idsType.getElementType())),
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

} // namespace mlir::gather::bags
