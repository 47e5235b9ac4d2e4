//===- GatherFusion.cpp - Elementwise consumers in the gather's loop ------===//
//
// gather-fuse-elementwise. An elementwise linalg op that reads gathers (what
// convert-elementwise-to-linalg makes of arith and math on tensors, an
// elementwise linalg.generic or linalg.map) is tiled by one index position
// with upstream's scf::tileConsumerAndFuseProducersUsingSCF, which fuses the
// gathers into that loop through their TilingInterface. A fused gather then
// reads one index: it becomes the index's resolved position under the mode
// and a slice of data there (a view), so the consumer computes each result
// row from the table row itself and the gathered values are never written
// to memory in between. Sibling gathers with the same ids (values, scales,
// zero points of a quantized table) fuse into the same loop.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/GatherFusion.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"

#include "gather-c/Runtime.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

#include <limits>

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERFUSEELEMENTWISE
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// The gathers fused into `consumer`: gather.gather ops (a row of data per
/// index) that only `consumer` reads (else fusing would compute them twice).
/// gather_elements reads each element from its own position along the axis,
/// and gather_nd's tiles keep their tuples: both are left to their kernels.
static bool isFusableGather(Operation *op, Operation *consumer) {
  return isa<GatherOp>(op) &&
         llvm::all_of(op->getUsers(), [&](Operation *user) {
           return user == consumer || isa<tensor::ExtractSliceOp>(user);
         });
}

/// The consumer loop that each index dim of `gather` (read through the
/// consumer's indexing `map`) runs along, -1 for a dim no result dim comes
/// from; fails when a result dim from the indices is not a loop of the
/// consumer (a constant in the map) or the gather is not ranked.
static FailureOr<SmallVector<int64_t>> loopsOfIndexDims(GatherOp gather,
                                                        AffineMap map) {
  FailureOr<GatherShape> shape = gather.getGatherShape();
  auto indicesType = dyn_cast<RankedTensorType>(gather.getIndices().getType());
  if (failed(shape) || !shape->ranked || !indicesType)
    return failure();
  SmallVector<int64_t> loops(indicesType.getRank(), -1);
  for (auto [r, src] : llvm::enumerate(shape->dims)) {
    if (src.indicesDim < 0)
      continue;
    auto loop = dyn_cast<AffineDimExpr>(map.getResult(r));
    if (!loop)
      return failure();
    loops[src.indicesDim] = loop.getPosition();
  }
  return loops;
}

/// The consumer loops to tile by one: those that the result dims coming
/// from the indices of its fusable gather operands run along. Empty when
/// the consumer reads no such gather (or reads one in a way this does not
/// handle: a constant in the indexing map).
static SmallVector<int64_t> indexLoops(linalg::LinalgOp consumer) {
  SmallVector<int64_t> sizes(consumer.getNumLoops(), 0);
  bool any = false;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    auto gather = operand->get().getDefiningOp<GatherOp>();
    if (!gather || !isFusableGather(gather, consumer))
      continue;
    FailureOr<SmallVector<int64_t>> loops =
        loopsOfIndexDims(gather, consumer.getMatchingIndexingMap(operand));
    if (failed(loops))
      return {};
    for (int64_t loop : *loops)
      if (loop >= 0) {
        sizes[loop] = 1;
        any = true;
      }
  }
  return any ? sizes : SmallVector<int64_t>{};
}

/// The zero of `type` (complex included).
static Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Attribute z = b.getZeroAttr(complexType.getElementType());
    return complex::ConstantOp::create(b, loc, complexType,
                                       b.getArrayAttr({z, z}));
  }
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

/// A fused gather that reads one index, resolved: where it reads data and
/// whether it reads any (the mode's rules applied).
struct OneIndexGather {
  GatherOp op;
  /// The resolved position along the axis (an index), meaningful when
  /// `valid`.
  Value position;
  Value valid;

