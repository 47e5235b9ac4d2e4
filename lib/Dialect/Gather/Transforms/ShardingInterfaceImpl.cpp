//===- ShardingInterfaceImpl.cpp - ShardingInterface for the gather ops ---===//
//
// Upstream's sharding rules (sharding-propagation, shard-partition) read an
// op as a loop nest with an affine map per operand and result. A gather is
// one: its loops are the result's dims (parallel), then one loop per data
// dim that an index selects along, then one loop per operand dim that no
// result dim covers and that must stay whole (gather_nd's index tuple, an
// embedding bag's ids and offsets, a quantized row's bytes). A gathered
// loop is a reduction of kind sum, as in XLA's and Shardy's gather rules: a
// gather is a sum over the table's rows of row * (id == row), so a table
// split along that dim gives each process a partial result in which only the
// rows it holds are nonzero, and an all-reduce sums them.
//
// Partitioning therefore keeps every split that passes through (result dims
// that come from indices or from data dims not gathered along: the op runs
// on its local operands unchanged) and turns a split along a gathered dim
// into:
//   1. the ids, normalized against the WHOLE dim as the op's mode says
//      (check reports an id out of range through the index hook on every
//      process; clamp and wrap act on the global id) and shifted by the
//      shard's offset; an id of
//      another shard becomes the local dim's size, which no shard holds;
//   2. the op on its local table in `fill` mode, so those ids give zeros;
//   3. a shard.all_reduce (sum) over the grid axes of the split; partial
//      results of a type that MPI has no datatype for (f16, bf16, i1) are
//      all-reduced as integers (see allReduceGathered).
// Mean and max bags over split rows, and bags of f16 or bf16 tables, reduce
// on a table of the rows their ids read (see
// EmbeddingBagSharding::partitionReduced). Splits that the model
// cannot express get a diagnostic, never a wrong partition: uneven splits,
// halos, the whole loops above, bags with offsets split along bags, and
// quantized tables' rows split under mean or max.
//
// The scatters read their gather's nest backwards (getScatterNest,
// ScatterSharding): a dest split by rows applies the updates that land in
// its rows, and updates split along index positions are gathered whole.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/ShardingInterfaceImpl.h"

#include "gather-c/Runtime.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"
#include "gather/Dialect/Gather/Utils/MPIDatatypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace mlir::gather;
using shard::GridAxis;
using shard::Sharding;
using shard::ShardingArray;

namespace {

/// An op as upstream's sharding rules read it (see the file comment).
struct LoopNest {
  SmallVector<utils::IteratorType> types;
  /// One map per operand, then the result's.
  SmallVector<AffineMap> maps;
  /// The gathered loops, in the order of the data dims they are, and the
  /// static size of each of those dims.
  SmallVector<int64_t> gatheredLoops, gatheredSizes;
  /// Loops that must stay whole, and what each is, for diagnostics.
  SmallVector<std::pair<int64_t, StringRef>> wholeLoops;

