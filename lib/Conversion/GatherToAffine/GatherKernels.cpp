//===- GatherKernels.cpp - Loop nests of the gather ops ---------*- C++ -*-===//
//
// The one place that knows how a gather op becomes loops on memrefs. Both the
// convert-gather-to-affine patterns and the One-Shot Bufferize model of the
// ops call emitGatherKernel.
//
// Every kernel has the same two phases:
//  1. validation, for the modes that can fail (`check`; and `clamp`/`wrap`,
//     which fail only along an empty dimension): the indices are scanned and
//     the first bad one is reported through the runtime hook. Nothing of
//     `data` is read in this phase.
//  2. the gather proper, skipped when validation failed. Index values are
//     read as i64, normalized (negative values count from the end), and
//     mapped to an in-bounds subscript by the mode; `fill` guards each read
//     and writes zero instead.
//
//===----------------------------------------------------------------------===//

#include "gather-c/Runtime.h"
#include "gather/Conversion/GatherToAffine/GatherToAffine.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::gather;

namespace {

/// The op codes the runtime hook receives.
enum class HookOpCode : int64_t {
  Gather = GATHER_MLIR_OP_GATHER,
  GatherElements = GATHER_MLIR_OP_GATHER_ELEMENTS,
  GatherND = GATHER_MLIR_OP_GATHER_ND
};

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
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, Operation *op, HookOpCode opCode, GatherMode mode,
                const GatherLoweringOptions &options, Value data, Value indices,
                Value out)
      : b(b), op(op), loc(op->getLoc()), opCode(opCode), mode(mode),
        options(options), data(data), indices(indices), out(out),
        sliceData(data), sliceOut(out) {}

  void emitGather(const GatherShape &shape);
  void emitGatherElements(const GatherShape &shape);
  void emitGatherND(const GatherShape &shape);

private:
  //===--- Building blocks ------------------------------------------------===//

  Value constIndex(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value constI64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  /// n - n mod lanes: where full vectors end (a constant when n is).
  Value fullVectors(Value n, int64_t lanes) {
    AffineExpr s0 = b.getAffineSymbolExpr(0);
    return getValueOrCreateConstantIndexOp(
        b, loc,
        affine::makeComposedFoldedAffineApply(b, loc, s0 - s0 % lanes, {n}));
  }
  Value dim(Value memref, int64_t d) {
    return getValueOrCreateConstantIndexOp(
        b, loc, memref::getMixedSize(b, loc, memref, d));
  }
  SmallVector<Value> dims(Value memref, int64_t from, int64_t to) {
    SmallVector<Value> result;
    for (int64_t d = from; d < to; ++d)
      result.push_back(dim(memref, d));
    return result;
  }

  /// for iv = 0 to ub step `step`: body(iv). affine.for when the bound is a
  /// valid affine symbol, scf.for otherwise; scf.parallel if `parallel`.
  void forLoop(Value ub, int64_t step, function_ref<void(Value)> body,
               bool parallel = false);
  /// A nest of unit-step loops over [0, ubs[i]).
  void loopNest(ArrayRef<Value> ubs, function_ref<void(ValueRange)> body,
                SmallVector<Value> ivs = {});
  /// loopNest whose outermost loop is parallel when the options ask for it:
  /// for the gather phase, where iterations write disjoint results.
  void parallelNest(ArrayRef<Value> ubs, function_ref<void(ValueRange)> body);
  /// if (cond) then() else otherwise().
  void ifThenElse(Value cond, function_ref<void()> then,
                  function_ref<void()> otherwise = nullptr);

  /// Loads and stores: affine forms where every subscript is an affine dim.
  Value load(Value memref, ValueRange subscripts);
  void store(Value value, Value memref, ValueRange subscripts);

  Value zero(Type type);
  /// An i64 constant, or a splat of it shaped like `like` (a vector type).
  Value constI64Like(Type like, int64_t v);
  /// Index values (scalar or vector; any integer width or index) as i64.
  Value toI64(Value raw);
  /// The index element at `subscripts` of `indices`, sign-extended to i64.
  Value readIndex(ValueRange subscripts);
  /// -s <= i < 0 means i + s (i64 scalars or vectors; s is scalar). Cannot
  /// overflow: s >= 0 > i.
  Value normalize(Value i, Value s);
  /// Whether the normalized index n is in [0, s) (or, if `outside`, not):
  /// one unsigned compare.
  Value inRange(Value n, Value s, bool outside = false);
  /// Visits a row of `n` elements in vectors of `lanes`: chunk(j, null,
  /// lanes) for each full vector (in blocks of `unroll`), then chunk(j,
  /// mask, count) for the partial tail, if there can be one.
  void forEachChunk(Value n, int64_t lanes, int64_t unroll,
                    function_ref<void(Value, Value, Value)> chunk);
  /// Applies normalization and the mode to index value `i` along a
  /// dimension of size `s` (both i64).
  Subscript resolve(Value i, Value s);
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
  /// when nothing can fail).
  Value
  validate(ArrayRef<Value> positions, ArrayRef<Value> sizes,
           function_ref<SmallVector<IndexComponent>(ValueRange)> components,
           Value shapesOk);
  /// check mode along one row of `n` indices at `prefix`, all selecting
  /// along a dimension of size `s` (i64): vector chunks are tested at once;
  /// a chunk with a bad index is rescanned by `checkAt` to report the first.
  void checkRow(ValueRange prefix, Value n, Value s, int64_t lanes,
                function_ref<void(ValueRange)> checkAt);
  /// Runs `body` only if `ok` (null means always).
  void guarded(Value ok, function_ref<void()> body);

  /// Copies data[dataPrefix, j...] to out[outPrefix, j...] for j over
  /// `extents` (the trailing data dimensions after the prefix, computed
  /// outside the loops); writes zeros instead where `valid` is false.
  void copySlice(ValueRange dataPrefix, ValueRange outPrefix,
                 ArrayRef<Value> extents, Value valid);
  /// The contiguous innermost run of copySlice: vector chunks, masked tail.
  void copyRow(ValueRange dataPrefix, ValueRange outPrefix, Value n,
               bool zeros);
  /// A row of `n` results along the innermost dimension of both `indices`
  /// and `out`, each reading `data` along its innermost dimension (gather
  /// along the last axis, gather_elements along the last axis): vector.gather
  /// over full vectors and a masked tail.
  void gatherRow(ValueRange dataPrefix, ValueRange indexPrefix,
                 ValueRange outPrefix, Value n, Value axisSize, int64_t lanes);
  /// Lanes for gatherRow, or 0 when the row does not vectorize.
  int64_t gatherRowLanes();
  /// Lanes per vector for the element type, or 0 when it does not vectorize.
  int64_t vectorLanes(Type element) const;
  /// Prepares copySlice for slices that are data dims [dataFrom, r) and out
  /// dims [outFrom, R): when both are contiguous, views them as one row so
  /// short trailing dims still fill whole vectors. Returns the extents.
  SmallVector<Value> prepareSlices(int64_t dataFrom, int64_t outFrom);

  OpBuilder &b;
  Operation *op;
  Location loc;
  /// Which op the validation phase reports for.
  HookOpCode opCode;
  GatherMode mode;
  const GatherLoweringOptions &options;
  Value data, indices, out;
  /// What copySlice reads and writes: data and out, or views of them with
  /// the slice dims collapsed (prepareSlices).
  Value sliceData, sliceOut;
};

} // namespace

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