  /// The slice of data the gather gives for a valid index: a view.
  Value slice(OpBuilder &b, Location loc) {
    auto dataType = cast<RankedTensorType>(op.getData().getType());
    int64_t r = dataType.getRank(), a = op.getGatherShape()->axis;
    SmallVector<OpFoldResult> offsets(r, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(b, loc, op.getData());
    SmallVector<OpFoldResult> strides(r, b.getIndexAttr(1));
    offsets[a] = position;
    sizes[a] = b.getIndexAttr(1);
    return tensor::ExtractSliceOp::create(
        b, loc, cast<RankedTensorType>(op.getType()), op.getData(), offsets,
        sizes, strides);
  }

  /// The gather's result whatever the index: the slice, or zeros.
  Value sliceOrZeros(OpBuilder &b, Location loc) {
    auto resultType = cast<RankedTensorType>(op.getType());
    auto ifOp = scf::IfOp::create(
        b, loc, valid,
        [&](OpBuilder &then, Location l) {
          scf::YieldOp::create(then, l, slice(then, l));
        },
        [&](OpBuilder &otherwise, Location l) {
          SmallVector<OpFoldResult> sizes;
          for (int64_t d = 0; d < resultType.getRank(); ++d)
            sizes.push_back(
                resultType.isDynamicDim(d)
                    ? OpFoldResult(
                          tensor::DimOp::create(otherwise, l, op.getData(), d)
                              .getResult())
                    : otherwise.getIndexAttr(resultType.getDimSize(d)));
          Value empty = tensor::EmptyOp::create(otherwise, l, sizes,
                                                resultType.getElementType());
          Value zero = zeroOf(otherwise, l, resultType.getElementType());
          Value zeros =
              linalg::FillOp::create(otherwise, l, zero, empty).getResult(0);
          if (zeros.getType() != resultType)
            zeros = tensor::CastOp::create(otherwise, l, resultType, zeros);
          scf::YieldOp::create(otherwise, l, zeros);
        });
    return ifOp.getResult(0);
  }
};

/// Whether each tile of the fused `op` reads one index that resolveOneIndex
/// turns into a slice: indices with one dim past the batch dims (or none,
/// where the result drops the axis and data's other dims are its own), and
/// a table with rows along the axis (a slice at the folded position 0 of an
/// empty one would not verify; the kernel handles it). Others keep their
/// kernels.
static bool resolvesToSlices(GatherOp op) {
  auto indicesType = dyn_cast<RankedTensorType>(op.getIndices().getType());
  auto dataType = dyn_cast<RankedTensorType>(op.getData().getType());
  FailureOr<GatherShape> shape = op.getGatherShape();
  return indicesType && dataType && isa<RankedTensorType>(op.getType()) &&
         succeeded(shape) && indicesType.getRank() - shape->batchDims <= 1 &&
         dataType.getDimSize(shape->axis) != 0;
}

/// The index of `op` at position `at` of `ids`, under its mode.
struct ResolvedAt {
  /// The index as given and the size of the axis (i64s).
  Value id, size;
  /// The resolved position along the axis (an index), meaningful when
  /// `valid`.
  Value position, valid;
};

/// Reads `ids[at]` and applies `op`'s mode to it. Every mode reads only an
/// index in range (`unchecked` too, so that a broken promise reads zeros
/// rather than memory out of bounds).
static ResolvedAt resolveAt(OpBuilder &b, Location loc, GatherOp op, Value ids,
                            ValueRange at) {
  Value raw = tensor::ExtractOp::create(b, loc, ids, at);
  Type i64 = b.getI64Type();
  Value id = indexValueToI64(b, loc, raw);
  Value sizeIndex =
      tensor::DimOp::create(b, loc, op.getData(), op.getGatherShape()->axis);
  Value size = arith::IndexCastOp::create(b, loc, i64, sizeIndex);
  ResolvedIndex resolved = resolveIndex(b, loc, op.getMode(), id, size);
  // `fill` says itself whether its index was in range.
  Value valid = resolved.valid ? resolved.valid
                               : isIndexInRange(b, loc, resolved.index, size);
  Value position =
      arith::IndexCastOp::create(b, loc, b.getIndexType(), resolved.index);
  return {id, size, position, valid};
}

/// `!value` for an i1.
static Value negate(OpBuilder &b, Location loc, Value value) {
  return arith::XOrIOp::create(
      b, loc, value, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
}

/// Calls the run-time hook for `index` of `op` when `report` holds.
static void reportIndexError(OpBuilder &b, Location loc, GatherOp op,
                             Value report, const ResolvedAt &index) {
  auto ifOp = scf::IfOp::create(b, loc, report);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  emitIndexError(b, loc, op, b.getI64IntegerAttr(op.getGatherShape()->axis),
                 index.id, index.size);
}

/// Resolves a gather of one index at the builder's insertion point: reads
/// the index and applies the mode; with `report`, calls the run-time hook
/// for an index that is an error in `check`, `clamp` or `wrap` mode. Fails
/// for gathers that keep their kernels (resolvesToSlices).
static FailureOr<OneIndexGather> resolveOneIndex(RewriterBase &rewriter,
                                                 GatherOp op, bool report) {
  auto indicesType = dyn_cast<RankedTensorType>(op.getIndices().getType());
  if (!resolvesToSlices(op) || !indicesType.hasStaticShape() ||
      indicesType.getNumElements() != 1)
    return failure();
  Location loc = op.getLoc();
  // The one index, read where the tile's slice of the ids starts.
  Value ids = op.getIndices();
  int64_t q = indicesType.getRank();
  SmallVector<Value> at(q, arith::ConstantIndexOp::create(rewriter, loc, 0));
  if (auto slice = ids.getDefiningOp<tensor::ExtractSliceOp>();
      slice && slice.getSourceType().getRank() == q) {
    ids = slice.getSource();
    at =
        getValueOrCreateConstantIndexOp(rewriter, loc, slice.getMixedOffsets());
  }
  ResolvedAt index = resolveAt(rewriter, loc, op, ids, at);
  if (report && modeRejectsEmptyDims(op.getMode()))
    reportIndexError(rewriter, loc, op, negate(rewriter, loc, index.valid),
                     index);
  return OneIndexGather{op, index.position, index.valid};
}

/// A fused gather whose bad indices are reported: in `check` mode, or
/// `clamp`/`wrap` along an axis that may be empty.
static bool reportsIndices(GatherOp op) {
  if (!modeRejectsEmptyDims(op.getMode()))
    return false;
  if (op.getMode() == GatherMode::check)
    return true;
  auto dataType = dyn_cast<RankedTensorType>(op.getData().getType());
  FailureOr<GatherShape> shape = op.getGatherShape();
  return !dataType || failed(shape) || dataType.isDynamicDim(shape->axis);
}

/// A fused gather that reports (reportsIndices), and
/// the consumer loop that each of its index dims runs along.
struct ReportingGather {
  GatherOp op;
  SmallVector<int64_t> loopOfIndexDim;

  /// The loops its indices depend on, in loop order.
  SmallVector<int64_t> loops() const {
    SmallVector<int64_t> sorted(loopOfIndexDim);
    llvm::sort(sorted);
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    return sorted;
  }
};

/// Reports, serially and before the fused loop nest `loops` (over the
/// consumer's loops of `tileSizes` 1, in order), the first bad index in
/// row-major order (loops in order, the gathers of a position in operand
/// order) of the fused `gathers`, whose tiles then call no hook: threads
/// would race to report first, and a loop of the consumer that is empty at
/// run time would skip the indices of gathers that do not run along it
/// (the unfused gather checks them all). The scan runs over the loops the
/// gathers' indices run along, the same for each of them (the caller's
/// condition): the first bad position has the other loops at 0. Without a
/// `check` gather it reads the first position only: `clamp` and `wrap`
/// report any index along an empty axis, and none along the others.
static void reportFirstBadIndex(RewriterBase &rewriter,
                                ArrayRef<LoopLikeOpInterface> loops,
                                ArrayRef<int64_t> tileSizes,
                                ArrayRef<ReportingGather> gathers) {
  // The bounds of each tiled loop: a dim of an scf.forall or an scf.for.
  SmallVector<OpFoldResult> allLbs, allUbs, allSteps;
  for (LoopLikeOpInterface loop : loops) {
    llvm::append_range(allLbs, *loop.getLoopLowerBounds());
    llvm::append_range(allUbs, *loop.getLoopUpperBounds());
    llvm::append_range(allSteps, *loop.getLoopSteps());
  }
  SmallVector<int64_t> tiledDim(tileSizes.size(), -1);
  int64_t dims = 0;
  for (auto [loop, size] : llvm::enumerate(tileSizes))
    if (size == 1)
      tiledDim[loop] = dims++;
  SmallVector<int64_t> scanned = gathers.front().loops();
  SmallVector<int64_t> ivOfLoop(tileSizes.size(), -1);
  LoopLikeOpInterface outermostLoop = loops.front();
  Operation *outermost = outermostLoop.getOperation();
  Location loc = outermost->getLoc();
  rewriter.setInsertionPoint(outermost);
  SmallVector<Value> lbs, ubs, steps;
  for (auto [iv, loop] : llvm::enumerate(scanned)) {
    ivOfLoop[loop] = iv;
    int64_t d = tiledDim[loop];
    auto bound = [&](ArrayRef<OpFoldResult> all) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, all[d]);
    };
    lbs.push_back(bound(allLbs));
    ubs.push_back(bound(allUbs));
    steps.push_back(bound(allSteps));
  }
  bool firstOnly = llvm::none_of(gathers, [](const ReportingGather &gather) {
    GatherOp op = gather.op;
    return op.getMode() == GatherMode::check;
  });
  if (firstOnly)
    for (auto [lb, ub, step] : llvm::zip_equal(lbs, ubs, steps))
      ub = rewriter.createOrFold<arith::MinSIOp>(
          loc, ub, rewriter.createOrFold<arith::AddIOp>(loc, lb, step));
  Value allValid =
      arith::ConstantIntOp::create(rewriter, loc, rewriter.getI1Type(), 1);
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, ValueRange{allValid},
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        Value ok = args.front();
        for (const ReportingGather &gather : gathers) {
          GatherOp op = gather.op;
          SmallVector<Value> at;
          for (int64_t loop : gather.loopOfIndexDim)
            at.push_back(ivs[ivOfLoop[loop]]);
          ResolvedAt index = resolveAt(b, l, op, op.getIndices(), at);
          reportIndexError(
              b, l, op,
              arith::AndIOp::create(b, l, ok, negate(b, l, index.valid)),
              index);
          ok = arith::AndIOp::create(b, l, ok, index.valid);
        }
        return {ok};
      });
}

