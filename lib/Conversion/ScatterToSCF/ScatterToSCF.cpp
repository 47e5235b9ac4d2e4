//===- ScatterToSCF.cpp - The scatters as loops on tensors ------*- C++ -*-===//
//
// gather.scatter, gather.scatter_elements and gather.scatter_nd on tensors
// become, in upstream ops only:
//
//  1. unless the mode is `unchecked`, the shape rules the verifier could not
//     check (the matching gather's rules between dest and indices, and
//     updates' dims against the gather's result) are checked;
//  2. in `check` mode every index is checked to be in range, and in
//     `clamp`/`wrap` mode not to select along an empty dimension, by a scan
//     over the indices that only and-reduces, and when one is bad a second
//     scan that finds the first;
//  3. only when all passed, one scf.for nest over `updates` in row-major
//     order reads each update, finds the element of dest its gather would
//     read (GatherShape's dims, the mode by IndexArithmetic) and combines it
//     there with tensor.extract/tensor.insert: each element gets its updates
//     in the sequential loop's order, so the result of duplicate indices is
//     that loop's at any thread count. The rows before a scatter's axis are
//     walked in tiles, each index position resolved once a tile (a dest
//     that is a copy into the result's buffer is copied a tile's rows at a
//     time, just before they get their updates); threads own ranges of a
//     dest dim that a loop walks. f16 and bf16 `add`/`mul`
//     combine in an f32 copy of dest, rounded once at the end.
//
// A failure is reported through the run-time hooks (gather-to-llvm; the
// result is dest, nothing written) or cf.assert (convert-gather-to-linalg,
// whose writes are also kept in bounds for clients that drop cf.assert).
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/ScatterToSCF/ScatterToSCF.h"

#include "gather-c/Runtime.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"
#include "gather/Dialect/Gather/Utils/Lowering.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTSCATTERTOSCF
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// The end of the updates dims that hold index positions: the loops over
/// dims [0, split) resolve indices, those inside walk data dims only.
static int64_t positionsEnd(const GatherShape &shape) {
  int64_t split = 0;
  for (auto [d, src] : llvm::enumerate(shape.dims))
    if (src.indicesDim >= 0)
      split = d + 1;
  return split;
}

/// The updates dim of data's positions just before the dims of index
/// positions, which are the last dims the indices walk (gather's dims before
/// its axis, past the batch dims), if any: apply tiles it.
static int64_t tiledDim(const GatherShape &shape, int64_t split) {
  int64_t first = split;
  while (first > 0 && shape.dims[first - 1].readDataDim < 0)
    --first;
  if (first == split || first == 0)
    return -1;
  const ResultDimSource &before = shape.dims[first - 1];
  return before.indicesDim < 0 ? first - 1 : -1;
}

/// A run-time shape rule: `ok` holds, or the shape hook gets (rule, dim, a,
/// b); `message` is the cf.assert's.
struct Rule {
  Value ok;
  int64_t rule;
  int64_t dim;
  Value a, b;
  std::string message;
};

class ScatterEmitter : EmitterBase {
public:
  ScatterEmitter(OpBuilder &b, ScatterOpInterface op, const GatherShape &shape,
                 Value dest, Value indices, Value updates, ErrorReport report,
                 const ScatterThreads &threading)
      : EmitterBase(b, op->getLoc()), op(op), shape(shape),
        opName(op->getName().getStringRef()), mode(op.getMode()),
        combine(op.getReduction()), report(report), dest(dest),
        indices(indices), updates(updates),
        destType(cast<ShapedType>(dest.getType())),
        indicesType(cast<ShapedType>(indices.getType())),
        updatesType(cast<ShapedType>(updates.getType())),
        onMemrefs(isa<MemRefType>(dest.getType())),
        tuples(isa<ScatterNDOp>(op)), elements(isa<ScatterElementsOp>(op)),
        threads(threading.parallel && !onMemrefs),
        parallelMinBytes(threading.parallelMinBytes),
        split(positionsEnd(shape)), tiled(tiledDim(shape, split)) {
    Type element = destType.getElementType();
    widened =
        (element.isF16() || element.isBF16()) &&
        (combine == ScatterCombine::add || combine == ScatterCombine::mul);
  }

  /// dest with every update combined in (or dest, after a reported error).
  /// On memrefs, the updates are combined into dest itself, which is
  /// returned.
  Value emit();

private:
  Value toI64(Value v) { return indexValueToI64(b, loc, v); }
  Value indexToI64(Value v) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value notI(Value x) {
    return arith::XOrIOp::create(b, loc, x, constBool(true));
  }
  /// The element of `shaped` at `at`.
  Value load(Value shaped, ValueRange at) {
    if (onMemrefs)
      return memref::LoadOp::create(b, loc, shaped, at);
    return tensor::ExtractOp::create(b, loc, shaped, at);
  }
  /// `shaped` with `value` at `at`: the new tensor, or the memref stored to.
  Value store(Value value, Value shaped, ValueRange at) {
    if (!onMemrefs)
      return tensor::InsertOp::create(b, loc, value, shaped, at);
    memref::StoreOp::create(b, loc, value, shaped, at);
    return shaped;
  }
  void assertTrue(Value ok, const Twine &message) {
    cf::AssertOp::create(b, loc, ok, (opName + ": " + message).str());
  }