/// Whether the innermost dimension of `memref` has unit stride.
static bool hasUnitInnerStride(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return type.getRank() > 0 && type.isLastDimUnitStride();
}

void KernelEmitter::forLoop(Value ub, int64_t step,
                            function_ref<void(Value)> body, bool parallel) {
  if (getConstantIntValue(ub) == 0)
    return; // No iteration: emit nothing.
  OpBuilder::InsertionGuard guard(b);
  Block *bodyBlock;
  Value iv;
  if (parallel) {
    auto loop =
        scf::ParallelOp::create(b, loc, ValueRange{constIndex(0)},
                                ValueRange{ub}, ValueRange{constIndex(step)});
    bodyBlock = loop.getBody();
    iv = loop.getInductionVars().front();
  } else if (affine::isValidSymbol(ub)) {
    AffineMap lbMap = b.getConstantAffineMap(0);
    AffineMap ubMap = AffineMap::get(0, 1, b.getAffineSymbolExpr(0));
    auto loop = affine::AffineForOp::create(b, loc, ValueRange{}, lbMap,
                                            ValueRange{ub}, ubMap, step);
    bodyBlock = loop.getBody();
    iv = loop.getInductionVar();
  } else {
    auto loop = scf::ForOp::create(b, loc, constIndex(0), ub, constIndex(step));
    bodyBlock = loop.getBody();
    iv = loop.getInductionVar();
  }
  b.setInsertionPoint(bodyBlock->getTerminator());
  body(iv);
}

void KernelEmitter::loopNest(ArrayRef<Value> ubs,
                             function_ref<void(ValueRange)> body,
                             SmallVector<Value> ivs) {
  if (ubs.empty())
    return body(ivs);
  forLoop(ubs.front(), 1, [&](Value iv) {
    SmallVector<Value> inner = ivs;
    inner.push_back(iv);
    loopNest(ubs.drop_front(), body, inner);
  });
}

void KernelEmitter::parallelNest(ArrayRef<Value> ubs,
                                 function_ref<void(ValueRange)> body) {
  if (ubs.empty() || !options.parallel)
    return loopNest(ubs, body);
  forLoop(
      ubs.front(), 1, [&](Value iv) { loopNest(ubs.drop_front(), body, {iv}); },
      /*parallel=*/true);
}

