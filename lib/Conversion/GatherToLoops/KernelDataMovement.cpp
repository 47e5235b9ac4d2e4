//===- KernelDataMovement.cpp - Phase 2 of a kernel -------------*- C++ -*-===//
//
// Moving data: contiguous rows and slices, vector gathers along a row.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::detail;

void KernelEmitter::copyRow(const SlicePlan &plan, ValueRange dataPrefix,
                            ValueRange outPrefix, Value n, bool zeros,
                            Value start) {
  // Zeros are stored by the vectors, never copied.
  emitPlanned(
      zeros ? Value() : plan.copying,
      [&] { copyRowLibrary(plan, dataPrefix, outPrefix, n, start); },
      [&] { copyRowVectors(plan, dataPrefix, outPrefix, n, zeros, start); });
}

void KernelEmitter::copyRowLibrary(const SlicePlan &plan, ValueRange dataPrefix,
                                   ValueRange outPrefix, Value n, Value start) {
  Value column = start ? start : constIndex(0);
  Value elementBytes = constIndex(getElementSizeInBytes(
      cast<MemRefType>(plan.out.getType()).getElementType()));
  Value bytes = arith::IndexCastOp::create(
      b, loc, b.getI64Type(), arith::MulIOp::create(b, loc, n, elementBytes));
  LLVM::MemcpyOp::create(
      b, loc,
      createElementPointer(b, loc, plan.out, appended(outPrefix, column),
                           elementBytes),
      createElementPointer(b, loc, plan.data, appended(dataPrefix, column),
                           elementBytes),
      bytes, /*isVolatile=*/false);
}

void KernelEmitter::copyRowVectors(const SlicePlan &plan, ValueRange dataPrefix,
                                   ValueRange outPrefix, Value n, bool zeros,
                                   Value start) {
  int64_t fullLanes = planner.rowLanes(plan), lanes = fullLanes;
  // A static row gets vectors no longer than itself.
  if (std::optional<int64_t> staticN = getConstantIntValue(n))
    lanes = std::min<int64_t>(lanes, llvm::bit_floor(uint64_t(*staticN)));
  if (lanes < 2) {
    Type element = cast<MemRefType>(out.getType()).getElementType();
    forLoop(n, 1, [&](Value j) {
      Value column = offsetBy(start, j);
      store(zeros ? zero(element)
                  : loadData(plan.data, appended(dataPrefix, column)),
            plan.out, appended(outPrefix, column));
    });
    return;
  }
  auto cached = [&] {
    copyRowCached(plan, dataPrefix, outPrefix, n, lanes, zeros, start);
  };
  if (zeros || lanes != fullLanes)
    return cached();
  auto streamed = [&] {
    copyRowAligned(plan, dataPrefix, outPrefix, n, lanes, /*streaming=*/true,
                   start);
  };
  auto aligned = [&] {
    copyRowAligned(plan, dataPrefix, outPrefix, n, lanes, /*streaming=*/false,
                   start);
  };
  emitPlanned(plan.streaming, streamed,
              [&] { emitPlanned(plan.aligning, aligned, cached); });
}

void KernelEmitter::copyRowCached(const SlicePlan &plan, ValueRange dataPrefix,
                                  ValueRange outPrefix, Value n, int64_t lanes,
                                  bool zeros, Value start) {
  Type element = cast<MemRefType>(out.getType()).getElementType();
  auto vectorType = VectorType::get({lanes}, element);
  // A vector an iteration: unrolled blocks of four were no faster on long
  // (memory-bound) rows and cost compile time
  // (docs/decisions/compile-time.md).
  forEachChunk(n, lanes, [&](Value j, Value mask, Value) {
    Value column = offsetBy(start, j);
    Value v = zeros ? zero(vectorType)
                    : loadVector(plan.data, vectorType,
                                 appended(dataPrefix, column), mask);
    storeRowVector(plan, v, appended(outPrefix, column), mask,
                   /*streaming=*/false);
  });
}