  /// When dest is a copy into the result's buffer that apply's tiles can
  /// make: takes the copy's buffer as copyInit and its source as dest.
  void takeCopy();
  /// Whether the tiles make the copy: a tile holds a row at least (longer
  /// rows, four at a time, would leave the cache between their copy and
  /// their updates: their copy is all of dest first, on threads), the tiles
  /// cover the buffer, so that the copy they make is whole, and `ok` (when
  /// not null).
  Value tilesMakeCopy(Value ok);
  /// How many of dim `tiled`'s rows a tile holds (kTileBytes of updates
  /// and dest rows).
  Value tileRowsOf();
  SmallVector<Rule> runTimeRules();
  /// Builds `body` inside an scf.for nest from `lows` to `sizes`
  /// (row-major) that carries `init`; it runs only when `enabled` (null:
  /// always).
  SmallVector<Value> forEachPosition(
      ArrayRef<Value> lows, ArrayRef<Value> sizes, ValueRange init,
      Value enabled,
      function_ref<SmallVector<Value>(ValueRange ivs, ValueRange carried)>
          body);
  /// The scan of step 2: whether every index is valid, and with `firstBad`
  /// the first bad one's value, data dim and that dim's size (i64). With
  /// asserts, asserts each index instead and returns no value.
  SmallVector<Value> scanIndices(bool firstBad);
  /// Calls the shape hook for the first rule of `rules` that fails.
  void reportFirst(ArrayRef<Rule> rules);
  /// Step 3, when `ok` holds (null: always).
  Value scatterAll(Value ok);
  /// The updates combined into `acc` (dest, or its f32 copy) on threads,
  /// each owning a range of the dest dim that splitUpdatesDim walks.
  Value applyOnThreads(Value acc, Value ok);
  /// The updates that land in `acc`, one loop nest: every update, or with
  /// `lo` those in [lo, hi) of dest's dim splitDestDim, which `acc` (a
  /// slice) holds.
  Value apply(Value acc, Value ok, Value lo, Value hi);
  Value callMaxThreads();
  Value combineValues(Value old, Value update);

  ScatterOpInterface op;
  const GatherShape &shape;
  StringRef opName;
  GatherMode mode;
  ScatterCombine combine;
  ErrorReport report;
  Value dest, indices, updates;
  ShapedType destType, indicesType, updatesType;
  /// Whether the operands are memrefs (the One-Shot Bufferize model's
  /// form): loads and stores, dest carried through the loops unchanged.
  bool onMemrefs;
  bool tuples, elements;
  /// The size of the data dim each tuple component selects along (i64).
  SmallVector<Value> axisSizes;
  /// What updates combine in: dest's element type, or f32 for f16/bf16
  /// sums and products (`widened`).
  Type accElement;
  bool widened;
  /// With a copy that apply makes (takeCopy): the buffer dest is copied
  /// into, tile by tile, each tile's rows just before their updates combine
  /// there while in cache, instead of all of dest first (which a scatter
  /// larger than the cache reads from memory twice). Null: none.
  Value copyInit;
  /// With copyInit: whether the tiles make the copy (i1; tilesMakeCopy),
  /// else dest was copied whole first.
  Value tilesCopy;
  /// Threads (gather-to-llvm's `parallel`) for scatters of at least
  /// `parallelMinBytes` of updates.
  bool threads;
  int64_t parallelMinBytes;
  /// On threads: the dest dim whose ranges they own, and the updates dim
  /// that walks it (threadWalkingDim; -1: one thread).
  int64_t splitDestDim = 0, splitUpdatesDim = -1;
  /// The end of the updates dims of index positions (positionsEnd) and the
  /// dim apply walks in tiles of rows (tiledDim; -1: none).
  int64_t split, tiled;
};

/// The bytes of updates and dest rows that a tile of apply's rows holds:
/// half of a 32 KiB L1 data cache (the smallest of the hosts measured), so
/// that they, the indices and the lines in flight stay in it while the
/// tile's index positions are walked one after another.
constexpr int64_t kTileBytes = 16 << 10;
/// The fewest rows a tile holds; longer rows go kJamRows at a time.
constexpr int64_t kMinTileRows = 8;
constexpr int64_t kJamRows = 4;

SmallVector<Rule> ScatterEmitter::runTimeRules() {
  SmallVector<Rule> rules;
  if (mode == GatherMode::unchecked)
    return rules;
  for (const OperandDimRule &r : shape.getRunTimeRules(destType, indicesType)) {
    Value a = tensorDim(dest, r.dataDim),
          bSize = tensorDim(indices, r.indicesDim);
    Value ok =
        cmp(r.atMost ? arith::CmpIPredicate::ule : arith::CmpIPredicate::eq,
            bSize, a);
    rules.push_back(
        {ok,
         r.atMost ? GATHER_MLIR_RULE_ELEMENTS_DIM : GATHER_MLIR_RULE_BATCH_DIM,
         r.dataDim, indexToI64(a), indexToI64(bSize),
         r.atMost
             ? "indices dimension " + std::to_string(r.indicesDim) +
                   " is larger than dest dimension " + std::to_string(r.dataDim)
             : "batch dimension " + std::to_string(r.dataDim) +
                   " has different sizes in dest and indices"});
  }
  SmallVector<int64_t> expected = shape.getStaticShape(destType, indicesType);
  SmallVector<OpFoldResult> sizes = shape.getMixedSizes(b, loc, dest, indices);
  for (auto [d, want] : llvm::enumerate(expected)) {
    if (!ShapedType::isDynamic(want) && !updatesType.isDynamicDim(d))
      continue; // The verifier compared them.
    Value have = tensorDim(updates, d);
    Value size = getValueOrCreateConstantIndexOp(b, loc, sizes[d]);
    rules.push_back({cmp(arith::CmpIPredicate::eq, have, size),
                     GATHER_MLIR_RULE_UPDATES_DIM, static_cast<int64_t>(d),
                     indexToI64(have), indexToI64(size),
                     "updates dimension " + std::to_string(d) +
                         " differs from the gather's result for dest and "
                         "indices"});
  }
  return rules;
}