void KernelEmitter::ifThenElse(Value cond, function_ref<void()> then,
                               function_ref<void()> otherwise) {
  OpBuilder::InsertionGuard guard(b);
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/!!otherwise);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  then();
  if (otherwise) {
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    otherwise();
  }
}

static bool allAffineDims(ValueRange values) {
  return llvm::all_of(values, [](Value v) { return affine::isValidDim(v); });
}

Value KernelEmitter::load(Value memref, ValueRange subscripts) {
  if (allAffineDims(subscripts))
    return affine::AffineLoadOp::create(b, loc, memref, subscripts);
  return memref::LoadOp::create(b, loc, memref, subscripts);
}

void KernelEmitter::store(Value value, Value memref, ValueRange subscripts) {
  if (allAffineDims(subscripts))
    affine::AffineStoreOp::create(b, loc, value, memref, subscripts);
  else
    memref::StoreOp::create(b, loc, value, memref, subscripts);
}

Value KernelEmitter::zero(Type type) {
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Attribute z = b.getZeroAttr(complexType.getElementType());
    return complex::ConstantOp::create(b, loc, complexType,
                                       b.getArrayAttr({z, z}));
  }
  if (auto vectorType = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vectorType,
        DenseElementsAttr::get(vectorType,
                               b.getZeroAttr(vectorType.getElementType())));
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

Value KernelEmitter::constI64Like(Type like, int64_t v) {
  auto vectorType = dyn_cast<VectorType>(like);
  if (!vectorType)
    return constI64(v);
  auto type = VectorType::get(vectorType.getShape(), b.getI64Type());
  return arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getI64IntegerAttr(v)));
}

Value KernelEmitter::toI64(Value raw) {
  Type i64 = b.getI64Type();
  if (auto vectorType = dyn_cast<VectorType>(raw.getType()))
    i64 = VectorType::get(vectorType.getShape(), i64);
  Type element = getElementTypeOrSelf(raw.getType());
  if (element.isIndex())
    return arith::IndexCastOp::create(b, loc, i64, raw);
  if (element.getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(b, loc, i64, raw);
  return raw;
}

Value KernelEmitter::readIndex(ValueRange subscripts) {
  return toI64(load(indices, subscripts));
}

Value KernelEmitter::normalize(Value i, Value s) {
  if (isa<VectorType>(i.getType()))
    s = vector::BroadcastOp::create(b, loc, i.getType(), s);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                         constI64Like(i.getType(), 0));
  return arith::SelectOp::create(b, loc, negative,
                                 arith::AddIOp::create(b, loc, i, s), i);
}

Value KernelEmitter::inRange(Value n, Value s, bool outside) {
  if (isa<VectorType>(n.getType()))
    s = vector::BroadcastOp::create(b, loc, n.getType(), s);
  return arith::CmpIOp::create(
      b, loc, outside ? arith::CmpIPredicate::uge : arith::CmpIPredicate::ult,
      n, s);
}

void KernelEmitter::forEachChunk(
    Value n, int64_t lanes, int64_t unroll,
    function_ref<void(Value, Value, Value)> chunk) {
  Value count = constIndex(lanes);
  Value blocks = fullVectors(n, lanes * unroll);
  forLoop(blocks, lanes * unroll, [&](Value j) {
    for (int64_t u = 0; u < unroll; ++u)
      chunk(u ? arith::AddIOp::create(b, loc, j, constIndex(u * lanes))
                    .getResult()
              : j,
            nullptr, count);
  });
  Value full = fullVectors(n, lanes);
  Value singles = b.createOrFold<arith::SubIOp>(loc, full, blocks);
  forLoop(singles, lanes, [&](Value t) {
    chunk(arith::AddIOp::create(b, loc, blocks, t), nullptr, count);
  });
  std::optional<int64_t> staticN = getConstantIntValue(n);
  if (staticN && *staticN % lanes == 0)
    return;
  auto tail = [&] {
    Value rest = b.createOrFold<arith::SubIOp>(loc, n, full);
    auto maskType = VectorType::get({lanes}, b.getI1Type());
    chunk(full, vector::CreateMaskOp::create(b, loc, maskType, rest), rest);
  };
  if (staticN)
    return tail();
  ifThenElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, n, full),
             tail);
}