/// Computes the tiled consumer `tile` from the table rows its fused
/// one-index gathers read: when every index is valid (the common case) on
/// the slices themselves, views whose layout the compiler knows, else on
/// each slice or zeros. The gathers are gone afterwards. With `report`, the
/// tile calls the run-time hook for the indices that are errors.
static void computeFromRows(RewriterBase &rewriter, linalg::LinalgOp tile,
                            bool report) {
  rewriter.setInsertionPoint(tile);
  SmallVector<std::pair<OpOperand *, OneIndexGather>> rows;
  for (OpOperand *operand : tile.getDpsInputOperands()) {
    auto gather = operand->get().getDefiningOp<GatherOp>();
    if (!gather)
      continue;
    FailureOr<OneIndexGather> row = resolveOneIndex(rewriter, gather, report);
    if (succeeded(row))
      rows.emplace_back(operand, *row);
  }
  if (rows.empty())
    return;
  Location loc = tile.getLoc();
  Value allValid = rows.front().second.valid;
  for (auto &[operand, row] : llvm::drop_begin(rows))
    allValid = arith::AndIOp::create(rewriter, loc, allValid, row.valid);
  // A copy of the tile reading `inputs` for the gathered operands.
  auto cloneReading = [&](OpBuilder &b, Location l, bool allRowsValid) {
    IRMapping map;
    for (auto &[operand, row] : rows)
      map.map(operand->get(),
              allRowsValid ? row.slice(b, l) : row.sliceOrZeros(b, l));
    Operation *copy = b.clone(*tile.getOperation(), map);
    scf::YieldOp::create(b, l, copy->getResults());
  };
  auto ifOp = scf::IfOp::create(
      rewriter, loc, allValid,
      [&](OpBuilder &b, Location l) { cloneReading(b, l, true); },
      [&](OpBuilder &b, Location l) { cloneReading(b, l, false); });
  rewriter.replaceOp(tile, ifOp.getResults());
  for (auto &[operand, row] : rows)
    if (row.op->use_empty())
      rewriter.eraseOp(row.op);
}