SmallVector<Value> ScatterEmitter::forEachPosition(
    ArrayRef<Value> lows, ArrayRef<Value> sizes, ValueRange init, Value enabled,
    function_ref<SmallVector<Value>(ValueRange, ValueRange)> body) {
  // An empty inner dim would still walk the outer ones (2^40 x 0 runs for
  // hours): an outer loop of one iteration (none when a size is 0 or the
  // nest is not `enabled`) holds the nest. A trip count, not an scf.if, so
  // that the loops' results stay equivalent to `init` for bufferization.
  Value run = enabled;
  for (auto [low, size] : llvm::zip_equal(lows, sizes)) {
    if (std::optional<int64_t> c = getConstantIntValue(size)) {
      if (*c == 0)
        return llvm::to_vector(init);
      if (matchPattern(low, m_Zero()))
        continue;
    }
    Value nonEmpty = cmp(arith::CmpIPredicate::ult, low, size);
    run = run ? andI(run, nonEmpty) : nonEmpty;
  }
  SmallVector<Value> ubs{run ? select(run, constIndex(1), constIndex(0))
                             : constIndex(1)};
  llvm::append_range(ubs, sizes);
  SmallVector<Value> lbs{constIndex(0)};
  llvm::append_range(lbs, lows);
  SmallVector<Value> steps(ubs.size(), constIndex(1));
  scf::LoopNest loops = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, init,
      [&](OpBuilder &nested, Location, ValueRange ivs, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        return scf::ValueVector(body(ivs.drop_front(), carried));
      });
  return SmallVector<Value>(loops.results.begin(), loops.results.end());
}

/// `indices` viewed as one dim, or null where that view is not free: a
/// static dim of 0 (a ? beside a 0 has no collapsed size), a buffer whose
/// layout does not collapse, or a tensor sliced from another (a tile's
/// slice bufferizes to a strided view, which a collapse would copy).
static Value collapseWhole(OpBuilder &b, Location loc, Value indices) {
  auto type = cast<ShapedType>(indices.getType());
  if (llvm::is_contained(type.getShape(), 0))
    return Value();
  SmallVector<ReassociationIndices> all{
      llvm::to_vector(llvm::seq<int64_t>(type.getRank()))};
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!memref::CollapseShapeOp::isGuaranteedCollapsible(memref, all))
      return Value();
    return memref::CollapseShapeOp::create(b, loc, indices, all);
  }
  if (indices.getDefiningOp<tensor::ExtractSliceOp>())
    return Value();
  return tensor::CollapseShapeOp::create(b, loc, indices, all);
}

SmallVector<Value> ScatterEmitter::scanIndices(bool firstBad) {
  int64_t q = indicesType.getRank();
  int64_t positions = tuples ? q - 1 : q;
  // Indices that all select along one dim are scanned as one row-major
  // run where they collapse: LLVM vectorizes that loop, not a nest whose
  // inner dim is short.
  Value scanned = indices;
  if (!tuples && q >= 2) {
    if (Value run = collapseWhole(b, loc, indices)) {
      scanned = run;
      positions = 1;
    }
  }
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < positions; ++d)
    sizes.push_back(tensorDim(scanned, d));
  bool asserts = report == ErrorReport::Asserts;
  SmallVector<Value> init;
  if (!asserts)
    init.push_back(constBool(true));
  if (!asserts && firstBad)
    llvm::append_range(init, ValueRange{constI64(0), constI64(0), constI64(0)});
  SmallVector<Value> lows(sizes.size(), constIndex(0));
  return forEachPosition(
      lows, sizes, init, Value(), [&](ValueRange ivs, ValueRange carried) {
        SmallVector<Value> state = llvm::to_vector(carried);
        SmallVector<Value> at = llvm::to_vector(ivs);
        if (tuples)
          at.push_back(Value());
        for (int64_t c = 0; c < shape.tupleSize; ++c) {
          if (tuples)
            at.back() = constIndex(c);
          Value i = toI64(load(scanned, at));
          Value s = axisSizes[c];
          Value bad =
              mode == GatherMode::check
                  ? isIndexInRange(b, loc, normalizeIndex(b, loc, i, s), s,
                                   /*outside=*/true)
                  : cmp(arith::CmpIPredicate::eq, s, constI64(0));
          int64_t d = shape.indexedDim(c);
          if (asserts) {
            int64_t size = destType.getDimSize(d);
            std::string range =
                mode != GatherMode::check
                    ? "selects along dest dimension " + std::to_string(d) +
                          ", which is empty (size 0)"
                : ShapedType::isDynamic(size)
                    ? "is out of range [-size, size - 1] for dest dimension " +
                          std::to_string(d) + " of dynamic size"
                    : "is out of range [" + std::to_string(-size) + ", " +
                          std::to_string(size - 1) + "] for dest dimension " +
                          std::to_string(d) + " of size " +
                          std::to_string(size);
            assertTrue(notI(bad), "an index " + range);
            continue;
          }
          if (!firstBad) {
            state[0] = andI(state[0], notI(bad));
            continue;
          }
          // The first bad index in row-major order is the one reported.
          Value first = andI(state[0], bad);
          state[1] = select(first, i, state[1]);
          state[2] = select(first, constI64(d), state[2]);
          state[3] = select(first, s, state[3]);
          state[0] = andI(state[0], notI(bad));
        }
        return state;
      });
}