Subscript KernelEmitter::resolve(Value i, Value size) {
  // Works lane-wise on vectors of indices too: constants and the size are
  // splat to i's type.
  auto vectorType = dyn_cast<VectorType>(i.getType());
  auto constI64 = [&](int64_t v) { return constI64Like(i.getType(), v); };
  Value s =
      vectorType ? vector::BroadcastOp::create(b, loc, vectorType, size) : size;
  Value c0 = constI64(0);
  auto toIndex = [&](Value v) -> Value {
    if (vectorType) // vector.gather takes i64 offsets as they are.
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  };
  if (mode == GatherMode::wrap) {
    // Python modulo: the remainder takes the divisor's sign. Validation has
    // already rejected s == 0; the max keeps the division defined anyway.
    Value divisor = arith::MaxSIOp::create(b, loc, s, constI64(1));
    Value rem = arith::RemSIOp::create(b, loc, i, divisor);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, c0);
    Value shifted = arith::AddIOp::create(b, loc, rem, divisor);
    return {toIndex(arith::SelectOp::create(b, loc, negative, shifted, rem)),
            nullptr};
  }
  Value n = normalize(i, size);
  switch (mode) {
  case GatherMode::clamp: {
    Value upper = arith::SubIOp::create(b, loc, s, constI64(1));
    Value clamped = arith::MaxSIOp::create(
        b, loc, arith::MinSIOp::create(b, loc, n, upper), c0);
    return {toIndex(clamped), nullptr};
  }
  case GatherMode::fill: {
    Value valid = inRange(n, size);
    return {toIndex(arith::SelectOp::create(b, loc, valid, n, c0)), valid};
  }
  case GatherMode::check:     // Validated before the gather runs.
  case GatherMode::unchecked: // The caller promised in-range indices.
  case GatherMode::wrap:
    break;
  }
  return {toIndex(n), nullptr};
}

//===----------------------------------------------------------------------===//
// Phase 1: validation
//===----------------------------------------------------------------------===//

void mlir::gather::declareErrorHook(OpBuilder &b, Operation *op,
                                    StringRef name) {
  Operation *table = SymbolTable::getNearestSymbolTable(op);
  if (SymbolTable::lookupSymbolIn(table, name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&table->getRegion(0).front());
  unsigned arity = name == kShapeErrorHook ? 5 : 4;
  auto hook = func::FuncOp::create(
      b, op->getLoc(), name,
      b.getFunctionType(SmallVector<Type>(arity, b.getI64Type()), {}));
  hook.setPrivate();
}

Value KernelEmitter::validateShapes(const GatherShape &shape) {
  if (mode == GatherMode::unchecked)
    return nullptr;
  auto dataType = cast<MemRefType>(data.getType());
  auto indicesType = cast<MemRefType>(indices.getType());
  auto outType = cast<MemRefType>(out.getType());
  // (rule, dim, a, b): the rule holds when a == b, or, for gather_elements'
  // rule, b <= a. Only pairs that involve a dynamic dim need run-time tests.
  struct Rule {
    int64_t rule, dim;
    Value a, b;
  };
  SmallVector<Rule> rules;
  auto needsTest = [](MemRefType x, int64_t dx, MemRefType y, int64_t dy) {
    return x.isDynamicDim(dx) || y.isDynamicDim(dy);
  };
  bool elements = opCode == HookOpCode::GatherElements;
  int64_t count = elements ? indicesType.getRank() : shape.batchDims;
  for (int64_t d = 0; d < count; ++d)
    if ((!elements || d != shape.axis) &&
        needsTest(dataType, d, indicesType, d))
      rules.push_back({elements ? GATHER_MLIR_RULE_ELEMENTS_DIM
                                : GATHER_MLIR_RULE_BATCH_DIM,
                       d, dimI64(data, d), dimI64(indices, d)});
  // The result buffer has the size the operands give: its static dims, and
  // every dim of a destination that is not an allocation sized from them.
  bool sizedFromOperands = out.getDefiningOp<memref::AllocOp>() != nullptr;
  for (auto [d, src] : llvm::enumerate(shape.dims)) {
    bool fromData = src.dataDim >= 0;
    MemRefType srcType = fromData ? dataType : indicesType;
    int64_t srcDim = fromData ? src.dataDim : src.indicesDim;
    if (!needsTest(outType, d, srcType, srcDim) ||
        (sizedFromOperands && outType.isDynamicDim(d)))
      continue;
    rules.push_back({GATHER_MLIR_RULE_RESULT_DIM, static_cast<int64_t>(d),
                     dimI64(out, d), dimI64(fromData ? data : indices, srcDim)});
  }
  if (rules.empty())
    return nullptr;
  declareErrorHook(b, op, kShapeErrorHook);
  Value ok = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value isFalse = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  for (const Rule &r : rules) {
    Value holds = arith::CmpIOp::create(
        b, loc,
        r.rule == GATHER_MLIR_RULE_ELEMENTS_DIM ? arith::CmpIPredicate::sle
                                                : arith::CmpIPredicate::eq,
        r.b, r.a);
    Value broken =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, holds, isFalse);
    // Report only the first rule that fails.
    ifThenElse(arith::AndIOp::create(b, loc, ok, broken), [&] {
      func::CallOp::create(b, loc, kShapeErrorHook, TypeRange{},
                           ValueRange{constI64(static_cast<int64_t>(opCode)),
                                      constI64(r.rule), constI64(r.dim), r.a,
                                      r.b});
    });
    ok = arith::AndIOp::create(b, loc, ok, holds);
  }
  return ok;
}