  int64_t addLoop(utils::IteratorType type) {
    types.push_back(type);
    return types.size() - 1;
  }
  int64_t addWholeLoop(StringRef what) {
    int64_t loop = addLoop(utils::IteratorType::reduction);
    wholeLoops.push_back({loop, what});
    return loop;
  }
  void addMap(MLIRContext *ctx, ArrayRef<int64_t> loops) {
    maps.push_back(AffineMap::get(
        0, 0,
        llvm::map_to_vector(
            loops, [&](int64_t l) { return getAffineDimExpr(l, ctx); }),
        ctx));
  }
  /// Sets every map's dim count to the final loop count.
  void finish() {
    for (AffineMap &map : maps)
      map = AffineMap::get(types.size(), 0, map.getResults(), map.getContext());
  }
};

/// One data dim split along a gathered loop: its whole size, and, per
/// process, the offset and size of the shard it holds.
struct SplitDim {
  int64_t loop;
  SmallVector<GridAxis> axes;
  int64_t size;
  int64_t count;
};

/// The loop nest of a ranked gather op: result dims, one gathered loop per
/// index component, gather_nd's tuple dim.
static std::optional<LoopNest> buildGatherNest(MLIRContext *ctx,
                                               FailureOr<GatherShape> shape,
                                               Type data, Type indices,
                                               bool hasTupleDim) {
  auto dataType = dyn_cast<RankedTensorType>(data);
  auto indicesType = dyn_cast<RankedTensorType>(indices);
  if (failed(shape) || !shape->ranked || !dataType || !indicesType)
    return std::nullopt;
  LoopNest nest;
  int64_t resultRank = shape->dims.size();
  nest.types.assign(resultRank, utils::IteratorType::parallel);
  SmallVector<int64_t> dataLoops(dataType.getRank(), -1);
  SmallVector<int64_t> indicesLoops(indicesType.getRank(), -1);
  for (int64_t c = 0; c < shape->tupleSize; ++c) {
    int64_t loop = nest.addLoop(utils::IteratorType::reduction);
    nest.gatheredLoops.push_back(loop);
    nest.gatheredSizes.push_back(dataType.getDimSize(shape->indexedDim(c)));
    dataLoops[shape->indexedDim(c)] = loop;
  }
  if (hasTupleDim)
    indicesLoops.back() = nest.addWholeLoop("the index tuple dim");
  for (auto [r, src] : llvm::enumerate(shape->dims)) {
    if (src.readDataDim >= 0 && dataLoops[src.readDataDim] < 0)
      dataLoops[src.readDataDim] = r;
    if (src.indicesDim >= 0)
      indicesLoops[src.indicesDim] = r;
  }
  if (llvm::is_contained(dataLoops, -1) || llvm::is_contained(indicesLoops, -1))
    return std::nullopt;
  nest.addMap(ctx, dataLoops);
  nest.addMap(ctx, indicesLoops);
  nest.addMap(ctx, llvm::to_vector(llvm::seq<int64_t>(0, resultRank)));
  nest.finish();
  return nest;
}

static std::optional<LoopNest> getGatherNest(Operation *op) {
  auto gatherOp = cast<GatherOpInterface>(op);
  return buildGatherNest(op->getContext(), gatherOp.getGatherShape(),
                         gatherOp.getData().getType(),
                         gatherOp.getIndices().getType(), isa<GatherNDOp>(op));
}

/// The loop nest of a ranked scatter: its gather's, read backwards. The
/// operands are dest (the gather's data), indices and updates (the gather's
/// result), and the result is dest's. The loops of index positions (the
/// updates' dims that dest does not have) are reductions: their updates
/// land on any row. The loops of the dest dims that indices select along
/// are parallel: a process that holds some of those rows applies the
/// updates that land in them.
static std::optional<LoopNest> getScatterNest(Operation *op) {
  auto scatterOp = cast<ScatterOpInterface>(op);
  FailureOr<GatherShape> shape = scatterOp.getGatherShape();
  std::optional<LoopNest> nest =
      buildGatherNest(op->getContext(), shape, scatterOp.getDest().getType(),
                      scatterOp.getIndices().getType(), isa<ScatterNDOp>(op));
  if (!nest)
    return std::nullopt;
  for (auto [loop, src] : llvm::enumerate(shape->dims))
    if (src.walksIndexPositions())
      nest->types[loop] = utils::IteratorType::reduction;
  for (int64_t loop : nest->gatheredLoops)
    nest->types[loop] = utils::IteratorType::parallel;
  AffineMap dest = nest->maps[0];
  nest->maps.push_back(dest);
  return nest;
}

/// The loop nest of an embedding bag: bags, dim, the table's rows
/// (gathered), and whole loops for ids, offsets and quantized rows.
static std::optional<LoopNest> getBagNest(Operation *op) {
  auto bagOp = cast<EmbeddingBagOp>(op);
  auto weightType = dyn_cast<RankedTensorType>(bagOp.getWeight().getType());
  auto idsType = dyn_cast<RankedTensorType>(bagOp.getIds().getType());
  if (!weightType || !idsType ||
      !isa<RankedTensorType>(bagOp.getResult().getType()))
    return std::nullopt;
  MLIRContext *ctx = op->getContext();
  LoopNest nest;
  nest.types.assign(2, utils::IteratorType::parallel);
  int64_t rows = nest.addLoop(utils::IteratorType::reduction);
  nest.gatheredLoops.push_back(rows);
  nest.gatheredSizes.push_back(weightType.getDimSize(0));
  bool quantized = bagOp.getRowwiseBits() || bagOp.getScales();
  nest.addMap(ctx, {rows, quantized ? nest.addWholeLoop("a quantized row's "
                                                        "bytes")
                                    : 1});
  int64_t ids = nest.addWholeLoop("the ids of a bag");
  SmallVector<int64_t> idsLoops = idsType.getRank() == 2
                                      ? SmallVector<int64_t>{0, ids}
                                      : SmallVector<int64_t>{ids};
  nest.addMap(ctx, idsLoops);
  if (bagOp.getOffsets())
    nest.addMap(ctx, {nest.addWholeLoop("the offsets")});
  if (bagOp.getPerSampleWeights())
    nest.addMap(ctx, idsLoops);
  if (bagOp.getScales())
    nest.addMap(ctx, {rows, nest.addWholeLoop("the scales' blocks")});
  if (bagOp.getZeroPoints())
    nest.addMap(ctx, {rows, nest.addWholeLoop("the zero points' bytes")});
  nest.addMap(ctx, {0, 1});
  nest.finish();
  return nest;
}

/// A value of the op as a diagnostic names it.
static std::string describeValue(Operation *op, size_t index) {
  if (index < op->getNumOperands())
    return "operand #" + std::to_string(index);
  return "the result";
}

/// Checks that the annotations around the op split each of its loops one
/// way, over one grid, and use a grid axis for one loop at most. LLVM 22's
/// shard-partition crashes on annotations that do not (a result split
/// where the ids it comes from are not, one grid axis on a gathered dim and
/// a result dim): such a change of sharding is a reshard, which a second
/// annotation after the op's own expresses.
static LogicalResult checkAgreement(Operation *op, const LoopNest &nest,
                                    ArrayRef<Sharding> operandShardings,
                                    ArrayRef<Sharding> resultShardings) {
  SmallVector<Sharding, 4> all(operandShardings);
  llvm::append_range(all, resultShardings);
  FlatSymbolRefAttr gridName;
  // Per loop: its grid axes, and the value and dim that first gave them.
  SmallVector<std::optional<SmallVector<GridAxis>>> loopAxes(nest.types.size());
  SmallVector<std::pair<size_t, int64_t>> firstSeen(nest.types.size());
  for (auto [i, pair] : llvm::enumerate(llvm::zip(all, nest.maps))) {
    auto [sharding, map] = pair;
    if (!sharding)
      continue;
    if (gridName && sharding.getGridAttr() != gridName)
      return op->emitOpError("has shardings on two grids, @")
             << gridName.getValue() << " and @" << sharding.getGrid();
    gridName = sharding.getGridAttr();
    ArrayRef<shard::GridAxesAttr> split = sharding.getSplitAxes();
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      SmallVector<GridAxis> axes;
      if (d < split.size())
        axes = llvm::to_vector(split[d].asArrayRef());
      unsigned loop = cast<AffineDimExpr>(expr).getPosition();
      if (!loopAxes[loop]) {
        loopAxes[loop] = axes;
        firstSeen[loop] = {i, d};
        continue;
      }
      if (*loopAxes[loop] == axes)
        continue;
      auto [first, firstDim] = firstSeen[loop];
      InFlightDiagnostic diag =
          op->emitOpError("has shardings that disagree: ");
      diag << describeValue(op, first) << " dim " << firstDim
           << " is split over grid axes [";
      llvm::interleaveComma(*loopAxes[loop], diag);
      diag << "], but " << describeValue(op, i) << " dim " << d
           << ", which the op pairs with it, over [";
      llvm::interleaveComma(axes, diag);
      diag << "] (annotate the op's operands and result alike, and reshard "
              "with another annotation)";
      return diag;
    }
  }
  llvm::SmallDenseMap<GridAxis, unsigned> axisLoop;
  for (auto [loop, axes] : llvm::enumerate(loopAxes)) {
    if (!axes)
      continue;
    for (GridAxis axis : *axes) {
      auto [it, inserted] = axisLoop.try_emplace(axis, loop);
      if (inserted)
        continue;
      auto [first, firstDim] = firstSeen[it->second];
      auto [second, secondDim] = firstSeen[loop];
      return op->emitOpError("splits ")
             << describeValue(op, first) << " dim " << firstDim << " and "
             << describeValue(op, second) << " dim " << secondDim
             << ", which the op does not pair, over the same grid axis "
             << axis;
    }
  }
  return success();
}