void ScatterEmitter::reportFirst(ArrayRef<Rule> rules) {
  if (rules.empty())
    return;
  const Rule &rule = rules.front();
  auto ifOp = scf::IfOp::create(b, loc, rule.ok, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  reportFirst(rules.drop_front());
  b.setInsertionPointToStart(ifOp.elseBlock());
  emitShapeError(b, loc, op, b.getI64IntegerAttr(rule.rule),
                 b.getI64IntegerAttr(rule.dim), rule.a, rule.b);
}

Value ScatterEmitter::combineValues(Value old, Value update) {
  if (combine == ScatterCombine::none)
    return update;
  Type type = old.getType();
  if (isa<ComplexType>(type)) // add or mul: the verifier rejects max/min.
    return combine == ScatterCombine::add
               ? complex::AddOp::create(b, loc, old, update).getResult()
               : complex::MulOp::create(b, loc, old, update).getResult();
  // upstream's reductions of each kind; i1 read signed would make true (-1)
  // the smaller, so bools take or/and, as torch's do.
  bool isFloat = isa<FloatType>(type), isBool = type.isInteger(1);
  arith::AtomicRMWKind kind;
  switch (combine) {
  case ScatterCombine::add:
    kind = isFloat  ? arith::AtomicRMWKind::addf
           : isBool ? arith::AtomicRMWKind::ori
                    : arith::AtomicRMWKind::addi;
    break;
  case ScatterCombine::mul:
    kind = isFloat  ? arith::AtomicRMWKind::mulf
           : isBool ? arith::AtomicRMWKind::andi
                    : arith::AtomicRMWKind::muli;
    break;
  case ScatterCombine::max:
    kind = isFloat  ? arith::AtomicRMWKind::maximumf
           : isBool ? arith::AtomicRMWKind::ori
                    : arith::AtomicRMWKind::maxs;
    break;
  case ScatterCombine::min:
    kind = isFloat  ? arith::AtomicRMWKind::minimumf
           : isBool ? arith::AtomicRMWKind::andi
                    : arith::AtomicRMWKind::mins;
    break;
  case ScatterCombine::none:
    llvm_unreachable("handled above");
  }
  return arith::getReductionOp(kind, b, loc, old, update);
}

/// A linalg.generic that converts each element of `source` to the element
/// type of `init` (which it overwrites) with `OpTy` (arith.extf or
/// arith.truncf): tensors or memrefs.
template <typename OpTy>
static Value convertElements(OpBuilder &b, Location loc, Value source,
                             Value init) {
  auto type = cast<ShapedType>(source.getType());
  Type element = cast<ShapedType>(init.getType()).getElementType();
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<Type, 1> results;
  if (isa<RankedTensorType>(init.getType()))
    results.push_back(init.getType());
  auto generic = linalg::GenericOp::create(
      b, loc, results, ValueRange{source}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(type.getRank(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nested, l, OpTy::create(nested, l, element, args[0]).getResult());
      });
  return results.empty() ? init : generic.getResult(0);
}

/// The outermost updates dim that walks a dest dim at its own positions
/// (not where an index says), if any: threads own ranges of that dest dim,
/// each a range of that loop.
static int64_t threadWalkingDim(const GatherShape &shape) {
  for (auto [d, src] : llvm::enumerate(shape.dims))
    if (src.readDataDim >= 0)
      return d;
  return -1;
}

Value ScatterEmitter::scatterAll(Value ok) {
  // f16 and bf16 sums and products combine in f32, rounded once per element.
  accElement = widened ? Type(b.getF32Type()) : destType.getElementType();
  Value acc = copyInit ? copyInit : dest;
  if (widened) {
    // The f32 copy: on memrefs a memref.alloc, which the buffer deallocation
    // pipeline frees as it frees One-Shot Bufferize's own.
    Value copy;
    if (onMemrefs) {
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < destType.getRank(); ++d)
        if (destType.isDynamicDim(d))
          dynamicSizes.push_back(tensorDim(dest, d));
      copy = memref::AllocOp::create(
          b, loc, MemRefType::get(destType.getShape(), accElement),
          dynamicSizes);
    } else {
      copy = tensor::EmptyOp::create(
          b, loc, tensor::getMixedSizes(b, loc, dest), accElement);
    }
    acc = convertElements<arith::ExtFOp>(b, loc, dest, copy);
  }
  // Without a dim that a loop walks (a 1-D dest, say), each thread would
  // read every index to find the updates of its range: one thread does.
  splitUpdatesDim = threads ? threadWalkingDim(shape) : -1;
  if (copyInit) {
    // Else (long rows, an error, or `unchecked`'s broken promise) all of
    // dest is copied first.
    tilesCopy = tilesMakeCopy(ok);
    Value init = acc;
    acc = createIfElse(
        b, loc, acc.getType(), tilesCopy, [&] { return init; },
        [&]() -> Value {
          return linalg::CopyOp::create(b, loc, dest, init).getResult(0);
        });
  }
  Value result = splitUpdatesDim >= 0 ? applyOnThreads(acc, ok)
                                      : apply(acc, ok, Value(), Value());
  if (!widened)
    return result;
  // Rounded into dest itself, so the scatter stays in place.
  return convertElements<arith::TruncFOp>(b, loc, result, dest);
}