Value KernelEmitter::validate(
    ArrayRef<Value> positions, ArrayRef<Value> sizes,
    function_ref<SmallVector<IndexComponent>(ValueRange)> components,
    Value shapesOk) {
  if (mode == GatherMode::fill || mode == GatherMode::unchecked)
    return shapesOk;
  // clamp and wrap define a result for every index except along an empty
  // dimension, where any index at all is an error: checking the first
  // position is enough, and nothing when no dimension can be empty. check
  // looks at every index.
  bool everyIndex = mode == GatherMode::check;
  auto nonEmpty = [](Value size) {
    std::optional<int64_t> c = getConstantIntValue(size);
    return c && *c > 0;
  };
  if (!everyIndex && llvm::all_of(sizes, nonEmpty))
    return shapesOk;
  declareErrorHook(b, op, kIndexErrorHook);
  SmallVector<Value> bounds(positions);
  if (!everyIndex)
    for (Value &ub : bounds)
      ub = arith::MinUIOp::create(b, loc, ub, constIndex(1));

  // report = [failed, op, data dim, index, dim size], first failure wins.
  Type i64 = b.getI64Type();
  auto reportType = MemRefType::get({5}, i64);
  Value report = memref::AllocaOp::create(b, loc, reportType);
  Value c0 = constIndex(0);
  memref::StoreOp::create(b, loc, constI64(0), report, c0);

  auto checkAt = [&](ValueRange ivs) {
    for (const IndexComponent &c : components(ivs)) {
      Value s = c.size;
      Value bad = everyIndex
                      ? inRange(normalize(c.value, s), s, /*outside=*/true)
                      : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              s, constI64(0))
                            .getResult();
      ifThenElse(bad, [&] {
        Value failed = memref::LoadOp::create(b, loc, report, c0);
        Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            failed, constI64(0));
        ifThenElse(first, [&] {
          int64_t fields[] = {1, static_cast<int64_t>(opCode), c.dataDim};
          for (auto [pos, field] : llvm::enumerate(fields))
            memref::StoreOp::create(b, loc, constI64(field), report,
                                    constIndex(pos));
          memref::StoreOp::create(b, loc, c.value, report, constIndex(3));
          memref::StoreOp::create(b, loc, s, report, constIndex(4));
        });
      });
    }
  };
  // One index per position (gather, gather_elements: the positions are all
  // of `indices`) in check mode: test a vector of indices at once and rescan
  // only a chunk that has a bad one.
  auto indicesType = cast<MemRefType>(indices.getType());
  bool onePerPosition =
      sizes.size() == 1 && !bounds.empty() &&
      static_cast<int64_t>(bounds.size()) == indicesType.getRank();
  int64_t lanes = everyIndex && onePerPosition && hasUnitInnerStride(indices)
                      ? vectorLanes(indicesType.getElementType())
                      : 0;
  if (!lanes)
    loopNest(bounds, checkAt);
  else
    loopNest(ArrayRef(bounds).drop_back(), [&](ValueRange prefix) {
      checkRow(prefix, bounds.back(), sizes.front(), lanes, checkAt);
    });

  Value failed = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      memref::LoadOp::create(b, loc, report, c0), constI64(0));
  Value mustReport = failed;
  if (shapesOk)
    mustReport = arith::AndIOp::create(b, loc, failed, shapesOk);
  ifThenElse(mustReport, [&] {
    SmallVector<Value> args;
    for (int64_t pos = 1; pos < 5; ++pos)
      args.push_back(memref::LoadOp::create(b, loc, report, constIndex(pos)));
    func::CallOp::create(b, loc, kIndexErrorHook, TypeRange{}, args);
  });
  Value ok = arith::XOrIOp::create(
      b, loc, failed, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  return shapesOk ? arith::AndIOp::create(b, loc, ok, shapesOk).getResult()
                  : ok;
}

void KernelEmitter::checkRow(ValueRange prefix, Value n, Value s, int64_t lanes,
                             function_ref<void(ValueRange)> checkAt) {
  Type element = cast<MemRefType>(indices.getType()).getElementType();
  auto indexType = VectorType::get({lanes}, element);
  auto at = [&](Value j) {
    SmallVector<Value> v(prefix);
    v.push_back(j);
    return v;
  };
  forEachChunk(n, lanes, /*unroll=*/1, [&](Value j, Value mask, Value count) {
    Value raw = mask
                    ? vector::MaskedLoadOp::create(b, loc, indexType, indices,
                                                   at(j), mask, zero(indexType))
                          .getResult()
                    : vector::LoadOp::create(b, loc, indexType, indices, at(j))
                          .getResult();
    Value bad = inRange(normalize(toI64(raw), s), s, /*outside=*/true);
    if (mask)
      bad = arith::AndIOp::create(b, loc, bad, mask);
    Value any =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, bad);
    // Rescan positions [j, j + count) one by one to report the first.
    ifThenElse(any, [&] {
      forLoop(count, 1, [&](Value t) {
        checkAt(at(arith::AddIOp::create(b, loc, j, t)));
      });
    });
  });
}