/// Checks that the op's shardings are ones the partition below handles and
/// returns the grid axes each loop is split along; `grid` is their grid.
static FailureOr<ShardingArray> getSplits(Operation *op, const LoopNest &nest,
                                          ArrayRef<Sharding> operandShardings,
                                          ArrayRef<Sharding> resultShardings,
                                          SymbolTableCollection &symbolTable,
                                          shard::GridOp &grid) {
  SmallVector<Sharding, 4> all(operandShardings);
  llvm::append_range(all, resultShardings);
  for (auto [i, sharding] : llvm::enumerate(all)) {
    if (!sharding)
      continue;
    if (!sharding.getStaticHaloSizes().empty() ||
        !sharding.getDynamicHaloSizes().empty() ||
        !sharding.getStaticShardedDimsOffsets().empty() ||
        !sharding.getDynamicShardedDimsOffsets().empty())
      return op->emitOpError(
          "is partitioned over even splits only (no halo sizes or sharded "
          "dims offsets)");
    grid = shard::getGridOrNull(op, sharding.getGridAttr(), symbolTable);
    if (!grid)
      return op->emitOpError("has a sharding on an unknown grid @")
             << sharding.getGrid();
    Value value = i < op->getNumOperands()
                      ? op->getOperand(i)
                      : op->getResult(i - op->getNumOperands());
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      continue;
    for (auto [d, axes] : llvm::enumerate(sharding.getSplitAxes())) {
      if (axes.empty() || d >= static_cast<size_t>(type.getRank()) ||
          type.isDynamicDim(d))
        continue;
      int64_t shards =
          shard::collectiveProcessGroupSize(axes.asArrayRef(), grid);
      if (ShapedType::isDynamic(shards))
        return op->emitOpError("is split over a grid axis of dynamic size");
      if (type.getDimSize(d) % shards != 0)
        return op->emitOpError("dim ")
               << d << " of size " << type.getDimSize(d) << " of "
               << (i < op->getNumOperands() ? "operand #" : "result #")
               << (i < op->getNumOperands() ? i : i - op->getNumOperands())
               << " does not split evenly into " << shards << " shards";
    }
  }
  // The grid axes each loop is split along, from every operand's and the
  // result's sharding (upstream's getGridAxisAssignmentForLoopIterators reads
  // the operands' only, so it misses a split that only the result has, such
  // as a bag's). Every map is a projected permutation.
  ShardingArray splits(nest.types.size());
  for (auto [sharding, map] : llvm::zip_equal(all, nest.maps)) {
    if (!sharding)
      continue;
    for (auto [axes, expr] :
         llvm::zip(sharding.getSplitAxes(), map.getResults()))
      if (!axes.empty())
        splits[cast<AffineDimExpr>(expr).getPosition()] =
            llvm::to_vector(axes.asArrayRef());
  }
  for (auto [loop, what] : nest.wholeLoops)
    if (!splits[loop].empty())
      return op->emitOpError("cannot be partitioned along ")
             << what << ", which must stay whole on every process";
  return splits;
}

/// The data dims split along gathered loops: each must be static.
static FailureOr<SmallVector<SplitDim>>
getGatheredSplits(Operation *op, const LoopNest &nest,
                  const ShardingArray &splits, shard::GridOp grid) {
  SmallVector<SplitDim> result;
  for (auto [loop, size] :
       llvm::zip_equal(nest.gatheredLoops, nest.gatheredSizes)) {
    if (splits[loop].empty())
      continue;
    if (ShapedType::isDynamic(size) || size == 0)
      return op->emitOpError("can split a dim that ids select along only "
                             "when its size is static and not zero");
    int64_t shards = shard::collectiveProcessGroupSize(splits[loop], grid);
    result.push_back({loop, splits[loop], size, size / shards});
  }
  return result;
}

/// Where each index component reads: its whole size, and the offset and
/// size of this process's shard (the whole dim, at 0, when not split).
struct IdSpace {
  Value size, offset, count;
  /// The static size (kDynamic when not known).
  int64_t staticSize;
  /// The data dim the ids select along, for the error hook.
  int64_t dataDim = 0;
};

/// The rows of a bag table gathered on each process (a mean or max bag, or a
/// bag of an f16 or bf16 table, whose table's rows are split, see
/// EmbeddingBagSharding::partitionReduced): row 0 is zeros and the local
/// bag's padding_idx, row 1 zeros (sum, mean) or the lowest value (max, for
/// ids of another shard), row 2 + j the row id j reads on this process
/// (zeros when another shard holds it).
struct BagRows {
  static constexpr int64_t kPadding = 0, kOtherShard = 1, kFirst = 2;
  bool max;
  /// The ids' dim 1 for 2-D ids (positions are row-major), else null.
  Value bagLength;
};