Value ScatterEmitter::applyOnThreads(Value acc, Value ok) {
  // Each thread owns a range of one dest dim and applies, in row-major
  // order, the updates that land there: no two threads write an element,
  // and each element sees its updates in the sequential order. The dim is
  // the outermost that a loop walks, so a range of it is a range of that
  // loop. Small scatters keep one range (a run-time test on updates'
  // bytes).
  splitDestDim = shape.dims[splitUpdatesDim].readDataDim;
  Value rows = tensorDim(dest, splitDestDim);
  Value bytes = constIndex(getElementSizeInBytes(updatesType.getElementType()));
  for (int64_t d = 0; d < updatesType.getRank(); ++d)
    bytes = arith::MulIOp::create(b, loc, bytes, tensorDim(updates, d));
  Value large = cmp(arith::CmpIPredicate::uge, bytes,
                    constIndex(std::max<int64_t>(parallelMinBytes, 1)));
  Value maxThreads =
      arith::IndexCastOp::create(b, loc, b.getIndexType(), callMaxThreads());
  Value ranges = arith::MinUIOp::create(
      b, loc, select(large, maxThreads, constIndex(1)), rows);
  ranges = arith::MaxUIOp::create(b, loc, ranges, constIndex(1));
  auto forall = scf::ForallOp::create(b, loc, ArrayRef<OpFoldResult>{ranges},
                                      ValueRange{acc},
                                      /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(forall.getTerminator());
  Value t = forall.getInductionVar(0);
  auto bound = [&](Value k) {
    return arith::DivUIOp::create(
        b, loc, arith::MulIOp::create(b, loc, k, rows), ranges);
  };
  Value lo = bound(t);
  Value hi = bound(arith::AddIOp::create(b, loc, t, constIndex(1)));
  Value shared = forall.getRegionIterArgs()[0];
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t r = accType.getRank();
  SmallVector<OpFoldResult> offsets(r, b.getIndexAttr(0)),
      sizes = tensor::getMixedSizes(b, loc, shared),
      strides(r, b.getIndexAttr(1));
  offsets[splitDestDim] = lo;
  sizes[splitDestDim] = arith::SubIOp::create(b, loc, hi, lo).getResult();
  Value slice =
      tensor::ExtractSliceOp::create(b, loc, shared, offsets, sizes, strides);
  Value updated = apply(slice, ok, lo, hi);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  tensor::ParallelInsertSliceOp::create(b, loc, updated, shared, offsets, sizes,
                                        strides);
  return forall.getResult(0);
}

Value ScatterEmitter::callMaxThreads() {
  // omp_get_max_threads(), declared once in the module.
  StringRef name = "omp_get_max_threads";
  auto module = op->getParentOfType<ModuleOp>();
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto fn = func::FuncOp::create(b, loc, name,
                                   b.getFunctionType({}, {b.getI32Type()}));
    fn.setPrivate();
  }
  return func::CallOp::create(b, loc, name, TypeRange{b.getI32Type()},
                              ValueRange{})
      .getResult(0);
}