void KernelEmitter::forEachAlignedChunk(
    const SlicePlan &plan, ValueRange outPrefix, Value n, int64_t lanes,
    function_ref<void(Value, Value, Value)> chunk, Value start,
    ArrayRef<FastChunk> fast) {
  Type element = cast<MemRefType>(out.getType()).getElementType();
  int64_t elementBytes = getElementSizeInBytes(element);
  int64_t vectorBytes = lanes * elementBytes;
  auto maskType = VectorType::get({lanes}, b.getI1Type());
  // Elements before the first vector-aligned one: (-address mod vector
  // bytes) / element bytes, fewer than a vector.
  Value misalignment = arith::AndIOp::create(
      b, loc,
      arith::SubIOp::create(
          b, loc, constIndex(0),
          rowAddress(plan, start ? appended(outPrefix, start)
                                 : SmallVector<Value>(outPrefix))),
      constIndex(vectorBytes - 1));
  Value head = arith::MinUIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, misalignment, constIndex(elementBytes)),
      n);
  ifThenElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, head,
                                   constIndex(0)),
             [&] {
               chunk(constIndex(0),
                     vector::CreateMaskOp::create(b, loc, maskType, head),
                     head);
             });
  forEachChunk(arith::SubIOp::create(b, loc, n, head), lanes, chunk, fast,
               /*offset=*/head);
}

Value KernelEmitter::loadVector(Value memref, VectorType type, ValueRange at,
                                Value mask) {
  if (mask)
    return vector::MaskedLoadOp::create(b, loc, type, memref, at, mask,
                                        zero(type));
  return vector::LoadOp::create(b, loc, type, memref, at);
}

void KernelEmitter::storeRowVector(const SlicePlan &plan, Value v,
                                   ValueRange at, Value mask, bool streaming) {
  if (mask) {
    vector::MaskedStoreOp::create(b, loc, plan.out, at, mask, v);
    return;
  }
  if (!streaming) {
    vector::StoreOp::create(b, loc, v, plan.out, at);
    return;
  }
  auto type = cast<VectorType>(v.getType());
  int64_t vectorBytes =
      type.getNumElements() * type.getElementTypeBitWidth() / 8;
  vector::StoreOp::create(b, loc, v, plan.out, at, /*nontemporal=*/true,
                          b.getI64IntegerAttr(vectorBytes));
}

void KernelEmitter::copyRowAligned(const SlicePlan &plan, ValueRange dataPrefix,
                                   ValueRange outPrefix, Value n, int64_t lanes,
                                   bool streaming, Value start) {
  Type element = cast<MemRefType>(out.getType()).getElementType();
  auto vectorType = VectorType::get({lanes}, element);
  forEachAlignedChunk(
      plan, outPrefix, n, lanes,
      [&](Value j, Value mask, Value) {
        Value column = offsetBy(start, j);
        Value v = loadVector(plan.data, vectorType,
                             appended(dataPrefix, column), mask);
        storeRowVector(plan, v, appended(outPrefix, column), mask, streaming);
      },
      start);
}

void KernelEmitter::copySlice(const SlicePlan &plan, ValueRange dataPrefix,
                              ValueRange outPrefix, Value valid, Value start,
                              Value length) {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  auto copy = [&](bool zeros) {
    if (plan.extents.empty()) {
      store(zeros ? zero(element) : loadData(plan.data, dataPrefix), plan.out,
            outPrefix);
      return;
    }
    // Loops over the slice's outer dimensions; the innermost is one row.
    Value n = start ? length : plan.extents.back();
    loopNest(ArrayRef(plan.extents).drop_back(), [&](ValueRange ivs) {
      SmallVector<Value> src(dataPrefix), dst(outPrefix);
      src.append(ivs.begin(), ivs.end());
      dst.append(ivs.begin(), ivs.end());
      copyRow(plan, src, dst, n, zeros, start);
    });
  };
  if (!valid)
    return copy(false);
  ifThenElse(valid, [&] { copy(false); }, [&] { copy(true); });
}

