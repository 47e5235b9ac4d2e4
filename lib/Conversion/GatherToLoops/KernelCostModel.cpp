//===- KernelCostModel.cpp - How phase 2 moves data -------------*- C++ -*-===//
//
// The one place that decides between ways of moving the same data, from
// what is known when the kernel is emitted (element type, static sizes,
// options) and, where sizes are dynamic, from one test at run time before
// the loops. Each choice has a pass option that overrides it.
//
// Streaming stores: a store to a line that is not in the cache first reads
// the line (read-for-ownership), so a gather into a large result moves each
// result byte twice. Non-temporal stores write whole lines without reading
// them, which pays once the result is larger than the caches would keep
// anyway, and only for rows long enough to fill whole lines.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <limits>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::detail;

/// Rows shorter than this (four cache lines) are not streamed: partly
/// written lines cost more than the reads they save.
static constexpr int64_t kMinStreamingRowBytes = 256;
/// Rows that do not start at a vector-aligned address stream only from this
/// length: their first and last lines take cached (masked) stores as well
/// as non-temporal ones, which costs more than streaming saves on shorter
/// rows (docs/decisions/kernel-cost-model.md, "Streaming stores").
static constexpr int64_t kMinMisalignedStreamingRowBytes = 2048;

/// `count` elements of `element` in bytes, saturated at INT64_MAX (static
/// sizes may be any int64; the comparisons below only need "at least").
static int64_t bytesOf(int64_t count, Type element) {
  int64_t bytes;
  if (llvm::MulOverflow(count, getElementSizeInBytes(element), bytes))
    return std::numeric_limits<int64_t>::max();
  return bytes;
}

Value KernelEmitter::sizeInBytes(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value bytes = constIndex(getElementSizeInBytes(type.getElementType()));
  for (Value size : dims(memref, 0, type.getRank()))
    bytes = b.createOrFold<arith::MulIOp>(loc, bytes, size);
  return bytes;
}

// Threads: a parallel region costs from a few microseconds (workers
// spinning) to a few hundred (workers asleep, on a VM) and up to a
// scheduler time slice when another process holds a core (the region waits
// for its slowest thread). Only results large enough to take milliseconds
// on one thread are split, and only index arrays that large are scanned on
// threads in check mode.
Value KernelEmitter::planParallel(Value memref) {
  if (!options.parallel)
    return nullptr;
  std::optional<int64_t> bytes =
      getStaticSizeInBytes(cast<MemRefType>(memref.getType()));
  if (bytes && *bytes < options.parallelMinBytes)
    return nullptr;
  // Every size is on threads: only the threaded loops are emitted.
  if (options.parallelMinBytes <= 0)
    return arith::ConstantIntOp::create(b, loc, 1, 1);
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                       sizeInBytes(memref),
                                       constIndex(options.parallelMinBytes));
}

void KernelEmitter::planStreamingStores(SlicePlan &plan) {
  Value rowLength = plan.extents.back();
  Type element = cast<MemRefType>(out.getType()).getElementType();
  int64_t lanes = vectorLanes(element);
  // The fence after the loops is an llvm.fence with memory effects
  // (registerStreamingFenceExternalModel).
  std::optional<RegisteredOperationName> fence = RegisteredOperationName::lookup(
      LLVM::FenceOp::getOperationName(), b.getContext());
  if (options.streamingMinBytes < 0 || lanes < 2 ||
      !hasUnitInnerStride(plan.data) || !hasUnitInnerStride(plan.out) ||
      !fence || !fence->hasInterface<MemoryEffectOpInterface>())
    return;
  int64_t bytesPerElement = getElementSizeInBytes(element);
  std::optional<int64_t> staticRow = getConstantIntValue(rowLength);
  if (staticRow && bytesOf(*staticRow, element) < kMinStreamingRowBytes)
    return;
  std::optional<int64_t> bytes =
      getStaticSizeInBytes(cast<MemRefType>(out.getType()));
  if (bytes && *bytes < options.streamingMinBytes)
    return;

  // At run time: the result's size, the row's (a longer one unless rows
  // start vector-aligned), and whether the result's elements are aligned to
  // their size (then one masked vector reaches an aligned address in every
  // row).
  Value total = resultBytes();
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, plan.out);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, plan.out);
  plan.outBase = arith::AddIOp::create(
      b, loc, pointer,
      arith::MulIOp::create(b, loc, metadata.getOffset(),
                            constIndex(bytesPerElement)));
  plan.outStrides = llvm::to_vector_of<Value>(metadata.getStrides());
  Value large =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, total,
                            constIndex(options.streamingMinBytes));
  // Every row starts vector-aligned when the base and the outer strides are
  // multiples of a vector's bytes.
  Value offsets = plan.outBase;
  for (Value stride : ArrayRef(plan.outStrides).drop_back())
    offsets = arith::OrIOp::create(
        b, loc, offsets,
        arith::MulIOp::create(b, loc, stride, constIndex(bytesPerElement)));
  Value rowsAligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, offsets,
                            constIndex(lanes * bytesPerElement - 1)),
      constIndex(0));
  Value longRows = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge,
      arith::MulIOp::create(b, loc, rowLength, constIndex(bytesPerElement)),
      arith::SelectOp::create(b, loc, rowsAligned,
                              constIndex(kMinStreamingRowBytes),
                              constIndex(kMinMisalignedStreamingRowBytes)));
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, plan.outBase,
                             constIndex(bytesPerElement)),
      constIndex(0));
  plan.streaming = arith::AndIOp::create(
      b, loc, large, arith::AndIOp::create(b, loc, longRows, aligned));
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

