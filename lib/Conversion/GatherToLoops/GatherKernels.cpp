//===- GatherKernels.cpp - Loop nests of the gather ops ---------*- C++ -*-===//
//
// The one place that knows how a gather op becomes loops on memrefs: the
// three ops' loop nests, built from the KernelEmitter's parts (see
// KernelEmitter.h for which file holds which). Both the
// convert-gather-to-loops patterns and the One-Shot Bufferize model of the
// ops call emitGatherKernel.
//
// Every kernel has the same two phases:
//  1. validation: in every mode but `unchecked`, the shape rules the verifier
//     skipped for dynamic dims; then, for the modes that can fail (`check`;
//     `clamp`/`wrap`, which fail only along an empty dimension), the indices
//     are scanned. The first failure is reported through a runtime hook.
//     Nothing of `data` is read in this phase.
//  2. the gather proper, skipped when validation failed. Index values are
//     read as i64, normalized (negative values count from the end), and
//     mapped to an in-bounds subscript by the mode; `fill` guards each read
//     and writes zero instead.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::detail;

//===----------------------------------------------------------------------===//
// The three kernels
//===----------------------------------------------------------------------===//

void KernelEmitter::emitGather(const GatherShape &shape) {
  int64_t a = shape.axis, bd = shape.batchDims;
  int64_t q = cast<MemRefType>(indices.getType()).getRank();
  Value axisSize = dimI64(data, a);

  Value ok = validate(
      dims(indices, 0, q), axisSize,
      [&](ValueRange ivs) {
        return SmallVector<IndexComponent>{{readIndex(ivs), axisSize, a}};
      },
      validateShapes(shape));
  // Wrap's remainder costs a division an index: when every data row before
  // the axis reads all the indices, and they are few enough for the stack,
  // they are wrapped once, into a buffer that the rows read as in-range
  // indices.
  ArrayRef<int64_t> rowDims =
      cast<MemRefType>(data.getType()).getShape().take_front(a);
  bool oneRow = llvm::all_of(rowDims, [](int64_t d) { return d == 1; });
  if (mode != GatherMode::wrap || oneRow || bd != 0 || q == 0)
    return emitGatherRows(shape, axisSize, ok);
  guarded(ok, [&] {
    Value count = constIndex(1);
    for (Value size : dims(indices, 0, q))
      count = b.createOrFold<arith::MulIOp>(loc, count, size);
    Value few =
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ule, count,
                                      constIndex(kWrappedOnceMaxIndices));
    emitPlanned(
        few,
        [&] {
          auto scope = memref::AllocaScopeOp::create(b, loc, TypeRange{});
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&scope.getBodyRegion().emplaceBlock());
          Value wrapped = wrappedIndices(axisSize);
          llvm::SaveAndRestore<Value> readFrom(indices, wrapped);
          llvm::SaveAndRestore<GatherMode> asMode(mode, GatherMode::unchecked);
          emitGatherRows(shape, axisSize, /*ok=*/nullptr);
          memref::AllocaScopeReturnOp::create(b, loc);
        },
        [&] { emitGatherRows(shape, axisSize, /*ok=*/nullptr); });
  });
}

Value KernelEmitter::wrappedIndices(Value axisSize) {
  auto type = cast<MemRefType>(indices.getType());
  SmallVector<Value> sizes = dims(indices, 0, type.getRank());
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(sizes[d]);
  Value wrapped = memref::AllocaOp::create(
      b, loc, MemRefType::get(type.getShape(), b.getI64Type()), dynamicSizes);
  loopNest(sizes, [&](ValueRange ivs) {
    store(
        resolveIndex(b, loc, GatherMode::wrap, readIndex(ivs), axisSize).index,
        wrapped, ivs);
  });
  return wrapped;
}