void KernelEmitter::guarded(Value ok, function_ref<void()> body) {
  if (!ok)
    return body();
  ifThenElse(ok, body);
}

//===----------------------------------------------------------------------===//
// Phase 2: moving data
//===----------------------------------------------------------------------===//

int64_t KernelEmitter::vectorLanes(Type element) const {
  if (!options.vectorize)
    return 0;
  // Only byte-multiple scalars have the same layout in a vector as in memory
  // (i1 vectors pack bits); complex values are structs.
  if (!element.isIntOrFloat())
    return 0;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 64 || !llvm::isPowerOf2_32(bits))
    return 0;
  int64_t lanes = options.vectorBits / bits;
  return lanes >= 2 ? lanes : 0;
}

void KernelEmitter::copyRow(ValueRange dataPrefix, ValueRange outPrefix,
                            Value n, bool zeros) {
  Type element = cast<MemRefType>(out.getType()).getElementType();
  int64_t lanes = vectorLanes(element);
  // A static row gets vectors no longer than itself.
  if (std::optional<int64_t> staticN = getConstantIntValue(n))
    lanes = std::min<int64_t>(lanes, llvm::bit_floor(uint64_t(*staticN)));
  auto at = [](ValueRange prefix, Value j) {
    SmallVector<Value> s(prefix);
    s.push_back(j);
    return s;
  };
  if (lanes < 2 || !hasUnitInnerStride(sliceData) ||
      !hasUnitInnerStride(sliceOut)) {
    forLoop(n, 1, [&](Value j) {
      store(zeros ? zero(element) : load(sliceData, at(dataPrefix, j)),
            sliceOut, at(outPrefix, j));
    });
    return;
  }
  auto vectorType = VectorType::get({lanes}, element);
  // Long rows are memory-bound: blocks of four vectors keep several loads in
  // flight per iteration.
  forEachChunk(n, lanes, /*unroll=*/4, [&](Value j, Value mask, Value) {
    Value v = zero(vectorType);
    if (!zeros)
      v = mask ? vector::MaskedLoadOp::create(b, loc, vectorType, sliceData,
                                              at(dataPrefix, j), mask, v)
                     .getResult()
               : vector::LoadOp::create(b, loc, vectorType, sliceData,
                                        at(dataPrefix, j))
                     .getResult();
    if (mask)
      vector::MaskedStoreOp::create(b, loc, sliceOut, at(outPrefix, j), mask,
                                    v);
    else
      vector::StoreOp::create(b, loc, v, sliceOut, at(outPrefix, j));
  });
}

SmallVector<Value> KernelEmitter::prepareSlices(int64_t dataFrom,
                                                int64_t outFrom) {
  auto contiguous = [](Value v) {
    return cast<MemRefType>(v.getType()).getLayout().isIdentity();
  };
  // A group collapses to a valid type only when its static sizes are all
  // non-zero (a 0 beside a ? has no collapsed size: the slice is empty
  // anyway) and their product fits in int64.
  auto collapsible = [](Value v, int64_t from) {
    int64_t product = 1;
    for (int64_t size : cast<MemRefType>(v.getType()).getShape().drop_front(
             from)) {
      if (size == 0)
        return false;
      if (!ShapedType::isDynamic(size) &&
          llvm::MulOverflow(product, size, product))
        return false;
    }
    return true;
  };
  int64_t rank = cast<MemRefType>(data.getType()).getRank();
  int64_t outRank = cast<MemRefType>(out.getType()).getRank();
  if (rank - dataFrom < 2 || !contiguous(data) || !contiguous(out) ||
      !collapsible(data, dataFrom) || !collapsible(out, outFrom))
    return dims(data, dataFrom, rank);
  auto collapse = [&](Value memref, int64_t from, int64_t r) -> Value {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < from; ++d)
      groups.push_back({d});
    groups.emplace_back(llvm::to_vector(llvm::seq<int64_t>(from, r)));
    return memref::CollapseShapeOp::create(b, loc, memref, groups);
  };
  sliceData = collapse(data, dataFrom, rank);
  sliceOut = collapse(out, outFrom, outRank);
  return {dim(sliceData, dataFrom)};
}

