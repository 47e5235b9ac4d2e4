//===- KernelEmitter.h - The emitter of gather loop nests -------*- C++ -*-===//
//
// Private to lib/Conversion/GatherToLoops: the class that emits one gather
// kernel, shared by the files that implement it by concern:
//   KernelBuildingBlocks.cpp  loops, loads and stores, index arithmetic
//   KernelValidation.cpp      phase 1: run-time shape rules, index checks
//   KernelDataMovement.cpp    phase 2: rows, slices, vector gathers
//   KernelCostModel.cpp       the plans phase 2 follows (KernelPlanner.h)
//   GatherKernels.cpp         the three ops' loop nests, emitGatherKernel
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GATHERTOLOOPS_KERNELEMITTER_H
#define LIB_CONVERSION_GATHERTOLOOPS_KERNELEMITTER_H

#include "KernelPlanner.h"

#include "gather-c/Runtime.h"
#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/SaveAndRestore.h"

namespace mlir::gather::detail {

/// `prefix` with `j` appended: the subscripts of element j of a row.
inline SmallVector<Value> appended(ValueRange prefix, Value j) {
  SmallVector<Value> s(prefix);
  s.push_back(j);
  return s;
}

/// One index component: its value and the size of the data dimension it
/// selects along (both i64), and that dimension's number.
struct IndexComponent {
  Value value;
  Value size;
  int64_t dataDim;
};

/// A subscript derived from an index value, and whether it is in range
/// (null when the mode needs no guard).
struct Subscript {
  Value index;
  Value valid;
};

/// Emits one kernel. Holds the builder and the op's operands; every helper
/// emits at the builder's current insertion point.
class KernelEmitter : MemRefEmitterBase {
public:
  KernelEmitter(OpBuilder &b, Operation *op, GatherMode mode,
                const GatherLoweringOptions &options, Value data, Value indices,
                Value out, IndexExtension indexExtension)
      : MemRefEmitterBase(b, op->getLoc()),
        planner(b, op->getLoc(), options, data, indices, out), op(op),
        mode(mode), options(options), data(data), indices(indices), out(out),
        indexExtension(indexExtension) {}

  void emitGather(const GatherShape &shape);
  void emitGatherElements(const GatherShape &shape);
  /// emitGather's loops once the indices are valid (`ok`, null: always).
  void emitGatherRows(const GatherShape &shape, Value axisSize, Value ok);
  /// A stack buffer of i64 shaped like `indices` that holds them wrapped
  /// into [0, axisSize) (axisSize > 0): at most kWrappedOnceMaxIndices.
  Value wrappedIndices(Value axisSize);
  void emitGatherND(const GatherShape &shape);

  /// A row gatherer for validated rows: rowAt(prefix, badFlag) gathers the
  /// row at `prefix` and sets the memref<i1> `badFlag` if one of its indices
  /// is out of range (reading nothing out of bounds for it).
  using CheckedRowFn = function_ref<void(ValueRange, Value)>;

  /// check mode for kernels that gather by rows (`positions` are the index
  /// positions, the innermost a row): indices are checked as their row is
  /// gathered, on one thread or on the threads the cost model picks; a row
  /// with a bad index is checked again to report the first.
  void gatherCheckedRows(
      const GatherShape &shape, ArrayRef<Value> positions, Value axisSize,
      function_ref<SmallVector<IndexComponent>(ValueRange)> components,
      CheckedRowFn rowAt);

private:
  /// Rows of index positions on threads, a slab (outermost position) per
  /// iteration: rowAt(prefix, flag) handles the row at `prefix` and sets
  /// `flag` on a bad index, after which the slab's later rows are skipped.
  /// If a slab was flagged, recheck(slabPositions) runs serially with
  /// `indices` viewing only the first flagged slab (its outermost position
  /// is 0 there), to report its first bad index: the first in row-major
  /// order, whichever thread met it.
  void threadedSlabs(ArrayRef<Value> positions, CheckedRowFn rowAt,
                     function_ref<void(ArrayRef<Value>)> recheck);
  /// `count` parts on threads, one an iteration: part(k, flag) handles
  /// part k and sets the memref<i1> `flag` (its own) on a bad index. Then,
  /// serially, firstFlagged(k) for the first part flagged, if one was.
  void flaggedParts(Value count, function_ref<void(Value, Value)> part,
                    function_ref<void(Value)> firstFlagged);

  //===--- Building blocks ------------------------------------------------===//