/// The ids of this process's shard (see the file comment): an i64 tensor of
/// the ids' shape, with the index rules of IndexArithmetic applied against
/// each component's whole dim. `tupleDim` is the dim of `ids` that selects
/// the component (gather_nd), `padding` a normalized id to treat as another
/// shard's (an embedding bag's padding_idx, which sums nothing). With
/// `bagRows`, a second i64 tensor of the ids' shape: the row of the gathered
/// bag table each id reads.
static SmallVector<Value>
buildLocalIds(ImplicitLocOpBuilder &b, Value ids, GatherMode mode,
              ArrayRef<IdSpace> spaces, std::optional<int64_t> tupleDim,
              Value padding, Operation *op, const BagRows *bagRows = nullptr) {
  auto type = cast<RankedTensorType>(ids.getType());
  Value init = tensor::EmptyOp::create(
      b, tensor::getMixedSizes(b, b.getLoc(), ids), b.getI64Type());
  SmallVector<Value> inits(bagRows ? 2 : 1, init);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  // An empty dim has no valid index (static sizes of 0 are rejected before:
  // only a dim that is not split can be empty).
  bool mayBeEmpty = llvm::any_of(spaces, [](const IdSpace &s) {
    return ShapedType::isDynamic(s.staticSize) || s.staticSize == 0;
  });
  // Bad ids go to the index hook, as the kernels' do: the message names the
  // id and the range, and a host that defines the hook decides what
  // follows (the default prints and exits). The local ids stay in bounds
  // when it returns: an id outside the whole dim is in no shard.
  bool reports =
      mode == GatherMode::check ||
      (mayBeEmpty && (mode == GatherMode::clamp || mode == GatherMode::wrap));
  auto generic = linalg::GenericOp::create(
      b, TypeRange(ValueRange(inits)), ValueRange{ids}, inits,
      SmallVector<AffineMap>(1 + inits.size(), identity),
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        ImplicitLocOpBuilder e(loc, nested);
        Value component;
        if (tupleDim)
          component = linalg::IndexOp::create(e, *tupleDim);
        // The component's value of one IdSpace field.
        auto pick = [&](function_ref<Value(const IdSpace &)> field) {
          Value picked = indexValueToI64(e, loc, field(spaces.back()));
          for (int64_t c = spaces.size() - 2; c >= 0; --c) {
            Value isC =
                arith::CmpIOp::create(e, arith::CmpIPredicate::eq, component,
                                      arith::ConstantIndexOp::create(e, c));
            picked = arith::SelectOp::create(
                e, isC, indexValueToI64(e, loc, field(spaces[c])), picked);
          }
          return picked;
        };
        Value size = pick([](const IdSpace &s) { return s.size; }),
              offset = pick([](const IdSpace &s) { return s.offset; }),
              count = pick([](const IdSpace &s) { return s.count; });
        Value id = indexValueToI64(e, loc, args[0]);
        Value empty =
            arith::CmpIOp::create(e, arith::CmpIPredicate::eq, size,
                                  arith::ConstantIntOp::create(e, 0, 64));
        // wrap and clamp resolve against a size of at least 1: an empty
        // dim is reported, and reads nothing.
        Value resolveSize = size;
        if (mayBeEmpty && mode != GatherMode::check)
          resolveSize = arith::SelectOp::create(
              e, empty, arith::ConstantIntOp::create(e, 1, 64), size);
        ResolvedIndex global = resolveIndex(e, loc, mode, id, resolveSize);
        if (reports) {
          Value bad = mode == GatherMode::check
                          ? arith::XOrIOp::create(
                                e, isIndexInRange(e, loc, global.index, size),
                                arith::ConstantIntOp::create(e, 1, 1))
                                .getResult()
                          : empty;
          Value dataDim = pick([&](const IdSpace &s) -> Value {
            return arith::ConstantIntOp::create(e, s.dataDim, 64);
          });
          auto report = scf::IfOp::create(e, bad);
          OpBuilder::InsertionGuard guard(e);
          e.setInsertionPoint(report.thenBlock()->getTerminator());
          emitIndexError(e, loc, op, dataDim, id, size);
        }
        // In this shard: 0 <= global - offset < count (and, for fill, in
        // range of the whole dim). No overflow: global >= INT64_MIN + size.
        Value local = arith::SubIOp::create(e, global.index, offset);
        Value held = isIndexInRange(e, loc, local, count);
        Value inShard = held;
        if (global.valid)
          inShard = arith::AndIOp::create(e, inShard, global.valid);
        // Padding is a row in range equal to padding_idx.
        Value isPadding;
        if (padding && !bagRows)
          inShard = arith::AndIOp::create(
              e, inShard,
              arith::CmpIOp::create(e, arith::CmpIPredicate::ne, global.index,
                                    padding));
        if (padding && bagRows) {
          isPadding = arith::CmpIOp::create(e, arith::CmpIPredicate::eq,
                                            global.index, padding);
          if (global.valid)
            isPadding = arith::AndIOp::create(e, isPadding, global.valid);
        }
        SmallVector<Value> yields{
            arith::SelectOp::create(e, inShard, local, count)};
        if (bagRows) {
          auto i64 = [&](int64_t v) {
            return arith::ConstantIntOp::create(e, v, 64).getResult();
          };
          auto position = [&](int64_t d) {
            return indexValueToI64(e, loc, linalg::IndexOp::create(e, d));
          };
          Value row = position(0);
          if (bagRows->bagLength)
            row = arith::AddIOp::create(
                e,
                arith::MulIOp::create(
                    e, row, indexValueToI64(e, loc, bagRows->bagLength)),
                position(1));
          row = arith::AddIOp::create(e, row, i64(BagRows::kFirst));
          // A max bag's id of a row in range that another shard holds
          // reads the lowest value; an id out of range (fill) reads its
          // own zero row, which takes part on every process.
          if (bagRows->max) {
            Value elsewhere = arith::XOrIOp::create(
                e, held, arith::ConstantIntOp::create(e, 1, 1));
            if (global.valid)
              elsewhere = arith::AndIOp::create(e, elsewhere, global.valid);
            row = arith::SelectOp::create(e, elsewhere,
                                          i64(BagRows::kOtherShard), row);
          }
          if (isPadding)
            row = arith::SelectOp::create(e, isPadding, i64(BagRows::kPadding),
                                          row);
          yields.push_back(row);
        }
        linalg::YieldOp::create(e, yields);
      });
  return SmallVector<Value>(generic.getResults());
}

/// The id space of a split data dim: its whole size, and this process's
/// offset (process index along the split's axes * rows per shard) and count.
static IdSpace getSplitSpace(ImplicitLocOpBuilder &b, shard::GridOp grid,
                             const SplitDim &split) {
  Value process =
      shard::createProcessLinearIndex(grid.getSymName(), split.axes, b);
  Value count = arith::ConstantIndexOp::create(b, split.count);
  return {arith::ConstantIndexOp::create(b, split.size),
          arith::MulIOp::create(b, process, count), count, split.size};
}

/// The local op on `operands`, with the result type of its sharding (of
/// element type `element` when given).
static Value buildLocal(ImplicitLocOpBuilder &b, Operation *op,
                        ArrayRef<Value> operands, Sharding resultSharding,
                        shard::GridOp grid,
                        function_ref<void(Operation *)> adjust,
                        Type element = {}) {
  auto resultType = cast<RankedTensorType>(
      shard::shardType(op->getResult(0).getType(), grid, resultSharding));
  if (element)
    resultType = resultType.clone(element);
  Operation *local = mlir::clone(b, op, {resultType}, operands);
  adjust(local);
  return local->getResult(0);
}

/// The grid axes a partial result is reduced over: those of every split.
static SmallVector<GridAxis> getReducedAxes(ArrayRef<SplitDim> splits) {
  SmallVector<GridAxis> axes;
  for (const SplitDim &split : splits)
    llvm::append_range(axes, split.axes);
  return axes;
}

/// The integer type with an MPI datatype that holds the bits of `element`
/// (a signless integer or a float of at most 64 bits), or null.
static IntegerType getBitsCarrier(Type element) {
  auto integer = dyn_cast<IntegerType>(element);
  if ((integer && !integer.isSignless()) ||
      !isa<IntegerType, FloatType>(element))
    return {};
  unsigned width = element.getIntOrFloatBitWidth();
  for (unsigned carrier : {8u, 16u, 32u, 64u})
    if (width <= carrier)
      return IntegerType::get(element.getContext(), carrier);
  return {};
}

/// Whether a gather's partial results of element type `element` can be
/// all-reduced (see allReduceGathered).
static bool canAllReduceGathered(Type element) {
  return hasMPIDatatype(element) || getBitsCarrier(element);
}