void KernelEmitter::emitGatherRows(const GatherShape &shape, Value axisSize,
                                   Value ok) {
  int64_t a = shape.axis, bd = shape.batchDims;
  int64_t q = cast<MemRefType>(indices.getType()).getRank();
  int64_t r = cast<MemRefType>(data.getType()).getRank();
  // A few indices shared by every data row (a vector of them, no batch
  // dims, along an axis after the first): their subscripts are resolved
  // once, before the rows, along an axis that is not empty; else `each`
  // resolves them row by row.
  auto sharedOrEach = [&](ArrayRef<Value> ubs, const SlicePlan &plan,
                          function_ref<void()> each) {
    std::optional<int64_t> shared = q == 1 && bd == 0 && a > 0
                                        ? getConstantIntValue(ubs.back())
                                        : std::nullopt;
    if (!shared || *shared > kSharedIndexRowMax)
      return each();
    Value nonEmpty = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ne, axisSize,
        arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0));
    emitPlanned(
        nonEmpty, [&] { gatherSharedIndices(plan, ubs, axisSize); }, each);
  };
  // Along the last axis with an index dimension innermost, each result row
  // reads one data row at the positions of one index row.
  int64_t lanes =
      shape.readsRowsAlongLastAxis(r, q) ? planner.gatherRowLanes() : 0;
  if (lanes) {
    return guarded(ok, [&] {
      SmallVector<Value> ubs = dims(out, 0, a + q - bd);
      auto rows = [&] {
        SlicePlan plan = planner.gatherRows(ubs.back(), axisSize);
        rowNest(ubs, [&](ValueRange ivs, Value n, Value start) {
          SmallVector<Value> indexPrefix(ivs.take_front(bd));
          indexPrefix.append(ivs.begin() + a, ivs.end());
          gatherRow(plan, ivs.take_front(a), indexPrefix, ivs, n, axisSize,
                    lanes, /*badFlag=*/nullptr, start);
        });
        finishStreaming(plan);
      };
      sharedOrEach(ubs, planner.elements(), rows);
    });
  }
  guarded(ok, [&] {
    // Loop over the result's leading dims: data[:axis] then indices[b:].
    SmallVector<Value> ubs = dims(out, 0, a + q - bd);
    SlicePlan plan = planner.slices(a + 1, a + q - bd);
    SlicePlan shared = plan;
    // The innermost loop walks indices when there is an index dim past
    // the batch dims; then slices can be prefetched ahead along it.
    if (q > bd)
      planner.prefetch(plan, axisSize);
    auto indexAt = [&](ValueRange ivs) {
      SmallVector<Value> at(ivs.take_front(bd));
      at.append(ivs.begin() + a, ivs.end());
      return at;
    };
    sharedOrEach(ubs, shared, [&] {
      sliceNest(plan, ubs, [&](ValueRange ivs, Value length, Value start) {
        prefetchAhead(plan, ivs, ubs.back(), [&](ValueRange ahead) {
          SmallVector<Value> prefix(ahead.take_front(a));
          prefix.push_back(
              clampedSubscript(readIndex(indexAt(ahead)), axisSize));
          return prefix;
        });
        Subscript s = resolve(readIndex(indexAt(ivs)), axisSize,
                              subscriptModeAlong(axisSize));
        SmallVector<Value> dataPrefix(ivs.take_front(a));
        dataPrefix.push_back(s.index);
        copySlice(plan, dataPrefix, ivs, s.valid, start, length);
      });
    });
    finishStreaming(plan);
  });
}