void KernelEmitter::gatherRow(const SlicePlan &plan, ValueRange dataPrefix,
                              ValueRange indexPrefix, ValueRange outPrefix,
                              Value n, Value axisSize, int64_t lanes,
                              Value badFlag, Value start,
                              std::optional<int64_t> offAxis) {
  // Element j's column: its position in the whole row.
  auto column = [&](Value j) { return offsetBy(start, j); };
  // Position j of the row at `prefix` (an index or out row).
  auto at = [&](ValueRange prefix, Value j) {
    return appended(prefix, column(j));
  };
  // The data subscripts of element j read at subscript `s` of the axis.
  auto dataAt = [&](Value s, Value j) {
    if (!offAxis)
      return appended(dataPrefix, s);
    SmallVector<Value> subscripts(dataPrefix);
    subscripts[*offAxis] = s;
    return appended(subscripts, column(j));
  };
  // Subscripts of a non-empty row always name an element of it: check and
  // unchecked clamp the normalized index (a no-op on the indices they
  // accept, and no read out of bounds if a caller breaks unchecked's
  // promise or the indices change between validation and the gather). The
  // scalar ways below test a vector's indices, then read them again: only
  // a write to the indices during the call (a data race, or an output
  // that aliases them against the operands' `restrict`) could come in
  // between.
  GatherMode subscriptMode = clampedSubscriptMode();
  // Element j alone; a bad index (badFlag given) is flagged and not read.
  // `clamped`: subscripts as subscriptMode says (a non-empty row).
  auto one = [&](Value j, bool clamped) {
    Value i = readIndex(at(indexPrefix, j));
    if (!badFlag) {
      Subscript s = resolve(
          i, axisSize, clamped ? subscriptMode : subscriptModeAlong(axisSize));
      return copySlice(planner.elements(), dataAt(s.index, j), at(outPrefix, j),
                       s.valid);
    }
    ifThenElse(
        outOfRange(i, axisSize), [&] { setFlag(badFlag); },
        [&] {
          Subscript s = resolve(i, axisSize);
          copySlice(planner.elements(), dataAt(s.index, j), at(outPrefix, j),
                    nullptr);
        });
  };
  if (lanes == 0)
    return forLoop(n, 1, [&](Value j) { one(j, /*clamped=*/false); });
  GatherLoads loads = plan.rowLoads;
  assert(loads != GatherLoads::Auto &&
         "rows planned by KernelPlanner::gatherRows");
  // One element an iteration (GatherLoads::Element): index, subscript, load
  // and store each scalar.
  auto elementRow = [&] {
    forLoop(n, 1, [&](Value j) { one(j, /*clamped=*/true); });
  };

  Type element = cast<MemRefType>(data.getType()).getElementType();
  Type indexElement = cast<MemRefType>(indices.getType()).getElementType();
  auto valueType = VectorType::get({lanes}, element);
  auto indexType = VectorType::get({lanes}, indexElement);
  auto maskType = VectorType::get({lanes}, b.getI1Type());
  bool vectorGathers = loads == GatherLoads::Vector;
  // A vector gather reads lane l of the vector at j at an offset from
  // dataAt(0, j): the lane's subscript along the last axis; off it, the
  // subscript times the axis's stride, plus l.
  Value axisStride, laneColumns;
  if (vectorGathers && offAxis) {
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, data);
    axisStride = vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, b.getI64Type()),
        arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                   metadata.getStrides()[*offAxis]));
    laneColumns = arith::ConstantOp::create(
        b, loc, b.getI64VectorAttr(llvm::to_vector(llvm::seq<int64_t>(lanes))));
  }
  auto gatherOffsets = [&](Value subscripts) -> Value {
    if (!offAxis)
      return subscripts;
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, subscripts, axisStride),
        laneColumns);
  };
  // A vector of the row, or with `mask` a part of it: the lanes outside
  // read index 0 (in bounds once the row is not empty) and store nothing.
  auto chunk = [&](Value j, Value mask, bool streaming) {
    Value raw = loadVector(indices, indexType, at(indexPrefix, j), mask);
    Value i = widenIndex(raw);
    ResolvedIndex r = resolveIndex(b, loc, subscriptMode, i, axisSize);
    if (badFlag) {
      ifThenElse(vector::ReductionOp::create(b, loc, vector::CombiningKind::OR,
                                             outOfRange(i, axisSize)),
                 [&] { setFlag(badFlag); });
    }
    Value v;
    if (vectorGathers) {
      Value lanesRead = r.valid;
      if (mask)
        lanesRead =
            lanesRead
                ? arith::AndIOp::create(b, loc, lanesRead, mask).getResult()
                : mask;
      if (!lanesRead)
        lanesRead = vector::ConstantMaskOp::create(b, loc, maskType,
                                                   ArrayRef<int64_t>{lanes});
      v = vector::GatherOp::create(
          b, loc, valueType, data, dataAt(constIndex(0), j),
          gatherOffsets(r.index), lanesRead, zero(valueType));
    } else {
      // One scalar load per lane, from subscripts computed as a vector.
      v = zero(valueType);
      for (int64_t lane = 0; lane < lanes; ++lane) {
        Value subscript = arith::IndexCastOp::create(
            b, loc, b.getIndexType(),
            vector::ExtractOp::create(b, loc, r.index, lane));
        Value e = memref::LoadOp::create(
            b, loc, data,
            dataAt(subscript,
                   arith::AddIOp::create(b, loc, j, constIndex(lane))));
        v = vector::InsertOp::create(b, loc, e, v, lane);
      }
      if (r.valid)
        v = arith::SelectOp::create(b, loc, r.valid, v, zero(valueType));
    }
    storeRowVector(plan, v, at(outPrefix, j), mask, streaming);
  };
  // Full vectors whose indices are all positions in the row (in [0,
  // axisSize), which every mode reads as they are), up to the row's first
  // other one; then, in clamp and wrap, vectors whose indices one scalar
  // operation resolves (DirectIndex); each lane's index is read from
  // memory as a scalar, and resolved there. Subscripts moved from a vector
  // register to scalar ones put the vector's load and arithmetic on the
  // path of every lane's load (docs/decisions/kernel-loops.md). Two ways,
  // as the scalar operation is not free on rows of positions.
  bool scalarsFirst = loads == GatherLoads::Scalar;
  std::optional<DirectIndex> direct;
  if (scalarsFirst && DirectIndex::hasRule(mode))
    direct.emplace(b, loc, mode, axisSize);
  // Whether every index of the full vector at j passes `admits`.
  auto allOf = [&](Value j, function_ref<Value(Value)> admits) -> Value {
    Value i =
        widenIndex(loadVector(indices, indexType, at(indexPrefix, j), nullptr));
    return vector::ReductionOp::create(b, loc, vector::CombiningKind::AND,
                                       admits(i));
  };
  // The vector at j, each lane's index read as a scalar and made a
  // subscript by `resolve`.
  auto scalarChunk = [&](Value j, bool streaming,
                         function_ref<Value(Value)> resolve) {
    Value v = zero(valueType);
    for (int64_t lane = 0; lane < lanes; ++lane) {
      Value jl = arith::AddIOp::create(b, loc, j, constIndex(lane));
      Value i = readIndex(at(indexPrefix, jl));
      Value e = memref::LoadOp::create(
          b, loc, data,
          dataAt(
              arith::IndexCastOp::create(b, loc, b.getIndexType(), resolve(i)),
              jl));
      v = vector::InsertOp::create(b, loc, e, v, lane);
    }
    storeRowVector(plan, v, at(outPrefix, j), nullptr, streaming);
  };
  auto isPosition = [&](Value i) { return inRange(i, axisSize); };
  auto asIs = [](Value i) { return i; };
  auto admitted = [&](Value i) { return direct->admits(b, loc, i); };
  auto resolved = [&](Value i) { return direct->subscript(b, loc, i); };
  auto allPositions = [&](Value j) { return allOf(j, isPosition); };
  auto allAdmitted = [&](Value j) { return allOf(j, admitted); };
  // The fast ways of a row whose vectors are stored with `streaming`.
  auto scalarWays = [&](bool streaming,
                        function_ref<void(ArrayRef<FastChunk>)> use) {
    auto positions = [&](Value j) { scalarChunk(j, streaming, asIs); };
    auto directs = [&](Value j) { scalarChunk(j, streaming, resolved); };
    SmallVector<FastChunk, 2> ways;
    if (scalarsFirst)
      ways.push_back({allPositions, positions});
    if (direct)
      ways.push_back({allAdmitted, directs});
    use(ways);
  };
  // A vector of the row, or `count` elements of it at j (`mask`): with
  // vector gathers a masked vector, so the row is one loop and a kernel
  // compiles in less time than with a scalar loop for the tail; with
  // scalar loads one element an iteration, as a masked vector of them
  // reads and moves every lane for the few it keeps
  // (docs/decisions/kernel-loops.md).
  auto piece = [&](Value j, Value mask, Value count, bool streaming) {
    if (!mask || vectorGathers)
      return chunk(j, mask, streaming);
    forLoop(count, 1, [&](Value k) {
      one(arith::AddIOp::create(b, loc, j, k), /*clamped=*/true);
    });
  };
  auto vectorRow = [&] {
    emitPlanned(
        plan.streaming,
        [&] {
          scalarWays(/*streaming=*/true, [&](ArrayRef<FastChunk> ways) {
            forEachAlignedChunk(
                plan, outPrefix, n, lanes,
                [&](Value j, Value mask, Value count) {
                  piece(j, mask, count, /*streaming=*/true);
                },
                start, ways);
          });
        },
        [&] {
          scalarWays(/*streaming=*/false, [&](ArrayRef<FastChunk> ways) {
            forEachChunk(
                n, lanes,
                [&](Value j, Value mask, Value count) {
                  piece(j, mask, count, /*streaming=*/false);
                },
                ways);
          });
        });
  };
  auto fullRow = [&] {
    loads == GatherLoads::Element ? elementRow() : vectorRow();
  };
  std::optional<int64_t> staticSize = getConstantIntValue(axisSize);
  if (staticSize && *staticSize > 0)
    return fullRow();
  // An empty row: only fill reads nothing and has results (zeros); check
  // flags every index (check without `badFlag`, clamp and wrap have failed
  // validation already), unchecked is undefined: nothing is read.
  auto emptyRow = [&] {
    if (mode == GatherMode::fill)
      return forLoop(
          n, 1, [&](Value j) { store(zero(element), out, at(outPrefix, j)); });
    if (badFlag)
      ifThenElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n,
                                       constIndex(0)),
                 [&] { setFlag(badFlag); });
  };
  ifThenElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, axisSize,
                                   constI64(0)),
             fullRow, emptyRow);
}

