//===- ConsumerFusion.cpp - Fuse a consumer into its producer's loop ------===//
//
// The loop forms are those of upstream's tiling (scf::tileUsingSCF): an
// scf.forall whose terminator inserts each iteration's tile of a result
// with tensor.parallel_insert_slice into its shared output, or an scf.for
// that yields a tensor.insert_slice of the tile into its iteration
// argument. The fused consumer's destination is a tensor.empty of its
// reified result shape (reifyResultShapes), as the ops are not
// destination-style.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/ConsumerFusion.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;
using namespace mlir::gather;

namespace {
/// The tile of a loop result that one iteration inserts: its
/// tensor.(parallel_)insert_slice, read again once the loop body has moved
/// to the new loop (whose block arguments replace the old ones).
struct InsertedTile {
  OffsetSizeAndStrideOpInterface insert;
  /// The loop's init for the result (its type, defined before the loop).
  Value init;
  Value source() { return insert->getOperand(0); }
};

/// The consumer's tile for one inserted tile: the operand tile, and where
/// each of the consumer's results goes.
struct TilePlan {
  SmallVector<SmallVector<OpFoldResult>> operandOffsets, operandSizes;
  SmallVector<SmallVector<OpFoldResult>> resultOffsets, resultSizes;
};
} // namespace

/// The plan of `consumer`'s tile that reads `tile` as its operand
/// `operandNumber`, built at `b`'s insertion point, or a reason.
static FailureOr<TilePlan> planTile(OpBuilder &b, TilingInterface consumer,
                                    unsigned operandNumber, InsertedTile tile,
                                    std::string &why) {
  TilePlan plan;
  plan.operandOffsets.push_back(tile.insert.getMixedOffsets());
  plan.operandSizes.push_back(tile.insert.getMixedSizes());
  SmallVector<OpFoldResult> domainOffsets, domainSizes;
  if (failed(consumer.getIterationDomainTileFromOperandTiles(
          b, {operandNumber}, plan.operandOffsets, plan.operandSizes,
          domainOffsets, domainSizes))) {
    why = "no tile of the consumer reads exactly the tile the loop inserts "
          "into operand #" +
          std::to_string(operandNumber);
    return failure();
  }
  unsigned numResults = consumer->getNumResults();
  plan.resultOffsets.resize(numResults);
  plan.resultSizes.resize(numResults);
  for (unsigned r = 0; r < numResults; ++r)
    if (failed(consumer.getResultTilePosition(b, r, domainOffsets, domainSizes,
                                              plan.resultOffsets[r],
                                              plan.resultSizes[r]))) {
      why = "the consumer cannot place the tile of its result #" +
            std::to_string(r);
      return failure();
    }
  return plan;
}

/// The tile `loop` inserts into its result `resultNumber`, or a reason.
static FailureOr<InsertedTile>
findInsertedTile(Operation *loop, unsigned resultNumber, std::string &why) {
  auto fromSlice = [&](auto slice, Value init) -> FailureOr<InsertedTile> {
    if (!slice) {
      why = "the loop does not insert a tile into that result";
      return failure();
    }
    if (!llvm::all_of(slice.getMixedStrides(), isOneInteger) ||
        slice.getSourceType().getRank() != slice.getDestType().getRank()) {
      why = "the loop inserts its tile with strides or a rank reduction";
      return failure();
    }
    return InsertedTile{
        cast<OffsetSizeAndStrideOpInterface>(slice.getOperation()), init};
  };
  if (auto forall = dyn_cast<scf::ForallOp>(loop)) {
    BlockArgument shared = forall.getRegionIterArgs()[resultNumber];
    tensor::ParallelInsertSliceOp found;
    for (Operation &op : forall.getTerminator().getYieldingOps()) {
      auto insert = dyn_cast<tensor::ParallelInsertSliceOp>(op);
      if (!insert || insert.getDest() != shared)
        continue;
      if (found) {
        why = "the loop inserts more than one tile into that result";
        return failure();
      }
      found = insert;
    }
    return fromSlice(found, forall.getOutputs()[resultNumber]);
  }
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    auto insert = forOp.getYieldedValues()[resultNumber]
                      .getDefiningOp<tensor::InsertSliceOp>();
    if (insert && insert.getDest() != forOp.getRegionIterArgs()[resultNumber])
      insert = nullptr;
    return fromSlice(insert, forOp.getInitArgs()[resultNumber]);
  }
  why = "the loop is neither an scf.forall nor an scf.for";
  return failure();
}