LogicalResult
mlir::gather::fuseElementwiseConsumer(RewriterBase &rewriter,
                                      linalg::LinalgOp consumer,
                                      const GatherFusionOptions &options) {
  if (!consumer.hasPureTensorSemantics() || !linalg::isElementwise(consumer))
    return failure();
  // A destination that only gives the shape (convert-elementwise-to-linalg
  // makes the first operand the destination too) becomes a tensor.empty, so
  // that a gather there is read only as an input.
  rewriter.setInsertionPoint(consumer);
  for (OpOperand &init : consumer.getDpsInitsMutable()) {
    if (consumer.payloadUsesValueFromOperand(&init) ||
        !init.get().getDefiningOp<GatherOp>())
      continue;
    auto type = cast<RankedTensorType>(init.get().getType());
    Value empty = tensor::EmptyOp::create(
        rewriter, consumer.getLoc(),
        tensor::getMixedSizes(rewriter, consumer.getLoc(), init.get()),
        type.getElementType());
    rewriter.modifyOpInPlace(consumer, [&] { init.set(empty); });
  }
  SmallVector<int64_t> tileSizes = indexLoops(consumer);
  if (tileSizes.empty())
    return failure();
  // An empty result needs no loop (and upstream's tiling of a loop of
  // static size 0 crashes).
  if (llvm::is_contained(consumer.getStaticLoopRanges(), 0))
    return failure();

  scf::SCFTileAndFuseOptions fuseOptions;
  fuseOptions.tilingOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), tileSizes));
  // Threads for results worth them. The fused gathers that may report are
  // checked by a serial scan before the loop nest (reportFirstBadIndex),
  // serial or threaded; when the scan cannot follow them (a reporting
  // gather keeps its kernel in the loop, or the reporting gathers' indices
  // run along different loops: an outer product of two checked gathers,
  // whose scan would be as long as the loop), each tile reports its own
  // and the loop stays serial, so the first report is the first bad index.
  bool threads =
      options.parallel &&
      getStaticSizeInBytes(cast<ShapedType>(consumer->getResult(0).getType()))
              .value_or(0) >= options.parallelMinBytes;
  SmallVector<ReportingGather> reporting;
  bool scanned = true;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    auto gather = operand->get().getDefiningOp<GatherOp>();
    if (!gather || !isFusableGather(gather, consumer) ||
        !reportsIndices(gather))
      continue;
    // indexLoops tiles each index dim's loop by one.
    FailureOr<SmallVector<int64_t>> loops =
        loopsOfIndexDims(gather, consumer.getMatchingIndexingMap(operand));
    if (!resolvesToSlices(gather) || failed(loops) ||
        llvm::is_contained(*loops, -1)) {
      scanned = false;
      break;
    }
    ReportingGather entry{gather, std::move(*loops)};
    if (!reporting.empty() && entry.loops() != reporting.front().loops()) {
      scanned = false;
      break;
    }
    // A gather read again through the same map reads the same ids.
    if (llvm::none_of(reporting, [&](const ReportingGather &seen) {
          return seen.op == entry.op &&
                 seen.loopOfIndexDim == entry.loopOfIndexDim;
        }))
      reporting.push_back(std::move(entry));
  }
  if (!scanned) {
    reporting.clear();
    threads = false;
  }
  if (threads)
    fuseOptions.tilingOptions.setLoopType(
        scf::SCFTilingOptions::LoopType::ForallOp);
  // Fuse the gathers that only this consumer reads; nothing else.
  fuseOptions.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!isFusableGather(producer.getOwner(), consumer))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });

  rewriter.setInsertionPoint(consumer);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(consumer.getOperation()),
          fuseOptions);
  if (failed(fused))
    return failure();
  // The scan of the reporting gathers that were fused (the others run
  // before the loop and report themselves).
  llvm::erase_if(reporting, [&](const ReportingGather &g) {
    return !fused->fusedProducers.contains(g.op);
  });
  if (!reporting.empty())
    reportFirstBadIndex(rewriter, fused->loops, tileSizes, reporting);
  for (OpResult result : consumer->getResults())
    rewriter.replaceAllUsesWith(result, fused->replacements.lookup(result));
  // The first of tiledAndFusedOps is the tiled consumer.
  computeFromRows(rewriter,
                  cast<linalg::LinalgOp>(fused->tiledAndFusedOps.front()),
                  /*report=*/!scanned);
  rewriter.eraseOp(consumer);
  return success();
}

namespace {
struct GatherFuseElementwisePass
    : gather::impl::GatherFuseElementwiseBase<GatherFuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> consumers;
    getOperation()->walk([&](linalg::LinalgOp op) { consumers.push_back(op); });
    GatherFusionOptions options{parallel, parallelMinBytes};
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (linalg::LinalgOp consumer : consumers)
      changed |=
          succeeded(fuseElementwiseConsumer(rewriter, consumer, options));
    // The fused gathers, whole, and the slices of them that fusion replaced.
    if (changed)
      (void)simplifyRegions(rewriter, getOperation()->getRegions());
  }
};
} // namespace