/// `value`'s bits as the integer type that carries them (getBitsCarrier,
/// which must exist).
static Value toBits(ImplicitLocOpBuilder &b, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  auto bits = IntegerType::get(b.getContext(), element.getIntOrFloatBitWidth());
  if (isa<FloatType>(element))
    value = arith::BitcastOp::create(b, type.clone(bits), value);
  IntegerType carrier = getBitsCarrier(element);
  if (bits != carrier)
    value = arith::ExtUIOp::create(b, type.clone(carrier), value);
  return value;
}
/// toBits' carrier `value` back as elements of `type`.
static Value fromBits(ImplicitLocOpBuilder &b, Value value,
                      RankedTensorType type) {
  Type element = type.getElementType();
  auto bits = IntegerType::get(b.getContext(), element.getIntOrFloatBitWidth());
  if (bits != getElementTypeOrSelf(value.getType()))
    value = arith::TruncIOp::create(b, type.clone(bits), value);
  if (isa<FloatType>(element))
    value = arith::BitcastOp::create(b, type, value);
  return value;
}

/// The bitwise or of `value`'s bits over `axes`: exact whenever at most one
/// process holds nonzero bits in each element.
static Value allReduceBits(ImplicitLocOpBuilder &b, Value value,
                           shard::GridOp grid, ArrayRef<GridAxis> axes) {
  auto type = cast<RankedTensorType>(value.getType());
  Value reduced =
      shard::AllReduceOp::create(b, toBits(b, value), grid.getSymName(), axes,
                                 shard::ReductionKind::BitwiseOr);
  return fromBits(b, reduced, type);
}

/// Sums a gather's partial results over `axes`. At most one process holds
/// a nonzero value of each element, so the bits of an element type that MPI
/// has no datatype for (f16, bf16, i1, ...) combine exactly as those of an
/// integer, with a bitwise or.
static Value allReduceGathered(ImplicitLocOpBuilder &b, Value partial,
                               shard::GridOp grid, ArrayRef<GridAxis> axes) {
  if (hasMPIDatatype(getElementTypeOrSelf(partial.getType())))
    return shard::AllReduceOp::create(b, partial, grid.getSymName(), axes,
                                      shard::ReductionKind::Sum);
  return allReduceBits(b, partial, grid, axes);
}

/// `local`, this process's shard along `dim` of a value split over `axes`,
/// gathered whole on every process in process order: placed at its offset
/// in zeros and combined with a bitwise or of its bits, which is exact for
/// every element type that has a carrier (getBitsCarrier). LLVM 22's
/// convert-shard-to-mpi lowers no shard.all_gather.
static FailureOr<Value> allGatherExact(ImplicitLocOpBuilder &b, Operation *op,
                                       Value local, int64_t dim,
                                       shard::GridOp grid,
                                       ArrayRef<GridAxis> axes) {
  auto type = cast<RankedTensorType>(local.getType());
  IntegerType carrier = getBitsCarrier(type.getElementType());
  if (!carrier)
    return op->emitOpError("cannot gather operands of element type ")
           << type.getElementType()
           << " across processes (MPI carries integers and floats of up to "
              "64 bits)";
  Value value = toBits(b, local);
  int64_t shards = shard::collectiveProcessGroupSize(axes, grid);
  Value process = shard::createProcessLinearIndex(grid.getSymName(), axes, b);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, b.getLoc(), value);
  SmallVector<OpFoldResult> offsets(sizes.size(), b.getIndexAttr(0));
  Value count = getValueOrCreateConstantIndexOp(b, b.getLoc(), sizes[dim]);
  offsets[dim] = arith::MulIOp::create(b, process, count).getResult();
  if (type.isDynamicDim(dim))
    sizes[dim] = arith::MulIOp::create(
                     b, count, arith::ConstantIndexOp::create(b, shards))
                     .getResult();
  else
    sizes[dim] = b.getIndexAttr(type.getDimSize(dim) * shards);
  Value zeros = linalg::FillOp::create(
                    b, ValueRange{arith::ConstantIntOp::create(b, carrier, 0)},
                    ValueRange{tensor::EmptyOp::create(b, sizes, carrier)})
                    .getResult(0);
  SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
  Value placed = tensor::InsertSliceOp::create(
      b, value, zeros, offsets, tensor::getMixedSizes(b, b.getLoc(), value),
      strides);
  SmallVector<int64_t> wholeShape(type.getShape());
  if (!type.isDynamicDim(dim))
    wholeShape[dim] *= shards;
  Value whole = shard::AllReduceOp::create(b, placed, grid.getSymName(), axes,
                                           shard::ReductionKind::BitwiseOr);
  return fromBits(b, whole,
                  RankedTensorType::get(wholeShape, type.getElementType()));
}

/// The checks every model's partition starts with (ranked operands, every
/// operand resharded, annotations that agree, even splits): the grid axes
/// each loop is split along, and their `grid`.
static FailureOr<ShardingArray>
getCheckedSplits(Operation *op, const std::optional<LoopNest> &nest,
                 ArrayRef<Value> partitionedOperands,
                 ArrayRef<Sharding> operandShardings,
                 ArrayRef<Sharding> resultShardings,
                 SymbolTableCollection &symbolTable, shard::GridOp &grid) {
  if (!nest)
    return op->emitOpError("is partitioned only with ranked operands");
  // Upstream's shard-partition hands over no value for an operand it could
  // not reshard (an uneven split with sharded_dims_offsets in LLVM 22, whose
  // offsets it also drops from the sharding it passes).
  if (llvm::is_contained(partitionedOperands, Value()))
    return op->emitOpError(
        "has an operand that shard-partition could not reshard; it is "
        "partitioned over even splits only (no halo sizes or sharded "
        "dims offsets)");
  if (failed(checkAgreement(op, *nest, operandShardings, resultShardings)))
    return failure();
  return getSplits(op, *nest, operandShardings, resultShardings, symbolTable,
                   grid);
}

/// The id space of each index component of a gather or scatter whose
/// `data` (its table, or dest) is split along the gathered loops `split`
/// (the whole dim where a component's is not split).
static SmallVector<IdSpace>
getIdSpaces(ImplicitLocOpBuilder &b, shard::GridOp grid, const LoopNest &nest,
            ArrayRef<SplitDim> split, const GatherShape &shape, Value data) {
  SmallVector<IdSpace> spaces;
  Value zero = arith::ConstantIndexOp::create(b, 0);
  for (int64_t c = 0; c < shape.tupleSize; ++c) {
    int64_t loop = nest.gatheredLoops[c];
    const SplitDim *s = llvm::find_if(
        split, [&](const SplitDim &sd) { return sd.loop == loop; });
    if (s != split.end()) {
      spaces.push_back(getSplitSpace(b, grid, *s));
    } else {
      Value size = tensor::DimOp::create(b, data, shape.indexedDim(c));
      spaces.push_back({size, zero, size, nest.gatheredSizes[c]});
    }
    spaces.back().dataDim = shape.indexedDim(c);
  }
  return spaces;
}