FailureOr<FusedConsumer>
mlir::gather::fuseConsumerIntoLoop(RewriterBase &rewriter,
                                   TilingInterface consumer, Operation *loop,
                                   std::string &why) {
  // The one operand that comes from the loop; the others dominate it.
  OpOperand *fromLoop = nullptr;
  for (OpOperand &operand : consumer->getOpOperands()) {
    if (operand.get().getDefiningOp() != loop)
      continue;
    if (fromLoop) {
      why = "more than one operand of the consumer comes from the loop";
      return failure();
    }
    fromLoop = &operand;
  }
  if (!fromLoop) {
    why = "no operand of the consumer is a result of the loop";
    return failure();
  }
  DominanceInfo dominance;
  for (OpOperand &operand : consumer->getOpOperands())
    if (&operand != fromLoop &&
        !dominance.properlyDominates(operand.get(), loop)) {
      why = "operand #" + std::to_string(operand.getOperandNumber()) +
            " of the consumer is not defined before the loop";
      return failure();
    }
  if (!llvm::all_of(consumer->getResultTypes(), llvm::IsaPred<TensorType>)) {
    why = "the consumer has a result that is not a tensor";
    return failure();
  }
  unsigned operandNumber = fromLoop->getOperandNumber();
  unsigned resultNumber = cast<OpResult>(fromLoop->get()).getResultNumber();
  FailureOr<InsertedTile> tile = findInsertedTile(loop, resultNumber, why);
  if (failed(tile))
    return failure();

  // While it is planned, tiled and reified, the consumer reads the loop's
  // init for that result instead (same type, defined before the loop): what
  // its interfaces build from the operand (dims, slices) must not use the
  // loop's result inside the loop. Restored if the fusion fails.
  Value init = tile->init;
  Value original = fromLoop->get();
  rewriter.modifyOpInPlace(consumer, [&] { fromLoop->set(init); });
  auto fail = [&](const std::string &reason) -> FailureOr<FusedConsumer> {
    rewriter.modifyOpInPlace(consumer, [&] { fromLoop->set(original); });
    why = reason;
    return failure();
  };

  // The consumer's tile, built once in the loop body before its terminator
  // (before the loop changes: a failure leaves at most dead index
  // computations), reading the loop's tile instead of a slice of the
  // loop's result.
  OpBuilder::InsertionGuard guard(rewriter);
  unsigned numResults = consumer->getNumResults();
  Block *body = &loop->getRegion(0).front();
  rewriter.setInsertionPoint(body->getTerminator());
  std::string reason;
  FailureOr<TilePlan> plan =
      planTile(rewriter, consumer, operandNumber, *tile, reason);
  if (failed(plan))
    return fail(reason);
  FailureOr<TilingResult> tiled =
      consumer.getTiledImplementationFromOperandTiles(
          rewriter, {operandNumber}, plan->operandOffsets, plan->operandSizes);
  if (failed(tiled) || tiled->tiledOps.empty())
    return fail("the consumer has no implementation of that tile");
  Operation *tiledConsumer = tiled->tiledOps.front();
  OpOperand &read = tiledConsumer->getOpOperand(operandNumber);
  Value source = tile->source();
  if (source.getType() != read.get().getType()) {
    rewriter.setInsertionPoint(tiledConsumer);
    source = tensor::CastOp::create(rewriter, consumer->getLoc(),
                                    read.get().getType(), source);
  }
  Operation *slice = read.get().getDefiningOp();
  rewriter.modifyOpInPlace(tiledConsumer, [&] { read.set(source); });
  if (slice && slice->use_empty())
    rewriter.eraseOp(slice);

  // Destinations by reification, before the loop.
  rewriter.setInsertionPoint(loop);
  ReifiedRankedShapedTypeDims shapes;
  if (failed(reifyResultShapes(rewriter, consumer, shapes)))
    return fail("the consumer's result shapes cannot be reified");
  SmallVector<Value> destinations;
  for (auto [type, sizes] : llvm::zip_equal(consumer->getResultTypes(), shapes))
    destinations.push_back(
        tensor::EmptyOp::create(rewriter, consumer->getLoc(), sizes,
                                cast<TensorType>(type).getElementType()));

  // The body moves to the new loop, whose block arguments replace the old
  // ones (which moving erases): a tile position that is an old argument (an
  // induction variable) is noted by its number and taken from the new block.
  struct Position {
    OpFoldResult value;
    int64_t argNumber;
  };
  auto note = [&](ArrayRef<OpFoldResult> values) {
    return llvm::map_to_vector(values, [&](OpFoldResult v) -> Position {
      auto arg = dyn_cast_if_present<BlockArgument>(dyn_cast<Value>(v));
      if (arg && arg.getOwner() == body)
        return {OpFoldResult(), arg.getArgNumber()};
      return {v, -1};
    });
  };
  auto in = [](Block *newBody, ArrayRef<Position> positions) {
    return llvm::map_to_vector(positions, [&](const Position &p) {
      return p.argNumber < 0 ? p.value
                             : OpFoldResult(newBody->getArgument(p.argNumber));
    });
  };
  SmallVector<SmallVector<Position>> offsets, sizes;
  for (unsigned r = 0; r < numResults; ++r) {
    offsets.push_back(note(plan->resultOffsets[r]));
    sizes.push_back(note(plan->resultSizes[r]));
  }
  auto unitStrides = [&](unsigned r) {
    return SmallVector<OpFoldResult>(plan->resultSizes[r].size(),
                                     rewriter.getIndexAttr(1));
  };
  SmallVector<Value> tiledValues(tiled->tiledValues);
  Location loc = loop->getLoc();
  Operation *newLoop = nullptr;
  if (auto forall = dyn_cast<scf::ForallOp>(loop)) {
    SmallVector<Value> outputs(forall.getOutputs());
    llvm::append_range(outputs, destinations);
    auto created = scf::ForallOp::create(
        rewriter, loc, forall.getMixedLowerBound(), forall.getMixedUpperBound(),
        forall.getMixedStep(), outputs, forall.getMapping(),
        [](OpBuilder &, Location, ValueRange) {});
    Block *newBody = created.getBody();
    rewriter.mergeBlocks(
        body, newBody,
        newBody->getArguments().take_front(body->getNumArguments()));
    auto terminator = cast<scf::InParallelOp>(newBody->getTerminator());
    rewriter.setInsertionPointToEnd(terminator.getBody());
    ArrayRef<BlockArgument> shared =
        created.getRegionIterArgs().take_back(numResults);
    for (unsigned r = 0; r < numResults; ++r)
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, tiledValues[r], shared[r], in(newBody, offsets[r]),
          in(newBody, sizes[r]), unitStrides(r));
    rewriter.replaceOp(
        forall, created->getResults().take_front(forall.getNumResults()));
    newLoop = created;
  } else {
    auto forOp = cast<scf::ForOp>(loop);
    FailureOr<LoopLikeOpInterface> replaced =
        cast<LoopLikeOpInterface>(*forOp).replaceWithAdditionalYields(
            rewriter, destinations, /*replaceInitOperandUsesInLoop=*/false,
            [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> args) {
              Block *newBody = b.getInsertionBlock();
              SmallVector<Value> yielded;
              for (unsigned r = 0; r < numResults; ++r)
                yielded.push_back(tensor::InsertSliceOp::create(
                    b, l, tiledValues[r], args[r], in(newBody, offsets[r]),
                    in(newBody, sizes[r]), unitStrides(r)));
              return yielded;
            });
    if (failed(replaced))
      return fail("the loop cannot take more iteration arguments");
    newLoop = *replaced;
  }
  SmallVector<Value> fusedResults =
      llvm::to_vector_of<Value>(newLoop->getResults().take_back(numResults));
  rewriter.replaceOp(consumer, fusedResults);
  return FusedConsumer{tiledConsumer, newLoop};
}