// How a row reads data: vector gathers where the target's are fast, scalar
// loads where they are slow, one element an iteration for sparse rows of
// long axes (GatherLoads.h). Evidence: docs/decisions/kernel-cost-model.md,
// "How rows read data: gather-loads".
GatherLoads KernelEmitter::resolveRowLoads(Value axisSize,
                                           Value rowLength) const {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  auto bytes = [&](Value size) -> std::optional<int64_t> {
    if (std::optional<int64_t> count = getConstantIntValue(size))
      return bytesOf(*count, element);
    return std::nullopt;
  };
  return resolveGatherLoads(options.gatherLoads, options.targetCpu,
                            bytes(axisSize), bytes(rowLength));
}

/// Slices longer than this (eight cache lines) are left to the hardware
/// prefetcher, which streams within a row...
static constexpr int64_t kMaxPrefetchSliceBytes = 512;
/// ...once it has started: a long row's first lines are prefetched this
/// many positions ahead (options.rowPrefetchBytes of them), which hides
/// the latency of the row's first miss (docs/decisions/kernel-cost-model.md).
static constexpr int64_t kRowPrefetchDistance = 2;

void KernelEmitter::planPrefetch(SlicePlan &plan,
                                 ArrayRef<Value> indexedSizes) {
  if (plan.extents.empty())
    return;
  // At least a byte: elements of i0 take none, and the row test divides.
  int64_t elementBytes = std::max<int64_t>(
      1,
      getElementSizeInBytes(cast<MemRefType>(data.getType()).getElementType()));
  // Short slices, when asked for: all of the slice, at most 512 bytes,
  // tested on the static extents here and on all of them at run time.
  bool shortSlices = options.prefetchDistance > 0;
  int64_t staticBytes = elementBytes;
  Value bytes = shortSlices ? constIndex(elementBytes) : Value();
  for (Value extent : plan.extents) {
    std::optional<int64_t> c = getConstantIntValue(extent);
    if (!shortSlices || (c && (*c > kMaxPrefetchSliceBytes ||
                               (staticBytes *= *c) > kMaxPrefetchSliceBytes))) {
      shortSlices = false;
      break;
    }
    bytes = b.createOrFold<arith::MulIOp>(loc, bytes, extent);
  }
  // Long rows: a last extent of at least twice the bytes prefetched,
  // compared in elements (a static extent may be huge). It is contiguous
  // unless data's layout is strided, whose rows then prefetch elements
  // they read, a line apart at least.
  int64_t firstBytes = options.rowPrefetchBytes;
  int64_t minRow = llvm::divideCeil(2 * firstBytes, elementBytes);
  std::optional<int64_t> row = getConstantIntValue(plan.extents.back());
  bool longRows =
      !shortSlices && firstBytes > 0 && (!row || *row >= minRow);
  Value worth;
  if (shortSlices) {
    worth = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ule, bytes,
        constIndex(kMaxPrefetchSliceBytes));
    plan.prefetchDistance = options.prefetchDistance;
  } else if (longRows) {
    worth = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                          plan.extents.back(),
                                          constIndex(minRow));
    plan.prefetchDistance = kRowPrefetchDistance;
    plan.prefetchBytes = firstBytes;
  } else {
    return;
  }
  for (Value size : indexedSizes)
    worth = b.createOrFold<arith::AndIOp>(
        loc, worth,
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, size,
                                      constI64(0)));
  plan.prefetching = worth;
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
        1, kCacheLineBytes /
               std::max<int64_t>(
                   1, getElementSizeInBytes(type.getElementType())));
    int64_t lines =
        std::max<int64_t>(1, plan.prefetchBytes / kCacheLineBytes);
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

namespace {
/// llvm.fence orders memory accesses: model it as reading and writing memory.
struct FenceMemoryEffects
    : MemoryEffectOpInterface::ExternalModel<FenceMemoryEffects,
                                             LLVM::FenceOp> {
  void getEffects(Operation *op,
                  SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                      &effects) const {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};
} // namespace

void mlir::gather::registerStreamingFenceExternalModel(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    LLVM::FenceOp::attachInterface<FenceMemoryEffects>(*context);
  });
}