/// gather_elements and scatter_elements read or write data off the axis at
/// the index's own position: a split there passes through only when data
/// and indices have the same static size.
static LogicalResult checkElementsSplits(Operation *op, Value data,
                                         Value indices, int64_t axis,
                                         const ShardingArray &splits) {
  auto dataType = cast<RankedTensorType>(data.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  for (int64_t d = 0; d < dataType.getRank(); ++d)
    if (d != axis && !splits[d].empty() &&
        (dataType.isDynamicDim(d) ||
         dataType.getDimSize(d) != indicesType.getDimSize(d)))
      return op->emitOpError("can split dim ")
             << d << " off the axis only where "
             << (isa<ScatterElementsOp>(op) ? "dest" : "data")
             << " and indices have the same static size";
  return success();
}

/// What the three gather ops' and the embedding bag's models share.
template <typename Model, typename OpTy>
struct GatherSharding : shard::ShardingInterface::ExternalModel<Model, OpTy> {
  static std::optional<LoopNest> nest(Operation *op) {
    return Model::getNest(op);
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    std::optional<LoopNest> n = nest(op);
    return n ? n->types : SmallVector<utils::IteratorType>{};
  }

  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    std::optional<LoopNest> n = nest(op);
    SmallVector<shard::ReductionKind> kinds;
    if (!n)
      return kinds;
    for (auto [loop, type] : llvm::enumerate(n->types))
      if (type == utils::IteratorType::reduction)
        kinds.push_back(llvm::is_contained(n->gatheredLoops, loop)
                            ? shard::ReductionKind::Sum
                            : shard::ReductionKind::Generic);
    return kinds;
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    std::optional<LoopNest> n = nest(op);
    return n ? n->maps : SmallVector<AffineMap>{};
  }

  /// Ops of unknown rank have no loop nest: nothing to infer from them.
  FailureOr<shard::ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    if (!nest(op))
      return shard::ShardingOption::makeEmpty();
    return shard::detail::defaultGetShardingOption(op, operandShardings,
                                                   resultShardings);
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    std::optional<LoopNest> n = nest(op);
    shard::GridOp grid;
    FailureOr<ShardingArray> splits =
        getCheckedSplits(op, n, partitionedOperands, operandShardings,
                         resultShardings, symbolTable, grid);
    if (failed(splits))
      return failure();
    if (failed(Model::checkSplits(cast<OpTy>(op), *splits)))
      return failure();
    if (!shard::isAtLeastOneReductionIteratorSharded(n->types, *splits)) {
      shard::partitionTriviallyShardableOperation(
          *op, partitionedOperands, operandShardings, resultShardings,
          partitionMap, symbolTable, builder);
      return success();
    }
    FailureOr<SmallVector<SplitDim>> split =
        getGatheredSplits(op, *n, *splits, grid);
    if (failed(split))
      return failure();
    ImplicitLocOpBuilder b(op->getLoc(), builder);
    FailureOr<Value> result = static_cast<const Model *>(this)->partitionRows(
        cast<OpTy>(op), b, *n, *split, grid, partitionedOperands,
        resultShardings[0]);
    if (failed(result))
      return failure();
    partitionMap.map(op->getResult(0), *result);
    return success();
  }
};

template <typename OpTy>
struct GatherOpSharding : GatherSharding<GatherOpSharding<OpTy>, OpTy> {
  static std::optional<LoopNest> getNest(Operation *op) {
    return getGatherNest(op);
  }

  /// gather_elements reads data off the axis at the index's own position: a
  /// split there passes through only when both have the same size.
  static LogicalResult checkSplits(OpTy op, const ShardingArray &splits) {
    if (!isa<GatherElementsOp>(op))
      return success();
    return checkElementsSplits(op, op.getData(), op.getIndices(),
                               op.getGatherShape()->axis, splits);
  }

  FailureOr<Value> partitionRows(OpTy op, ImplicitLocOpBuilder &b,
                                 const LoopNest &nest, ArrayRef<SplitDim> split,
                                 shard::GridOp grid, ArrayRef<Value> operands,
                                 Sharding resultSharding) const {
    Type element = getElementTypeOrSelf(op->getResult(0).getType());
    if (!canAllReduceGathered(element))
      return op.emitOpError("cannot sum partial results of element type ")
             << element
             << " across processes (MPI carries integers and floats of up "
                "to 64 bits)";
    GatherShape shape = *op.getGatherShape();
    SmallVector<IdSpace> spaces =
        getIdSpaces(b, grid, nest, split, shape, operands[0]);
    std::optional<int64_t> tupleDim;
    if (isa<GatherNDOp>(op))
      tupleDim =
          cast<RankedTensorType>(op.getIndices().getType()).getRank() - 1;
    Value ids = buildLocalIds(b, operands[1], op.getMode(), spaces, tupleDim,
                              Value(), op)[0];
    Value partial = buildLocal(
        b, op, {operands[0], ids}, resultSharding, grid,
        [](Operation *local) { cast<OpTy>(local).setMode(GatherMode::fill); });
    return allReduceGathered(b, partial, grid, getReducedAxes(split));
  }
};

/// The scatters (see getScatterNest). Partitioning keeps every split along
/// a parallel loop (the op runs on its local operands), and:
///   - updates and indices split along index positions are gathered whole
///     on every process first (allGatherExact), so each process applies
///     them in the sequential order and results stay bit-identical for
///     every reduction, floating-point `add` included;
///   - a dest split along a dim that indices select along gives each
///     process the updates that land in its rows: the ids are resolved
///     against the whole dim and shifted as for a gather (buildLocalIds),
///     and the local op runs in `fill` mode, which drops the others. No
///     communication: the result is split as dest is.
template <typename OpTy>
struct ScatterSharding : GatherSharding<ScatterSharding<OpTy>, OpTy> {
  static std::optional<LoopNest> getNest(Operation *op) {
    return getScatterNest(op);
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    std::optional<LoopNest> n = getNest(op);
    shard::GridOp grid;
    FailureOr<ShardingArray> splits =
        getCheckedSplits(op, n, partitionedOperands, operandShardings,
                         resultShardings, symbolTable, grid);
    if (failed(splits))
      return failure();
    auto scatterOp = cast<OpTy>(op);
    GatherShape shape = *scatterOp.getGatherShape();
    if (isa<ScatterElementsOp>(op) &&
        failed(checkElementsSplits(op, scatterOp.getDest(),
                                   scatterOp.getIndices(), shape.axis,
                                   *splits)))
      return failure();
    ImplicitLocOpBuilder b(op->getLoc(), builder);
    SmallVector<Value> operands(partitionedOperands);
    // Index positions split: each operand gathered whole along its own
    // split (one that is not annotated is whole already).
    auto splitOf = [&](unsigned operand, int64_t dim) -> ArrayRef<GridAxis> {
      const Sharding &sharding = operandShardings[operand];
      if (!sharding ||
          dim >= static_cast<int64_t>(sharding.getSplitAxes().size()))
        return {};
      return sharding.getSplitAxes()[dim].asArrayRef();
    };
    for (auto [loop, src] : llvm::enumerate(shape.dims)) {
      if (!src.walksIndexPositions())
        continue;
      for (auto [operand, dim] :
           {std::pair<unsigned, int64_t>{2, loop}, {1, src.indicesDim}}) {
        if (dim < 0 || splitOf(operand, dim).empty())
          continue;
        FailureOr<Value> whole = allGatherExact(b, op, operands[operand], dim,
                                                grid, splitOf(operand, dim));
        if (failed(whole))
          return failure();
        operands[operand] = *whole;
      }
    }
    FailureOr<SmallVector<SplitDim>> split =
        getGatheredSplits(op, *n, *splits, grid);
    if (failed(split))
      return failure();
    bool ownsRows = !split->empty();
    if (ownsRows) {
      SmallVector<IdSpace> spaces =
          getIdSpaces(b, grid, *n, *split, shape, operands[0]);
      std::optional<int64_t> tupleDim;
      if (isa<ScatterNDOp>(op))
        tupleDim = cast<RankedTensorType>(operands[1].getType()).getRank() - 1;
      operands[1] = buildLocalIds(b, operands[1], scatterOp.getMode(), spaces,
                                  tupleDim, Value(), op)[0];
    }
    Value local = buildLocal(b, op, operands, resultShardings[0], grid,
                             [&](Operation *local) {
                               if (ownsRows)
                                 cast<OpTy>(local).setMode(GatherMode::fill);
                             });
    partitionMap.map(op->getResult(0), local);
    return success();
  }
};