void KernelEmitter::emitGatherElements(const GatherShape &shape) {
  int64_t a = shape.axis;
  int64_t r = cast<MemRefType>(indices.getType()).getRank();
  Value axisSize = dimI64(data, a);
  SmallVector<Value> ubs = dims(indices, 0, r);

  auto components = [&](ValueRange ivs) {
    return SmallVector<IndexComponent>{{readIndex(ivs), axisSize, a}};
  };
  // A result row (along the last dim) reads data at the positions of one
  // index row: along the last axis, within one data row; along an axis
  // before it, across the data rows of that axis, at the row's columns.
  // validate-rows checks the indices as it gathers.
  bool lastAxis = shape.readsRowsAlongLastAxis(r, r);
  std::optional<int64_t> offAxis =
      lastAxis ? std::nullopt : std::optional<int64_t>(a);
  int64_t lanes = planner.gatherRowLanes();
  SlicePlan rows =
      lanes ? planner.gatherRows(ubs.back(), lastAxis ? axisSize : nullptr)
            : planner.elements();
  auto rowAt = [&](ValueRange ivs, Value badFlag) {
    gatherRow(rows, ivs, ivs, ivs, ubs.back(), axisSize, lanes, badFlag,
              /*start=*/nullptr, offAxis);
  };
  auto rowPiece = [&](ValueRange ivs, Value n, Value start) {
    gatherRow(rows, ivs, ivs, ivs, n, axisSize, lanes, /*badFlag=*/nullptr,
              start, offAxis);
  };
  if (lanes && validatesRows()) {
    // Threads take rows, or (position, piece) pairs where piecedNest would
    // split them; each is checked as it is gathered, and if one was
    // flagged, the indices are scanned again to report the first bad one.
    ArrayRef<Value> outer = ArrayRef<Value>(ubs).drop_back();
    Value n = ubs.back();
    auto checkedPieces = [&] {
      guarded(validateShapes(shape), [&] {
        Value pieces = pieceCount(n);
        flaggedParts(
            pieceItems(outer, pieces),
            [&](Value k, Value flag) {
              pieceItem(outer, n, pieces, k,
                        [&](ValueRange ivs, Value length, Value start) {
                          gatherRow(rows, ivs, ivs, ivs, length, axisSize,
                                    lanes, flag, start, offAxis);
                        });
            },
            [&](Value) {
              llvm::SaveAndRestore serial(serialChecks, true);
              validate(ubs, axisSize, components, nullptr);
            });
      });
    };
    Value parallel = planner.parallel(out), few = fewLongRows(outer, n);
    emitPlanned(
        parallel && few ? b.createOrFold<arith::AndIOp>(loc, parallel, few)
                        : nullptr,
        checkedPieces,
        [&] { gatherCheckedRows(shape, ubs, axisSize, components, rowAt); });
    return finishStreaming(rows);
  }
  Value ok = validate(ubs, axisSize, components, validateShapes(shape));
  guarded(ok, [&] {
    emitPlanned(
        planner.columnBlocks(a), [&] { columnBlockNest(ubs, a, rowPiece); },
        [&] { rowNest(ubs, rowPiece); });
  });
  finishStreaming(rows);
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
      components.push_back({readIndex(appended(ivs, constIndex(c))), sizes[c],
                            shape.indexedDim(c)});
    }
    return components;
  };
  Value ok =
      validate(dims(indices, 0, q - 1), sizes, tuple, validateShapes(shape));
  guarded(ok, [&] {
    SlicePlan plan = planner.slices(bd + k, q - 1);
    SmallVector<Value> ubs = dims(out, 0, q - 1);
    // The innermost loop walks index tuples unless they are all batch.
    if (q - 1 > bd)
      planner.prefetch(plan, sizes);
    sliceNest(plan, ubs, [&](ValueRange ivs, Value length, Value start) {
      prefetchAhead(plan, ivs, ubs.back(), [&](ValueRange ahead) {
        SmallVector<Value> prefix(ahead.take_front(bd));
        for (const IndexComponent &c : tuple(ahead))
          prefix.push_back(clampedSubscript(c.value, c.size));
        return prefix;
      });
      SmallVector<Value> dataPrefix(ivs.take_front(bd));
      Value valid;
      for (const IndexComponent &c : tuple(ivs)) {
        Subscript s = resolve(c.value, c.size);
        dataPrefix.push_back(s.index);
        if (s.valid)
          valid =
              valid ? arith::AndIOp::create(b, loc, valid, s.valid) : s.valid;
      }
      copySlice(plan, dataPrefix, ivs, valid, start, length);
    });
    finishStreaming(plan);
  });
}

void KernelEmitter::gatherSharedIndices(const SlicePlan &plan,
                                        ArrayRef<Value> ubs, Value axisSize) {
  int64_t count = *getConstantIntValue(ubs.back());
  SmallVector<Subscript> at;
  for (int64_t j = 0; j < count; ++j)
    at.push_back(
        resolve(readIndex({constIndex(j)}), axisSize, clampedSubscriptMode()));
  sliceNest(
      plan, ubs.drop_back(), [&](ValueRange ivs, Value length, Value start) {
        for (int64_t j = 0; j < count; ++j)
          copySlice(plan, appended(ivs, at[j].index),
                    appended(ivs, constIndex(j)), at[j].valid, start, length);
      });
}

void KernelEmitter::gatherCheckedRows(
    const GatherShape &shape, ArrayRef<Value> positions, Value axisSize,
    function_ref<SmallVector<IndexComponent>(ValueRange)> components,
    CheckedRowFn rowAt) {
  guarded(validateShapes(shape), [&] {
    auto byRows = [&] {
      validate(positions, axisSize, components, nullptr, rowAt);
    };
    // Threads check rows as they gather them; the first flagged slab is
    // checked again to report the first bad index in row-major order.
    auto threaded = [&] {
      ifNoneEmpty(innerBounds(positions), [&] {
        threadedSlabs(positions, rowAt, [&](ArrayRef<Value> slab) {
          validate(slab, axisSize, components, nullptr);
        });
      });
    };
    emitPlanned(positions.size() > 1 ? planner.parallel(out) : nullptr,
                threaded, byRows);
  });
}

LogicalResult mlir::gather::emitGatherKernel(
    OpBuilder &b, Operation *op, Value data, Value indices, Value out,
    const GatherLoweringOptions &options, IndexExtension indexExtension) {
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
  GatherMode mode = gather.getMode();
  FailureOr<GatherShape> shape = gather.getGatherShape();
  if (failed(shape) || !shape->ranked)
    return op->emitOpError("cannot lower: the result rank is not known");

  KernelEmitter emitter(b, op, mode, options, data, indices, out,
                        indexExtension);
  if (isa<GatherNDOp>(op))
    emitter.emitGatherND(*shape);
  else if (isa<GatherElementsOp>(op))
    emitter.emitGatherElements(*shape);
  else
    emitter.emitGather(*shape);
  return success();
}