void KernelEmitter::copySlice(ValueRange dataPrefix, ValueRange outPrefix,
                              ArrayRef<Value> extents, Value valid) {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  auto copy = [&](bool zeros) {
    if (extents.empty()) {
      store(zeros ? zero(element) : load(sliceData, dataPrefix), sliceOut,
            outPrefix);
      return;
    }
    // Loops over the slice's outer dimensions; the innermost is one row.
    Value n = extents.back();
    loopNest(extents.drop_back(), [&](ValueRange ivs) {
      SmallVector<Value> src(dataPrefix), dst(outPrefix);
      src.append(ivs.begin(), ivs.end());
      dst.append(ivs.begin(), ivs.end());
      copyRow(src, dst, n, zeros);
    });
  };
  if (!valid)
    return copy(false);
  ifThenElse(
      valid, [&] { copy(false); }, [&] { copy(true); });
}

int64_t KernelEmitter::gatherRowLanes() {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  if (!hasUnitInnerStride(data) || !hasUnitInnerStride(indices) ||
      !hasUnitInnerStride(out))
    return 0;
  return vectorLanes(element);
}

void KernelEmitter::gatherRow(ValueRange dataPrefix, ValueRange indexPrefix,
                              ValueRange outPrefix, Value n, Value axisSize,
                              int64_t lanes) {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  Type indexElement = cast<MemRefType>(indices.getType()).getElementType();
  auto valueType = VectorType::get({lanes}, element);
  auto indexType = VectorType::get({lanes}, indexElement);
  auto maskType = VectorType::get({lanes}, b.getI1Type());
  auto at = [](ValueRange p, Value j) {
    SmallVector<Value> s(p);
    s.push_back(j);
    return s;
  };
  SmallVector<Value> rowBase(dataPrefix);
  rowBase.push_back(constIndex(0));

  forEachChunk(n, lanes, /*unroll=*/1, [&](Value j, Value inBounds, Value) {
    Value raw = inBounds
                    ? vector::MaskedLoadOp::create(b, loc, indexType, indices,
                                                   at(indexPrefix, j), inBounds,
                                                   zero(indexType))
                          .getResult()
                    : vector::LoadOp::create(b, loc, indexType, indices,
                                             at(indexPrefix, j))
                          .getResult();
    Subscript s = resolve(toI64(raw), axisSize);
    Value mask = s.valid;
    if (inBounds)
      mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds).getResult()
                  : inBounds;
    if (!mask)
      mask = vector::ConstantMaskOp::create(b, loc, maskType,
                                            ArrayRef<int64_t>{lanes});
    Value v = vector::GatherOp::create(b, loc, valueType, data, rowBase,
                                       s.index, mask, zero(valueType));
    if (inBounds)
      vector::MaskedStoreOp::create(b, loc, out, at(outPrefix, j), inBounds, v);
    else
      vector::StoreOp::create(b, loc, v, out, at(outPrefix, j));
  });
}

//===----------------------------------------------------------------------===//
// The three kernels
//===----------------------------------------------------------------------===//

void KernelEmitter::emitGather(const GatherShape &shape) {
  int64_t a = shape.axis, bd = shape.batchDims;
  int64_t q = cast<MemRefType>(indices.getType()).getRank();
  int64_t r = cast<MemRefType>(data.getType()).getRank();
  Value axisSize = dimI64(data, a);

  Value ok = validate(
      dims(indices, 0, q), axisSize,
      [&](ValueRange ivs) {
        return SmallVector<IndexComponent>{{readIndex(ivs), axisSize, a}};
      },
      validateShapes(shape));
  // Along the last axis with an index dimension innermost, each result row
  // reads one data row at the positions of one index row.
  int64_t lanes = a == r - 1 && q > bd ? gatherRowLanes() : 0;
  if (lanes) {
    return guarded(ok, [&] {
      SmallVector<Value> ubs = dims(out, 0, a + q - bd);
      parallelNest(ArrayRef(ubs).drop_back(), [&](ValueRange ivs) {
        SmallVector<Value> indexPrefix(ivs.take_front(bd));
        indexPrefix.append(ivs.begin() + a, ivs.end());
        gatherRow(ivs.take_front(a), indexPrefix, ivs, ubs.back(), axisSize,
                  lanes);
      });
    });
  }
  guarded(ok, [&] {
    // Loop over the result's leading dims: data[:axis] then indices[b:].
    SmallVector<Value> ubs = dims(out, 0, a + q - bd);
    SmallVector<Value> extents = prepareSlices(a + 1, a + q - bd);
    parallelNest(ubs, [&](ValueRange ivs) {
      SmallVector<Value> indexAt(ivs.take_front(bd));
      indexAt.append(ivs.begin() + a, ivs.end());
      Subscript s = resolve(readIndex(indexAt), axisSize);
      SmallVector<Value> dataPrefix(ivs.take_front(a));
      dataPrefix.push_back(s.index);
      copySlice(dataPrefix, ivs, extents, s.valid);
    });
  });
}