Value ScatterEmitter::apply(Value acc, Value ok, Value lo, Value hi) {
  // check: the scan validated every index; the linalg path's reads and
  // writes stay in bounds without it (clients may drop cf.assert).
  GatherMode resolved = mode;
  if (mode == GatherMode::check)
    resolved = report == ErrorReport::Hooks ? GatherMode::unchecked
                                            : GatherMode::clamp;
  int64_t r = destType.getRank(), q = indicesType.getRank();
  int64_t rank = updatesType.getRank();
  SmallVector<Value> lows, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    lows.push_back(constIndex(0));
    sizes.push_back(tensorDim(updates, d));
  }
  // A range [lo, hi) of dest's dim splitDestDim: the loop that walks it
  // runs over that range alone.
  if (lo) {
    int64_t d = splitUpdatesDim;
    lows[d] = arith::MinUIOp::create(b, loc, lo, sizes[d]);
    sizes[d] = arith::MinUIOp::create(b, loc, hi, sizes[d]);
  }
  // The loops over the dims that hold index positions (the outer ones)
  // read and resolve the indices; the loops inside them walk a slice of
  // data dims only, where the element's place moves with the loop.
  Value enabled = ok;
  for (int64_t d = split; d < rank; ++d) {
    Value nonEmpty = cmp(arith::CmpIPredicate::ult, lows[d], sizes[d]);
    enabled = enabled ? andI(enabled, nonEmpty) : nonEmpty;
  }

  // dest's subscripts for the updates position `ivs` (its dims [0, split)):
  // the indexed dims resolved, the others placed; and whether the updates
  // there land (null: always).
  auto resolveAt = [&](ValueRange ivs, SmallVector<Value> &destSub) {
    destSub.assign(r, Value());
    SmallVector<Value> indexSub(q);
    shape.placePosition(ivs, destSub, indexSub);
    Value valid;
    for (int64_t c = 0; c < shape.tupleSize; ++c) {
      if (tuples)
        indexSub[q - 1] = constIndex(c);
      Value i = toI64(load(indices, indexSub));
      Value s = axisSizes[c];
      GatherMode m = resolved;
      // clamp along a dim that may be empty: guarded as fill guards it.
      if (m == GatherMode::clamp && mode == GatherMode::check &&
          destType.getDimSize(shape.indexedDim(c)) <= 0)
        m = GatherMode::fill;
      ResolvedIndex ri = resolveIndex(b, loc, m, i, s);
      destSub[shape.indexedDim(c)] =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), ri.index);
      if (ri.valid)
        valid = valid ? andI(valid, ri.valid) : ri.valid;
    }
    return valid;
  };
  // Combines into `current` the updates at `ivs` (every updates dim; those
  // of `loopDims` are set by loops from `loopLows` to `loopSizes`), which
  // land at `destSub` but for the dims the loops walk; only when `valid`
  // (fill: an update whose index is out of range is dropped).
  auto combineAt = [&](Value current, SmallVector<Value> ivs,
                       ArrayRef<Value> destSub, Value valid,
                       ArrayRef<int64_t> loopDims, ArrayRef<Value> loopLows,
                       ArrayRef<Value> loopSizes) -> Value {
    auto loops = [&]() -> Value {
      SmallVector<Value> steps(loopDims.size(), constIndex(1));
      scf::LoopNest nest = scf::buildLoopNest(
          b, loc, loopLows, loopSizes, steps, ValueRange{current},
          [&](OpBuilder &nested, Location, ValueRange loopIvs,
              ValueRange carried) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(),
                                nested.getInsertionPoint());
            for (auto [d, iv] : llvm::zip_equal(loopDims, loopIvs))
              ivs[d] = iv;
            SmallVector<Value> at(destSub), unused(q);
            shape.placePosition(ivs, at, unused);
            // This thread's slice starts at lo.
            if (lo)
              at[splitDestDim] =
                  arith::SubIOp::create(b, loc, at[splitDestDim], lo);
            Value update = load(updates, ivs);
            if (update.getType() != accElement)
              update = arith::ExtFOp::create(b, loc, accElement, update);
            Value here = carried[0];
            Value old = load(here, at);
            return scf::ValueVector{
                store(combineValues(old, update), here, at)};
          });
      return nest.results.empty() ? current : nest.results[0];
    };
    if (!valid)
      return loops();
    return createIfElse(b, loc, current.getType(), valid, loops,
                        [&] { return current; });
  };
  SmallVector<int64_t> innerDims;
  for (int64_t d = split; d < rank; ++d)
    innerDims.push_back(d);

  // One position of the outer dims at a time: its indices resolved once for
  // the slice of the inner dims. With `rowLow`, dim `tiled`'s loop starts
  // there.
  auto untiled = [&](Value current, Value rowLow) -> Value {
    SmallVector<Value> from(ArrayRef<Value>(lows).take_front(split));
    if (rowLow)
      from[tiled] = rowLow;
    return forEachPosition(from, ArrayRef<Value>(sizes).take_front(split),
                           ValueRange{current}, enabled,
                           [&](ValueRange outerIvs, ValueRange carried) {
                             SmallVector<Value> destSub;
                             Value valid = resolveAt(outerIvs, destSub);
                             SmallVector<Value> ivs(outerIvs);
                             ivs.resize(rank);
                             return SmallVector<Value>{combineAt(
                                 carried[0], ivs, destSub, valid, innerDims,
                                 ArrayRef<Value>(lows).drop_front(split),
                                 ArrayRef<Value>(sizes).drop_front(split))};
                           })[0];
  };
  if (tiled < 0)
    return untiled(acc, Value());
  // Data's dim `tiled` before the index positions (gather's dims before its
  // axis) is walked in tiles of rows: in a tile, each index position is
  // resolved once for all of its rows, whose loop is inside the positions'.
  // Every element still sees its updates in row-major order: they come from
  // one row, position after position.
  SmallVector<int64_t> loopDims{tiled};
  llvm::append_range(loopDims, innerDims);
  // `current` with dest's rows [rowLo, rowHi) of dim `tiled` at `outerIvs`
  // (its dims before) copied in, whole.
  auto copySlab = [&](Value current, ValueRange outerIvs, Value rowLo,
                      Value rowHi) -> Value {
    SmallVector<OpFoldResult> offsets(outerIvs.begin(), outerIvs.end()),
        rowSizes(tiled, b.getIndexAttr(1)), strides(r, b.getIndexAttr(1));
    offsets.push_back(rowLo);
    rowSizes.push_back(arith::SubIOp::create(b, loc, rowHi, rowLo).getResult());
    for (int64_t d = tiled + 1; d < r; ++d) {
      offsets.push_back(b.getIndexAttr(0));
      rowSizes.push_back(tensor::getMixedSize(b, loc, dest, d));
    }
    Value from = tensor::ExtractSliceOp::create(b, loc, dest, offsets, rowSizes,
                                                strides);
    // This thread's slice starts at lo.
    if (lo)
      offsets[splitDestDim] =
          arith::SubIOp::create(
              b, loc,
              getValueOrCreateConstantIndexOp(b, loc, offsets[splitDestDim]),
              lo)
              .getResult();
    Value into = tensor::ExtractSliceOp::create(b, loc, current, offsets,
                                                rowSizes, strides);
    Value copied = linalg::CopyOp::create(b, loc, from, into).getResult(0);
    return tensor::InsertSliceOp::create(b, loc, copied, current, offsets,
                                         rowSizes, strides);
  };
  // The same when the tiles make the copy (tilesCopy).
  auto copyRows = [&](Value current, ValueRange outerIvs, Value rowLo,
                      Value rowHi) -> Value {
    if (!tilesCopy)
      return current;
    return createIfElse(
        b, loc, current.getType(), tilesCopy,
        [&] { return copySlab(current, outerIvs, rowLo, rowHi); },
        [&] { return current; });
  };
  // `tiles` tiles of `tileRows` rows from dim `tiled`'s low (the last cut at
  // its size unless `whole`).
  auto inTiles = [&](Value current, Value tileRows, Value tiles,
                     bool whole) -> Value {
    SmallVector<Value> outerLows(ArrayRef<Value>(lows).take_front(tiled)),
        outerSizes(ArrayRef<Value>(sizes).take_front(tiled));
    outerLows.push_back(constIndex(0));
    outerSizes.push_back(tiles);
    return forEachPosition(
        outerLows, outerSizes, ValueRange{current}, enabled,
        [&](ValueRange outerIvs, ValueRange carried) {
          Value tileLo = arith::AddIOp::create(
              b, loc, lows[tiled],
              arith::MulIOp::create(b, loc, outerIvs.back(), tileRows));
          Value tileHi = arith::AddIOp::create(b, loc, tileLo, tileRows);
          if (!whole)
            tileHi = arith::MinUIOp::create(b, loc, tileHi, sizes[tiled]);
          Value copied =
              copyRows(carried[0], outerIvs.drop_back(), tileLo, tileHi);
          SmallVector<Value> positionLows(split - tiled - 1, constIndex(0));
          return forEachPosition(
              positionLows,
              ArrayRef<Value>(sizes).slice(tiled + 1, split - tiled - 1),
              copied, Value(), [&](ValueRange positionIvs, ValueRange inTile) {
                SmallVector<Value> ivs(outerIvs.drop_back());
                ivs.push_back(tileLo); // Placed by the rows' loop.
                llvm::append_range(ivs, positionIvs);
                SmallVector<Value> destSub;
                Value valid = resolveAt(ivs, destSub);
                ivs.resize(rank);
                SmallVector<Value> loopLows{tileLo}, loopSizes{tileHi};
                llvm::append_range(loopLows,
                                   ArrayRef<Value>(lows).drop_front(split));
                llvm::append_range(loopSizes,
                                   ArrayRef<Value>(sizes).drop_front(split));
                return SmallVector<Value>{combineAt(inTile[0], ivs, destSub,
                                                    valid, loopDims, loopLows,
                                                    loopSizes)};
              });
        })[0];
  };
  // Tiles hold rows whose updates and dest rows fill about kTileBytes, so
  // that the rows' loop is the long one when the slices after the positions
  // are short. Rows too long for kMinTileRows of them in a tile (a run-time
  // test) go kJamRows at a time, the rows' loop unrolled inside the
  // positions' (independent chains of loads and stores for the core to
  // overlap), and the rows left over one at a time, untiled.
  Value tileRows = tileRowsOf();
  Value rows = arith::SubIOp::create(b, loc, sizes[tiled], lows[tiled]);
  Value fewRows =
      cmp(arith::CmpIPredicate::ult, tileRows, constIndex(kMinTileRows));
  auto jammed = [&]() -> Value {
    Value jam = constIndex(kJamRows);
    Value groups = arith::DivUIOp::create(b, loc, rows, jam);
    Value rest = arith::AddIOp::create(
        b, loc, lows[tiled], arith::MulIOp::create(b, loc, groups, jam));
    Value grouped = inTiles(acc, jam, groups, /*whole=*/true);
    if (tilesCopy)
      grouped = forEachPosition(
          ArrayRef<Value>(lows).take_front(tiled),
          ArrayRef<Value>(sizes).take_front(tiled), ValueRange{grouped},
          enabled, [&](ValueRange outerIvs, ValueRange carried) {
            return SmallVector<Value>{
                copyRows(carried[0], outerIvs, rest, sizes[tiled])};
          })[0];
    return untiled(grouped, rest);
  };
  // (Here tileRows is at least kMinTileRows.)
  auto tiledRows = [&]() -> Value {
    return inTiles(acc, tileRows,
                   arith::CeilDivUIOp::create(b, loc, rows, tileRows),
                   /*whole=*/false);
  };
  return createIfElse(b, loc, acc.getType(), fewRows, jammed, tiledRows);
}