struct EmbeddingBagSharding
    : GatherSharding<EmbeddingBagSharding, EmbeddingBagOp> {
  static std::optional<LoopNest> getNest(Operation *op) {
    return getBagNest(op);
  }

  /// The result's dims pass through only where each process computes them
  /// from its own operands: bags of a 2-D ids tensor, dims of a float table.
  static LogicalResult checkSplits(EmbeddingBagOp op,
                                   const ShardingArray &splits) {
    if (!splits[0].empty() && op.getOffsets())
      return op.emitOpError("cannot split bags given by offsets across "
                            "processes (split the table, or give bags of "
                            "one length as 2-D ids)");
    if (!splits[1].empty() && (op.getRowwiseBits() || op.getScales()))
      return op.emitOpError("cannot split the dim of a quantized table "
                            "across processes (a row's values and scales "
                            "stay together)");
    return success();
  }

  FailureOr<Value> partitionRows(EmbeddingBagOp op, ImplicitLocOpBuilder &b,
                                 const LoopNest &nest, ArrayRef<SplitDim> split,
                                 shard::GridOp grid, ArrayRef<Value> operands,
                                 Sharding resultSharding) const {
    bool sum = op.getReduction() == BagReduction::sum;
    if (!sum && (op.getRowwiseBits() || op.getScales()))
      return op.emitOpError("can split a quantized table's rows across "
                            "processes only for sum bags");
    // MPI cannot sum partial bags of f16 or bf16: a float table's are
    // computed and all-reduced in f32, as the unsharded bag accumulates
    // (see partitionReduced).
    Type element = getElementTypeOrSelf(op.getResult().getType());
    bool quantized = op.getRowwiseBits() || op.getScales();
    bool widen = !hasMPIDatatype(element);
    if (widen && quantized)
      return op.emitOpError("can split a block-quantized table's rows across "
                            "processes only with f32 scales (MPI cannot sum "
                            "partial bags of ")
             << element << ")";
    if (widen &&
        (!isa<FloatType>(element) || element.getIntOrFloatBitWidth() >= 32))
      return op.emitOpError("cannot sum partial bags of element type ")
             << element << " across processes";
    int64_t rows = nest.gatheredSizes.front();
    IdSpace space = getSplitSpace(b, grid, split.front());
    // padding_idx names a row of the whole table; its ids sum nothing.
    Value padding;
    if (std::optional<int64_t> pad = op.getPaddingIdx())
      padding =
          arith::ConstantIntOp::create(b, *pad < 0 ? *pad + rows : *pad, 64);
    if (!sum || widen)
      return partitionReduced(op, b, split, grid, operands, resultSharding,
                              space, padding, widen);
    SmallVector<Value> local(operands);
    local[1] = buildLocalIds(b, operands[1], op.getMode(), {space},
                             std::nullopt, padding, op)[0];
    Value partial =
        buildLocal(b, op, local, resultSharding, grid, [](Operation *localOp) {
          auto bag = cast<EmbeddingBagOp>(localOp);
          bag.setMode(GatherMode::fill);
          bag.removePaddingIdxAttr();
        });
    return shard::AllReduceOp::create(b, partial, grid.getSymName(),
                                      getReducedAxes(split),
                                      shard::ReductionKind::Sum)
        .getResult();
  }

  /// A mean or max bag over split rows. A process cannot tell its rows'
  /// share of a mean, or skip another shard's ids in a max, on its table
  /// alone, so it gathers the rows its ids read (zeros for other shards'
  /// rows) after the BagRows rows, and reduces its bags on that table:
  /// mean divides each process's partial sum by the bag's whole count (the
  /// all-reduce sums them); max reads the lowest value for another shard's
  /// rows (the all-reduce takes the maximum). Each process reads only its
  /// rows; the all-reduce moves bags x dim values, as for sums. With
  /// `widen` (a table of f16 or bf16, which MPI cannot sum; sum bags too)
  /// the gathered rows and per_sample_weights are extended to f32, the
  /// partial bags computed and all-reduced in f32 and rounded once at the
  /// end, so each process accumulates as the unsharded bag does.
  FailureOr<Value>
  partitionReduced(EmbeddingBagOp op, ImplicitLocOpBuilder &b,
                   ArrayRef<SplitDim> split, shard::GridOp grid,
                   ArrayRef<Value> operands, Sharding resultSharding,
                   const IdSpace &space, Value padding, bool widen) const {
    bool max = op.getReduction() == BagReduction::max;
    Value ids = operands[1];
    auto idsType = cast<RankedTensorType>(ids.getType());
    BagRows bagRows{max, idsType.getRank() == 2
                             ? tensor::DimOp::create(b, ids, 1).getResult()
                             : Value()};
    SmallVector<Value> localIds = buildLocalIds(
        b, ids, op.getMode(), {space}, std::nullopt, padding, op, &bagRows);
    // The rows to gather: the BagRows rows (zeros: another shard's id),
    // then each id's local row.
    Value flat = localIds[0];
    if (idsType.getRank() == 2)
      flat = tensor::CollapseShapeOp::create(
          b, flat, SmallVector<ReassociationIndices>{{0, 1}});
    OpFoldResult count = tensor::getMixedSize(b, b.getLoc(), flat, 0);
    OpFoldResult rows = getAsOpFoldResult(b.createOrFold<arith::AddIOp>(
        getValueOrCreateConstantIndexOp(b, b.getLoc(), count),
        arith::ConstantIndexOp::create(b, BagRows::kFirst)));
    Value extended = tensor::EmptyOp::create(b, ArrayRef<OpFoldResult>{rows},
                                             b.getI64Type());
    extended = linalg::FillOp::create(
                   b, ValueRange{indexValueToI64(b, b.getLoc(), space.count)},
                   ValueRange{extended})
                   .getResult(0);
    extended = tensor::InsertSliceOp::create(
        b, flat, extended,
        ArrayRef<OpFoldResult>{sliceOffsetInto(
            b, b.getLoc(), b.getIndexAttr(BagRows::kFirst),
            cast<RankedTensorType>(extended.getType()).getDimSize(0))},
        ArrayRef<OpFoldResult>{count},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    Value table =
        GatherOp::create(b, operands[0], extended, 0, 0, GatherMode::fill);
    Type f32 = b.getF32Type();
    auto widened = [&](Value value) -> Value {
      return arith::ExtFOp::create(
          b, cast<RankedTensorType>(value.getType()).clone(f32), value);
    };
    if (widen)
      table = widened(table);
    if (max) {
      auto tableType = cast<RankedTensorType>(table.getType());
      auto element = cast<FloatType>(tableType.getElementType());
      Value lowest = arith::ConstantOp::create(
          b,
          b.getFloatAttr(element, APFloat::getInf(element.getFloatSemantics(),
                                                  /*Negative=*/true)));
      OpFoldResult dim = tensor::getMixedSize(b, b.getLoc(), table, 1);
      Value row =
          linalg::FillOp::create(
              b, ValueRange{lowest},
              ValueRange{tensor::EmptyOp::create(
                  b, ArrayRef<OpFoldResult>{b.getIndexAttr(1), dim}, element)})
              .getResult(0);
      OpFoldResult column = sliceOffsetInto(b, b.getLoc(), b.getIndexAttr(0),
                                            tableType.getDimSize(1));
      table = tensor::InsertSliceOp::create(
          b, row, table,
          ArrayRef<OpFoldResult>{b.getIndexAttr(BagRows::kOtherShard), column},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), dim},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    }
    SmallVector<Value> local(operands);
    local[0] = table;
    local[1] = localIds[1];
    if (widen && op.getPerSampleWeights()) {
      unsigned weights = op.getPerSampleWeightsMutable()[0].getOperandNumber();
      local[weights] = widened(local[weights]);
    }
    GatherMode mode = op.getMode();
    Value partial = buildLocal(
        b, op, local, resultSharding, grid,
        [&](Operation *localOp) {
          // The rows are all in range; offsets are still checked unless
          // the op is unchecked.
          auto bag = cast<EmbeddingBagOp>(localOp);
          bag.setMode(mode == GatherMode::unchecked ? GatherMode::unchecked
                                                    : GatherMode::fill);
          bag.setPaddingIdx(BagRows::kPadding);
        },
        widen ? f32 : Type());
    Value result = shard::AllReduceOp::create(
        b, partial, grid.getSymName(), getReducedAxes(split),
        max ? shard::ReductionKind::Max : shard::ReductionKind::Sum);
    if (widen)
      result = arith::TruncFOp::create(
          b,
          cast<RankedTensorType>(result.getType())
              .clone(getElementTypeOrSelf(op.getResult().getType())),
          result);
    return result;
  }
};

} // namespace