void KernelEmitter::emitGatherElements(const GatherShape &shape) {
  int64_t a = shape.axis;
  int64_t r = cast<MemRefType>(indices.getType()).getRank();
  Value axisSize = dimI64(data, a);
  SmallVector<Value> ubs = dims(indices, 0, r);

  Value ok = validate(
      ubs, axisSize,
      [&](ValueRange ivs) {
        return SmallVector<IndexComponent>{{readIndex(ivs), axisSize, a}};
      },
      validateShapes(shape));
  if (int64_t lanes = a == r - 1 ? gatherRowLanes() : 0) {
    return guarded(ok, [&] {
      parallelNest(ArrayRef(ubs).drop_back(), [&](ValueRange ivs) {
        gatherRow(ivs, ivs, ivs, ubs.back(), axisSize, lanes);
      });
    });
  }
  guarded(ok, [&] {
    parallelNest(ubs, [&](ValueRange ivs) {
      Subscript s = resolve(readIndex(ivs), axisSize);
      SmallVector<Value> at(ivs);
      at[a] = s.index;
      copySlice(at, ivs, /*extents=*/{}, s.valid);
    });
  });
}

void KernelEmitter::emitGatherND(const GatherShape &shape) {
  int64_t bd = shape.batchDims, k = shape.tupleSize;
  int64_t q = cast<MemRefType>(indices.getType()).getRank();
  SmallVector<Value> sizes;
  for (int64_t c = 0; c < k; ++c)
    sizes.push_back(dimI64(data, shape.indexedDim(c)));

  auto tuple = [&](ValueRange ivs) {
    SmallVector<IndexComponent> components;
    for (int64_t c = 0; c < k; ++c) {
      SmallVector<Value> at(ivs);
      at.push_back(constIndex(c));
      components.push_back({readIndex(at), sizes[c], shape.indexedDim(c)});
    }
    return components;
  };
  Value ok =
      validate(dims(indices, 0, q - 1), sizes, tuple, validateShapes(shape));
  guarded(ok, [&] {
    SmallVector<Value> extents = prepareSlices(bd + k, q - 1);
    parallelNest(dims(out, 0, q - 1), [&](ValueRange ivs) {
      SmallVector<Value> dataPrefix(ivs.take_front(bd));
      Value valid;
      for (const IndexComponent &c : tuple(ivs)) {
        Subscript s = resolve(c.value, c.size);
        dataPrefix.push_back(s.index);
        if (s.valid)
          valid =
              valid ? arith::AndIOp::create(b, loc, valid, s.valid) : s.valid;
      }
      copySlice(dataPrefix, ivs, extents, valid);
    });
  });
}

LogicalResult
mlir::gather::emitGatherKernel(OpBuilder &b, Operation *op, Value data,
                               Value indices, Value out,
                               const GatherLoweringOptions &options) {
  for (Value v : {data, indices, out})
    if (!isa<MemRefType>(v.getType()))
      return op->emitOpError("cannot lower: operands must be ranked memrefs, "
                             "got ")
             << v.getType();

  // Ops of an unloaded dialect cannot be created; say so rather than crash.
  MLIRContext *context = op->getContext();
  if (!context->getLoadedDialect<affine::AffineDialect>() ||
      !context->getLoadedDialect<complex::ComplexDialect>() ||
      !context->getLoadedDialect<func::FuncDialect>() ||
      !context->getLoadedDialect<memref::MemRefDialect>() ||
      !context->getLoadedDialect<scf::SCFDialect>() ||
      !context->getLoadedDialect<vector::VectorDialect>())
    return op->emitOpError(
        "cannot lower: the affine, complex, func, memref, scf and vector "
        "dialects must be loaded (registerAllGatherDialects loads them)");

  auto gather = dyn_cast<GatherOpInterface>(op);
  if (!gather)
    return op->emitOpError("is not a gather op");
  HookOpCode code = isa<GatherNDOp>(op)         ? HookOpCode::GatherND
                    : isa<GatherElementsOp>(op) ? HookOpCode::GatherElements
                                                : HookOpCode::Gather;
  GatherMode mode = gather.getMode();
  FailureOr<GatherShape> shape = gather.getGatherShape();
  if (failed(shape) || !shape->ranked)
    return op->emitOpError("cannot lower: the result rank is not known");

  KernelEmitter emitter(b, op, code, mode, options, data, indices, out);
  switch (code) {
  case HookOpCode::Gather:
    emitter.emitGather(*shape);
    break;
  case HookOpCode::GatherElements:
    emitter.emitGatherElements(*shape);
    break;
  case HookOpCode::GatherND:
    emitter.emitGatherND(*shape);
    break;
  }
  return success();
}