void ScatterEmitter::takeCopy() {
  auto copy = dest.getDefiningOp<linalg::CopyOp>();
  if (!copy || !copy->hasOneUse() || onMemrefs || widened ||
      !copy.hasPureTensorSemantics() ||
      copy.getInputs()[0].getType() != dest.getType())
    return;
  // Tiles of rows that are dest's first dims (no index picks them).
  if (tiled < 0)
    return;
  for (int64_t d = 0; d <= tiled; ++d)
    if (shape.dims[d].readDataDim != d)
      return;
  copyInit = copy.getOutputs()[0];
  dest = copy.getInputs()[0];
}

Value ScatterEmitter::tilesMakeCopy(Value ok) {
  Value rowFits = cmp(arith::CmpIPredicate::uge, tileRowsOf(), constIndex(1));
  ok = ok ? andI(ok, rowFits) : rowFits;
  // The dims the tiles walk, and the slices after the positions (which,
  // when empty, disable the tiles).
  SmallVector<std::pair<int64_t, int64_t>> same;
  for (int64_t d = 0; d <= tiled; ++d)
    same.push_back({d, d});
  for (int64_t d = split; d < updatesType.getRank(); ++d)
    same.push_back({d, shape.dims[d].readDataDim});
  Value covered = ok;
  for (auto [u, d] : same) {
    if (!updatesType.isDynamicDim(u) && !destType.isDynamicDim(d))
      continue; // The verifier compared them.
    Value eq = cmp(arith::CmpIPredicate::eq, tensorDim(updates, u),
                   tensorDim(dest, d));
    covered = covered ? andI(covered, eq) : eq;
  }
  return covered;
}

