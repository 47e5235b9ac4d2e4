//===- BagLoops.cpp - The loops over bags and ids
//---------------------------===//

#include "BagEmitter.h"

using namespace mlir;
using namespace mlir::gather;

namespace mlir::gather::bags {

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
                scanned =
                    arith::AddIOp::create(b, loc,
                                          prefetchedAt(arith::SubIOp::create(
                                              b, loc, end, constIndex(1))),
                                          constIndex(1));
              return idsAreRows(start, scanned);
            },
            [&] { return arith::ConstantIntOp::create(b, loc, i1, 0); });
        auto split = scf::IfOp::create(
            b, loc, ValueRange(carriedInit).getTypes(), rowsOnly, true);
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
        tensor::ParallelInsertSliceOp::create(b, loc, done[0], shared,
                                              offsetsAt, sizes, strides);
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
        if (!type.isDynamicDim(d) && known && *known == type.getDimSize(d))
          continue;
        Value have = tensorDim(operand, d);
        rules.push_back({cmp(arith::CmpIPredicate::eq, have, size), rule,
                         constI64(d), toI64(have), toI64(size), message.str()});
      }
    };
    shapeRules(scales, {numRows, blocks}, GATHER_MLIR_RULE_SCALES_DIM,
               "scales must have a row per row and a column per block");
    if (zeroPoints)
      shapeRules(zeroPoints, {numRows, ceilDiv(blocks, block->valuesPerByte())},
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
        rules.push_back(
            {cmp(arith::CmpIPredicate::ne, numOffsets, constIndex(0)),
             GATHER_MLIR_RULE_OFFSETS_COUNT, constI64(0), toI64(numOffsets),
             constI64(0), "include_last_offset needs at least one offset"});
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
    paddingRow =
        *pad < 0 ? arith::AddIOp::create(b, loc, p, numRowsI64).getResult() : p;
  }
  // One destination for every outcome, so that the checks' branches yield
  // the same buffer.
  // Its sizes are the declared result's where they are static (the rules
  // above check them when the op runs), the operands' elsewhere: the
  // operands' may be known statically only now, and differ.
  SmallVector<OpFoldResult> sizes;
  for (auto [d, size] : llvm::enumerate(actual))
    sizes.push_back(
        resultType.isDynamicDim(d)
            ? getAsOpFoldResult(size)
            : OpFoldResult(b.getIndexAttr(resultType.getDimSize(d))));
  init = tensor::EmptyOp::create(b, loc, sizes, valueType);
  Value result = emitChecked(rules);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

} // namespace mlir::gather::bags