LogicalResult mlir::gather::verifyPartitionableShardings(Operation *op) {
  std::optional<LoopNest> nest;
  if (isa<GatherOp, GatherElementsOp, GatherNDOp>(op))
    nest = getGatherNest(op);
  else if (isa<ScatterOpInterface>(op))
    nest = getScatterNest(op);
  else if (isa<EmbeddingBagOp>(op))
    nest = getBagNest(op);
  if (!nest)
    return success();
  // The annotations as shard-partition reads them: an operand's defining
  // shard.shard, a result's only user if that is a shard.shard.
  SmallVector<Sharding, 4> operandShardings, resultShardings;
  for (Value operand : op->getOperands()) {
    auto annotation = operand.getDefiningOp<shard::ShardOp>();
    operandShardings.push_back(annotation ? Sharding(annotation.getSharding())
                                          : Sharding());
  }
  for (Value result : op->getResults()) {
    shard::ShardOp annotation;
    if (result.hasOneUse())
      annotation = dyn_cast<shard::ShardOp>(*result.user_begin());
    resultShardings.push_back(annotation ? Sharding(annotation.getSharding())
                                         : Sharding());
  }
  // Partitioning divides and offsets the sizes of an annotated op: its
  // operands and results must count their bytes within int64.
  auto isSet = [](const Sharding &s) { return static_cast<bool>(s); };
  bool annotated = llvm::any_of(operandShardings, isSet) ||
                   llvm::any_of(resultShardings, isSet);
  auto countable = [](Type t) { return hasCountableStaticBytes(t); };
  if (annotated && (!llvm::all_of(op->getOperandTypes(), countable) ||
                    !llvm::all_of(op->getResultTypes(), countable)))
    return op->emitOpError("has static sizes whose byte count overflows "
                           "int64; it cannot be partitioned");
  return checkAgreement(op, *nest, operandShardings, resultShardings);
}

void mlir::gather::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, GatherDialect *) {
    GatherOp::attachInterface<GatherOpSharding<GatherOp>>(*context);
    GatherElementsOp::attachInterface<GatherOpSharding<GatherElementsOp>>(
        *context);
    GatherNDOp::attachInterface<GatherOpSharding<GatherNDOp>>(*context);
    EmbeddingBagOp::attachInterface<EmbeddingBagSharding>(*context);
    ScatterOp::attachInterface<ScatterSharding<ScatterOp>>(*context);
    ScatterElementsOp::attachInterface<ScatterSharding<ScatterElementsOp>>(
        *context);
    ScatterNDOp::attachInterface<ScatterSharding<ScatterNDOp>>(*context);
    // A partition writes the local ids (linalg, arith; scf and func for a
    // bad id's report), the shard's offset and the all-reduce (shard).
    context->loadDialect<arith::ArithDialect, func::FuncDialect,
                         linalg::LinalgDialect, scf::SCFDialect,
                         shard::ShardDialect, tensor::TensorDialect>();
  });
}