Value ScatterEmitter::tileRowsOf() {
  Value elementBytes =
      constIndex(getElementSizeInBytes(updatesType.getElementType()));
  Value rowBytes = elementBytes;
  for (int64_t d = tiled + 1; d < updatesType.getRank(); ++d)
    rowBytes = arith::MulIOp::create(b, loc, rowBytes, tensorDim(updates, d));
  Value destRowBytes = elementBytes;
  for (int64_t d = shape.dims[tiled].readDataDim + 1; d < destType.getRank();
       ++d)
    destRowBytes =
        arith::MulIOp::create(b, loc, destRowBytes, tensorDim(dest, d));
  return arith::DivUIOp::create(
      b, loc, constIndex(kTileBytes),
      arith::MaxUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, rowBytes, destRowBytes),
          constIndex(1)));
}

Value ScatterEmitter::emit() {
  takeCopy();
  for (int64_t c = 0; c < shape.tupleSize; ++c)
    axisSizes.push_back(indexToI64(tensorDim(dest, shape.indexedDim(c))));
  bool asserts = report == ErrorReport::Asserts;
  // Whether every check passed (null: nothing to check, or asserted).
  Value ok;
  SmallVector<Rule> rules = runTimeRules();
  for (const Rule &rule : rules) {
    if (asserts)
      assertTrue(rule.ok, rule.message);
    else
      ok = ok ? andI(ok, rule.ok) : rule.ok;
  }
  if (!asserts)
    reportFirst(rules);
  if (mode == GatherMode::check || mode == GatherMode::clamp ||
      mode == GatherMode::wrap) {
    // Whether all are valid, by a scan that only and-reduces (which LLVM
    // vectorizes); only when one is not, a second scan finds the first.
    SmallVector<Value> scan = scanIndices(/*firstBad=*/false);
    if (!asserts) {
      // A shape rule that failed was reported first.
      Value failed = notI(scan[0]);
      if (ok)
        failed = andI(ok, failed);
      auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> first = scanIndices(/*firstBad=*/true);
      emitIndexError(b, loc, op, first[2], first[1], first[3]);
      b.setInsertionPointAfter(ifOp);
      ok = ok ? andI(ok, scan[0]) : scan[0];
    }
  }
  return scatterAll(ok);
}

struct ScatterToSCF : OpInterfaceConversionPattern<ScatterOpInterface> {
  ScatterToSCF(MLIRContext *context, ErrorReport report,
               ScatterThreads threading)
      : OpInterfaceConversionPattern(context), report(report),
        threading(threading) {}

  LogicalResult
  matchAndRewrite(ScatterOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<GatherShape> shape = op.getGatherShape();
    if (failed(shape) || !shape->ranked)
      return rewriter.notifyMatchFailure(op, "op does not verify");
    for (Value v : op->getOperands())
      if (!hasCountableStaticSizes(v.getType()))
        return rewriter.notifyMatchFailure(
            op, "an operand's static sizes overflow int64");
    rewriter.replaceOp(op, emitScatter(rewriter, op, operands[0], operands[1],
                                       operands[2], report, threading));
    // A copy into dest that the scatter's tiles now make (takeCopy) is
    // dead: bufferized, it would write the buffer a second time.
    auto copy = operands[0].getDefiningOp<linalg::CopyOp>();
    if (copy && llvm::all_of(copy->getUsers(),
                             [&](Operation *user) { return user == op; }))
      rewriter.eraseOp(copy);
    return success();
  }

  ErrorReport report;
  ScatterThreads threading;
};

struct ConvertScatterToSCFPass
    : gather::impl::ConvertScatterToSCFBase<ConvertScatterToSCFPass> {
  using Base::Base;

  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalOp<ScatterOp, ScatterElementsOp, ScatterNDOp>();
    RewritePatternSet patterns(&getContext());
    populateScatterToSCFPatterns(patterns, ErrorReport::Hooks,
                                 {parallel, parallelMinBytes});
    if (failed(
            applyLoweringPatterns(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateScatterToSCFPatterns(RewritePatternSet &patterns,
                                                ErrorReport report,
                                                ScatterThreads threading) {
  patterns.add<ScatterToSCF>(patterns.getContext(), report, threading);
}

Value mlir::gather::emitScatter(OpBuilder &b, ScatterOpInterface op, Value dest,
                                Value indices, Value updates,
                                ErrorReport report, ScatterThreads threading) {
  GatherShape shape = *op.getGatherShape();
  return ScatterEmitter(b, op, shape, dest, indices, updates, report, threading)
      .emit();
}