Value KernelEmitter::rowAddress(const SlicePlan &plan, ValueRange prefix) {
  Value offset = constIndex(0);
  for (auto [p, stride] : llvm::zip(prefix, plan.outStrides))
    offset = arith::AddIOp::create(b, loc, offset,
                                   arith::MulIOp::create(b, loc, p, stride));
  return arith::AddIOp::create(
      b, loc, plan.outBase,
      arith::MulIOp::create(
          b, loc, offset,
          constIndex(getElementSizeInBytes(
              cast<MemRefType>(out.getType()).getElementType()))));
}

void KernelEmitter::prefetchAhead(
    const SlicePlan &plan, ValueRange ivs, Value ub,
    function_ref<SmallVector<Value>(ValueRange)> slicePrefix) {
  if (!plan.prefetching || getConstantIntValue(plan.prefetching) == 0)
    return;
  Value next = arith::AddIOp::create(b, loc, ivs.back(),
                                     constIndex(plan.prefetchDistance));
  Value inRange = arith::AndIOp::create(
      b, loc, plan.prefetching,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, next, ub));
  ifThenElse(inRange, [&] {
    SmallVector<Value> ahead(ivs);
    ahead.back() = next;
    SmallVector<Value> at = slicePrefix(ahead);
    auto type = cast<MemRefType>(plan.data.getType());
    while (static_cast<int64_t>(at.size()) < type.getRank())
      at.push_back(constIndex(0));
    // A line of each of the row's first prefetchBytes (plan.prefetching
    // holds only for rows of twice that), else the first line.
    int64_t perLine = std::max<int64_t>(
        1, kCacheLineBytes / std::max<int64_t>(1, getElementSizeInBytes(
                                                      type.getElementType())));
    int64_t lines = std::max<int64_t>(1, plan.prefetchBytes / kCacheLineBytes);
    Value rowStart = at.back();
    for (int64_t line = 0; line < lines; ++line) {
      if (line > 0)
        at.back() = b.createOrFold<arith::AddIOp>(loc, rowStart,
                                                  constIndex(line * perLine));
      memref::PrefetchOp::create(b, loc, plan.data, at, b.getBoolAttr(false),
                                 b.getI32IntegerAttr(3), b.getBoolAttr(true));
    }
  });
}

Value KernelEmitter::clampedSubscript(Value i, Value s) {
  return arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      resolveIndex(b, loc, GatherMode::clamp, i, s).index);
}

void KernelEmitter::finishStreaming(const SlicePlan &plan) {
  // Streaming stores are weakly ordered: a fence before the caller hands
  // the result on (a lock-free flag would not order them). Worker threads
  // of a parallel loop are ordered by the barrier that ends it.
  emitPlanned(plan.streaming, [&] {
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
  });
}