  /// A memref<i1> flag on the stack, false (at the insertion point: inside
  /// a parallel loop, one per iteration of an alloca scope).
  Value newFlag() {
    Value flag =
        memref::AllocaOp::create(b, loc, MemRefType::get({}, b.getI1Type()));
    memref::StoreOp::create(b, loc, constBool(false), flag);
    return flag;
  }
  /// Stores true to `flag` (the constant goes beside the flag's alloca, so
  /// that the store is all a conditional block holds).
  void setFlag(Value flag) {
    Value isTrue;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(flag);
      isTrue = constBool(true);
    }
    memref::StoreOp::create(b, loc, isTrue, flag);
  }
  Value isSet(Value flag) { return memref::LoadOp::create(b, loc, flag); }
  /// n - n mod lanes: where full vectors end (a constant when n is).
  Value fullVectors(Value n, int64_t lanes) {
    AffineExpr s0 = b.getAffineSymbolExpr(0);
    return getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(b, loc, s0 - s0 % lanes, {n}));
  }
  /// for iv = 0 to ub step `step`: body(iv). affine.for when the bound is a
  /// valid affine symbol, scf.for otherwise; scf.parallel if `parallel`.
  void forLoop(Value ub, int64_t step, function_ref<void(Value)> body,
               bool parallel = false);
  /// A nest of unit-step loops over [0, ubs[i]).
  void loopNest(ArrayRef<Value> ubs, function_ref<void(ValueRange)> body,
                SmallVector<Value> ivs = {});
  /// loopNest whose outermost loop is an scf.parallel.
  void threadedNest(ArrayRef<Value> ubs, function_ref<void(ValueRange)> body);
  /// loopNest whose outermost loop is parallel when the cost model says so
  /// (planner.parallel), else serial; both when it is decided at run time: for
  /// the gather phase, where iterations write disjoint results.
  void parallelNest(ArrayRef<Value> ubs, function_ref<void(ValueRange)> body);
  /// row(ivs, n, start): elements [start, start + n) of a row at `ivs`
  /// (start null: the whole row, from 0).
  using RowFn = function_ref<void(ValueRange, Value, Value)>;
  /// Rows of `ubs.back()` elements at every position of the outer `ubs`
  /// (piecedNest).
  void rowNest(ArrayRef<Value> ubs, RowFn row) {
    piecedNest(ubs.drop_back(), ubs.back(), row);
  }
  /// A row of `n` elements at every position of the nest of `outer`, on
  /// threads as planner.parallel says. Threads take the outermost dim's
  /// positions; where it has fewer than kPiecedOuterMax (a single row, a
  /// few long slices), rows longer than kRowPieceElements are split into
  /// pieces of that many, and threads take (position, piece) pairs, so
  /// that the work still divides evenly.
  void piecedNest(ArrayRef<Value> outer, Value n, RowFn row);
  /// The slices of `plan` at every position of the nest of `ubs` (its
  /// rows' last extent in pieces, as piecedNest): body(ivs, start,
  /// length) for copySlice (start null: whole slices).
  void sliceNest(const SlicePlan &plan, ArrayRef<Value> ubs, RowFn body);
  /// A gather along an axis after the first (of a non-empty size
  /// `axisSize`) at a vector of at most kSharedIndexRowMax indices, static
  /// in number, that every data row shares: their subscripts are resolved
  /// once, then each row of the result (`ubs`: out's dims up to the index
  /// dim) copies the slices at them as `plan` says (elements, along the
  /// last axis).
  void gatherSharedIndices(const SlicePlan &plan, ArrayRef<Value> ubs,
                           Value axisSize);
  /// The nest of `ubs` (dims of the indices of a gather_elements along
  /// `axis`, before the last) in column blocks: every dim but `axis` and
  /// the last, then blocks of kColumnBlockBytes of the last, then `axis`:
  /// row(ivs, n, start) for the block's piece of each row, as in rowNest.
  /// The outer nest is a parallelNest.
  void columnBlockNest(ArrayRef<Value> ubs, int64_t axis, RowFn row);
  /// Whether rows of `n` elements at the nest of `outer` are split into
  /// pieces on threads (piecedNest): null when rows have a static length
  /// of at most kRowPieceElements, else whether the outermost dim has fewer
  /// than kPiecedOuterMax positions (true when there is none).
  Value fewLongRows(ArrayRef<Value> outer, Value n);
  /// The (position, piece) items of such a nest, `pieces` (pieceCount) a
  /// row, and item `k`'s rows: row(ivs, length, start) for its piece of
  /// each row at its position of the outermost dim.
  Value pieceItems(ArrayRef<Value> outer, Value pieces);
  void pieceItem(ArrayRef<Value> outer, Value n, Value pieces, Value k,
                 RowFn row);
  /// The number of pieces of kRowPieceElements of a row of `n` elements,
  /// and the start and length of piece `k`.
  Value pieceCount(Value n);
  std::pair<Value, Value> pieceBounds(Value n, Value k);
  /// `start` + j (start null: j).
  Value offsetBy(Value start, Value j) {
    return start ? arith::AddIOp::create(b, loc, start, j).getResult() : j;
  }
  /// body() unless a size in `sizes` is 0: a nest whose inner loop is empty
  /// would still walk its outer ones (an index array of 2^30 x 0). Nothing
  /// when one is the constant 0, a run-time test when one may be 0.
  void ifNoneEmpty(ArrayRef<Value> sizes, function_ref<void()> body);
  /// The bounds of a nest past its outermost, whose loop runs no iteration
  /// for a bound of 0 on its own: what ifNoneEmpty tests before the nest.
  static ArrayRef<Value> innerBounds(ArrayRef<Value> ubs) {
    return ubs.drop_front(ubs.empty() ? 0 : 1);
  }
  /// if (cond) then() else otherwise().
  void ifThenElse(Value cond, function_ref<void()> then,
                  function_ref<void()> otherwise = nullptr);
  /// The emission of a plan (planner.parallel, ...): only `then` when `plan` is
  /// the constant true, only `otherwise` when it is null (never) or the
  /// constant false, else both, chosen at run time.
  void emitPlanned(Value plan, function_ref<void()> then,
                   function_ref<void()> otherwise = nullptr);

  /// Loads and stores: affine forms where every subscript is an affine dim.
  Value load(Value memref, ValueRange subscripts);
  /// A read of `data` (or a view of it) at subscripts that may come from
  /// index values: always memref.load, never affine.load, whose folder reads
  /// a constant global at constant subscripts without a bounds check (an
  /// `unchecked` gather of a constant at a constant index out of range must
  /// not crash the compiler).
  Value loadData(Value memref, ValueRange subscripts) {
    return memref::LoadOp::create(b, loc, memref, subscripts);
  }
  void store(Value value, Value memref, ValueRange subscripts);

  /// An i64 constant, or a splat of it shaped like `like` (a vector type).
  Value constI64Like(Type like, int64_t v);
  /// The index element at `subscripts` of `indices`, as i64 (widenIndex).
  Value readIndex(ValueRange subscripts);
  /// Elements of `indices` (a scalar or vector) as i64 values, extended as
  /// indexExtension says.
  Value widenIndex(Value raw) {
    return indexValueToI64(b, loc, raw, indexExtension);
  }
  /// -s <= i < 0 means i + s (i64 scalars or vectors; s is scalar). Cannot
  /// overflow: s >= 0 > i.
  Value normalize(Value i, Value s);
  /// Whether the normalized index n is in [0, s) (or, if `outside`, not):
  /// one unsigned compare.
  Value inRange(Value n, Value s, bool outside = false);
  /// Whether index value `i` (not yet normalized) is out of range along a
  /// dimension of size `s`: what check mode rejects.
  Value outOfRange(Value i, Value s) {
    return inRange(normalize(i, s), s, /*outside=*/true);
  }
  /// A cheaper way to emit a full vector of a row, for the vectors a test
  /// holds for: emit(j) instead of the chunk, where holds(j) (an i1).
  /// forEachChunk evaluates holds(j + lanes) while it emits the vector at
  /// j, so the test's loads are not on the path of that vector's.
  struct FastChunk {
    function_ref<Value(Value)> holds;
    function_ref<void(Value)> emit;
  };
  /// Visits a row of `n` elements in vectors of `lanes`, one a loop
  /// iteration: its full vectors, each fast way's in turn (from where the
  /// way before stopped, while its test holds) and then chunk(j, null,
  /// lanes) for the rest; then chunk(j, mask, count) for the partial tail,
  /// if there can be one. With `offset`, the callbacks' j count from it.
  void forEachChunk(Value n, int64_t lanes,
                    function_ref<void(Value, Value, Value)> chunk,
                    ArrayRef<FastChunk> fast = {}, Value offset = nullptr);
  /// Loads a vector of `type` from `memref` at `at`: masked with `mask`
  /// (the other lanes zero), else plainly.
  Value loadVector(Value memref, VectorType type, ValueRange at, Value mask);
  /// The mode of the subscripts a gather reads data at once the indices are
  /// valid: check and unchecked clamp (a no-op on the indices check
  /// accepts), so that no subscript leaves a non-empty axis even if a
  /// caller breaks unchecked's promise, and along an axis of static size
  /// the subscripts fold (one position: a copy); the other modes are their
  /// own.
  GatherMode clampedSubscriptMode() const {
    return mode == GatherMode::check || mode == GatherMode::unchecked
               ? GatherMode::clamp
               : mode;
  }
  /// clampedSubscriptMode along an axis of static size `axisSize`, where
  /// the subscripts fold; else none (the op's mode, which costs no clamp).
  std::optional<GatherMode> subscriptModeAlong(Value axisSize) const {
    if (getConstantIntValue(axisSize))
      return clampedSubscriptMode();
    return std::nullopt;
  }
  /// Applies normalization and the mode (`as`, else the op's) to index
  /// value `i` along a dimension of size `s` (both i64).
  Subscript resolve(Value i, Value s, std::optional<GatherMode> as = {});
  /// The size of `memref`'s dimension `d` as i64, for index arithmetic.
  Value dimI64(Value memref, int64_t d) {
    return b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(),
                                              dim(memref, d));
  }

  /// Phase 1a, in every mode but `unchecked`: the shape rules that the
  /// verifier could not check because a dim is dynamic. Calls the shape hook
  /// for the first that fails; returns an i1 that is true when all hold
  /// (null when nothing needs checking).
  Value validateShapes(const GatherShape &shape);
  /// Phase 1b. `positions` are the loop bounds over the index positions,
  /// `sizes` the sizes of the data dimensions indexed, `components` the
  /// index values to check at one position, `shapesOk` what validateShapes
  /// returned (an index error is reported only if the shapes hold). Returns
  /// an i1 that is true when the shapes hold and every index passed (null
  /// when nothing can fail). With `eachRow` (check mode, one index per
  /// position, shapes already known to hold), each row of positions is
  /// gathered by eachRow while no index has failed, and checked only when
  /// eachRow flags it: validation and gather interleave, so a result may be
  /// partly written when an index error is reported.
  Value
  validate(ArrayRef<Value> positions, ArrayRef<Value> sizes,
           function_ref<SmallVector<IndexComponent>(ValueRange)> components,
           Value shapesOk, CheckedRowFn eachRow = nullptr);
  /// Whether `check` validates rows right before gathering them
  /// (options.validateRows), for kernels that gather by rows.
  bool validatesRows() const {
    return mode == GatherMode::check && options.validateRows;
  }
  /// Lanes for checkRow of positions that hold `tuple` indices each (a
  /// multiple of it), or 0 when the indices' last dimension is strided.
  int64_t checkLanes(int64_t tuple) const;
  /// check mode along one row of `n` positions at `prefix`, whose indices
  /// select along dimensions of sizes `sizes` (i64): one index each (the
  /// row is the indices' last dimension), or a tuple of sizes.size() (the
  /// row is their last two dimensions, contiguous: gather_nd). Vector
  /// chunks are tested at once, each lane against its component's size;
  /// badChunk(j, count) runs for positions [j, j + count) with a bad index.
  void checkRow(ValueRange prefix, Value n, ArrayRef<Value> sizes,
                int64_t lanes, function_ref<void(Value, Value)> badChunk);
  /// Runs `body` only if `ok` (null means always).
  void guarded(Value ok, function_ref<void()> body);

  /// Copies plan.data[dataPrefix, j...] to plan.out[outPrefix, j...] for j
  /// over plan.extents; writes zeros instead where `valid` is false. With
  /// `start`, only elements [start, start + length) of each of the slice's
  /// rows (its last extent): a piece (sliceNest).
  void copySlice(const SlicePlan &plan, ValueRange dataPrefix,
                 ValueRange outPrefix, Value valid, Value start = nullptr,
                 Value length = nullptr);
  /// The contiguous innermost run of copySlice: vector chunks, masked tail;
  /// `n` elements from `start` (null: 0).
  void copyRow(const SlicePlan &plan, ValueRange dataPrefix,
               ValueRange outPrefix, Value n, bool zeros,
               Value start = nullptr);
  /// copyRow in vectors (a scalar loop for elements that do not vectorize).
  void copyRowVectors(const SlicePlan &plan, ValueRange dataPrefix,
                      ValueRange outPrefix, Value n, bool zeros, Value start);
  /// copyRow by a call of the C library's memcpy (plan.copying).
  void copyRowLibrary(const SlicePlan &plan, ValueRange dataPrefix,
                      ValueRange outPrefix, Value n, Value start);
  /// copyRow through the cache, in vectors of `lanes`.
  void copyRowCached(const SlicePlan &plan, ValueRange dataPrefix,
                     ValueRange outPrefix, Value n, int64_t lanes, bool zeros,
                     Value start);
  /// A row of `n` results along the innermost dimension of both `indices`
  /// and `out`, each reading `data` along its innermost dimension (gather
  /// along the last axis, gather_elements along the last axis). With
  /// `lanes`, as plan.rowLoads says (`plan` from planner.gatherRows):
  /// vectors of indices become in-bounds subscripts at once, the elements
  /// are read with vector.gather or one scalar load a lane and stored as
  /// vectors (non-temporal ones where `plan` streams); or
  /// (GatherLoads::Element) one element an iteration, its subscript clamped
  /// as the vectors' are. With `lanes` 0, one element at a time. With
  /// `badFlag` (check mode, indices not yet validated), an index out of
  /// range sets the memref<i1> `badFlag` instead of failing. With `start`,
  /// the row's positions j are elements start + j of the index and out rows
  /// (a piece of a row: rowNest). With `offAxis` (gather_elements along an
  /// axis before the last), the indices select along that dim of `data`
  /// instead: position j reads data[dataPrefix with the subscript at
  /// offAxis, j], dataPrefix holding a subscript of every dim but the last.
  void gatherRow(const SlicePlan &plan, ValueRange dataPrefix,
                 ValueRange indexPrefix, ValueRange outPrefix, Value n,
                 Value axisSize, int64_t lanes, Value badFlag = nullptr,
                 Value start = nullptr,
                 std::optional<int64_t> offAxis = std::nullopt);
  /// copyRow with whole vectors stored at aligned addresses after a masked
  /// head (forEachAlignedChunk): non-temporal stores with `streaming`.
  void copyRowAligned(const SlicePlan &plan, ValueRange dataPrefix,
                      ValueRange outPrefix, Value n, int64_t lanes,
                      bool streaming, Value start);
  /// forEachChunk for a row of `plan.out` at `outPrefix` that is written
  /// with non-temporal stores: chunk(0, mask, count) up to the first
  /// vector-aligned element of the row, then chunk(j, mask or null, count)
  /// for the rest, whose full vectors are aligned (and go to `fast` as in
  /// forEachChunk). With `start`, the row begins at element `start` of
  /// `outPrefix`'s row (j counts from there).
  void forEachAlignedChunk(const SlicePlan &plan, ValueRange outPrefix, Value n,
                           int64_t lanes,
                           function_ref<void(Value, Value, Value)> chunk,
                           Value start = nullptr,
                           ArrayRef<FastChunk> fast = {});
  /// Stores vector `v` of a row of `plan.out` at `at`: masked with `mask`,
  /// else non-temporal (and aligned: forEachAlignedChunk's full vectors)
  /// with `streaming`, else plainly.
  void storeRowVector(const SlicePlan &plan, Value v, ValueRange at, Value mask,
                      bool streaming);
  /// Called after the gather loops: orders `plan`'s streaming stores before
  /// what the caller does next.
  void finishStreaming(const SlicePlan &plan);

  /// The address of plan.out[prefix, 0] in bytes (of plan.out[prefix] for
  /// a whole subscript), for alignment.
  Value rowAddress(const SlicePlan &plan, ValueRange prefix);
  /// Inside the loops over index positions `ivs`, whose innermost runs to
  /// `ub`: prefetches the slice that the position plan.prefetchDistance
  /// further along the innermost loop reads (when there is one and
  /// plan.prefetching). `slicePrefix` gives the data subscripts of a
  /// position's slice; indices are clamped there, so even a bad one names
  /// an element of data.
  void prefetchAhead(const SlicePlan &plan, ValueRange ivs, Value ub,
                     function_ref<SmallVector<Value>(ValueRange)> slicePrefix);
  /// An index value clamped into a dimension of size `s` (> 0), as an index.
  Value clampedSubscript(Value i, Value s);

  /// The cost model's plans (KernelPlanner.h).
  KernelPlanner planner;
  Operation *op;
  /// Which op the validation phase reports for.
  GatherMode mode;
  const GatherLoweringOptions &options;
  Value data, indices, out;
  /// How the elements of `indices` extend to i64.
  IndexExtension indexExtension;
  /// Set while a flagged slab or piece is checked again, to report the
  /// first bad index (an error's path): its checks stay serial.
  bool serialChecks = false;
};

} // namespace mlir::gather::detail

#endif // LIB_CONVERSION_GATHERTOLOOPS_KERNELEMITTER_H
