//===- KernelCostModel.cpp - KernelPlanner: how phase 2 moves data -------===//
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

#include "KernelPlanner.h"

#include "gather/Dialect/Gather/IR/GatherShapes.h"
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

Value KernelPlanner::sizeInBytes(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value bytes = constIndex(getElementSizeInBytes(type.getElementType()));
  for (Value size : dims(memref, 0, type.getRank()))
    bytes = b.createOrFold<arith::MulIOp>(loc, bytes, size);
  return bytes;
}

int64_t KernelPlanner::vectorLanes(Type element) const {
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

int64_t KernelPlanner::rowLanes(const SlicePlan &plan) const {
  int64_t lanes =
      vectorLanes(cast<MemRefType>(plan.out.getType()).getElementType());
  return lanes >= 2 && hasUnitInnerStride(plan.data) &&
                 hasUnitInnerStride(plan.out)
             ? lanes
             : 0;
}

int64_t KernelPlanner::gatherRowLanes() const {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  if (!hasUnitInnerStride(data) || !hasUnitInnerStride(indices) ||
      !hasUnitInnerStride(out))
    return 0;
  return vectorLanes(element);
}

SlicePlan KernelPlanner::slices(int64_t dataFrom, int64_t outFrom) {
  auto contiguous = [](Value v) {
    return cast<MemRefType>(v.getType()).getLayout().isIdentity();
  };
  // A group collapses to a valid type only when its static sizes are all
  // non-zero (a 0 beside a ? has no collapsed size: the slice is empty
  // anyway) and their product fits in int64.
  auto collapsible = [](Value v, int64_t from) {
    int64_t product = 1;
    for (int64_t size :
         cast<MemRefType>(v.getType()).getShape().drop_front(from)) {
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
  SlicePlan plan = elements();
  if (rank - dataFrom < 2 || !contiguous(data) || !contiguous(out) ||
      !collapsible(data, dataFrom) || !collapsible(out, outFrom)) {
    plan.extents = dims(data, dataFrom, rank);
  } else {
    auto collapse = [&](Value memref, int64_t from, int64_t r) -> Value {
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < from; ++d)
        groups.push_back({d});
      groups.emplace_back(llvm::to_vector(llvm::seq<int64_t>(from, r)));
      return memref::CollapseShapeOp::create(b, loc, memref, groups);
    };
    plan.data = collapse(data, dataFrom, rank);
    plan.out = collapse(out, outFrom, outRank);
    plan.extents = {dim(plan.data, dataFrom)};
  }
  if (!plan.extents.empty()) {
    streamingStores(plan);
    alignedStores(plan);
    libraryCopies(plan);
  }
  return plan;
}

// How a row reads data: vector gathers where the target's are fast, scalar
// loads where they are slow, one element an iteration for sparse rows of
// long axes (GatherLoads.h). Evidence: docs/decisions/kernel-cost-model.md,
// "How rows read data: gather-loads".
SlicePlan KernelPlanner::gatherRows(Value rowLength, Value axisSize) {
  Type element = cast<MemRefType>(data.getType()).getElementType();
  auto bytes = [&](Value size) -> std::optional<int64_t> {
    if (std::optional<int64_t> count =
            size ? getConstantIntValue(size) : std::nullopt)
      return bytesOf(*count, element);
    return std::nullopt;
  };
  SlicePlan plan = elements();
  plan.extents = {rowLength};
  plan.rowLoads = resolveGatherLoads(options.gatherLoads, options.targetCpu,
                                     getElementSizeInBytes(element),
                                     bytes(axisSize), bytes(rowLength));
  if (plan.rowLoads != GatherLoads::Element)
    streamingStores(plan);
  return plan;
}

// Column blocks: gather_elements along an axis before the last reads, for
// consecutive elements of a row, data rows anywhere along the axis; once
// data from the axis on outgrows the caches, each read misses. Walking the
// last dim in blocks, every position of the axis in each
// (kColumnBlockMaxPositions at most), reads each data line once from
// memory. Evidence: docs/decisions/kernel-cost-model.md, "Column blocks".
Value KernelPlanner::columnBlocks(int64_t axis) {
  auto type = cast<MemRefType>(data.getType());
  int64_t rank = type.getRank();
  if (options.columnBlockMinBytes < 0 || axis >= rank - 1 ||
      !type.getLayout().isIdentity())
    return nullptr;
  Value bytes = constIndex(getElementSizeInBytes(type.getElementType()));
  for (Value size : dims(data, axis, rank))
    bytes = b.createOrFold<arith::MulIOp>(loc, bytes, size);
  Value big =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, bytes,
                                    constIndex(options.columnBlockMinBytes));
  Value few = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ule, dim(data, axis),
      constIndex(kColumnBlockMaxPositions));
  return b.createOrFold<arith::AndIOp>(loc, big, few);
}

// Threads: a parallel region costs from a few microseconds (workers
// spinning) to a few hundred (workers asleep, on a VM) and up to a
// scheduler time slice when another process holds a core (the region waits
// for its slowest thread). Only results large enough to take milliseconds
// on one thread are split, and only index arrays that large are scanned on
// threads in check mode.
Value KernelPlanner::parallel(Value memref) {
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

void KernelPlanner::streamingStores(SlicePlan &plan) {
  Value rowLength = plan.extents.back();
  Type element = cast<MemRefType>(out.getType()).getElementType();
  int64_t lanes = rowLanes(plan);
  // The fence after the loops is an llvm.fence with memory effects
  // (registerStreamingFenceExternalModel).
  std::optional<RegisteredOperationName> fence =
      RegisteredOperationName::lookup(LLVM::FenceOp::getOperationName(),
                                      b.getContext());
  if (options.streamingMinBytes < 0 || !lanes || !fence ||
      !fence->hasInterface<MemoryEffectOpInterface>())
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
  Value total = sizeInBytes(out);
  outAddressing(plan);
  Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, total,
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
      arith::RemUIOp::create(b, loc, plan.outBase, constIndex(bytesPerElement)),
      constIndex(0));
  plan.streaming = arith::AndIOp::create(
      b, loc, large, arith::AndIOp::create(b, loc, longRows, aligned));
}

void KernelPlanner::outAddressing(SlicePlan &plan) {
  if (plan.outBase)
    return;
  int64_t bytesPerElement =
      getElementSizeInBytes(cast<MemRefType>(out.getType()).getElementType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, plan.out);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, plan.out);
  plan.outBase =
      arith::AddIOp::create(b, loc, pointer,
                            arith::MulIOp::create(b, loc, metadata.getOffset(),
                                                  constIndex(bytesPerElement)));
  plan.outStrides = llvm::to_vector_of<Value>(metadata.getStrides());
}

// Aligned stores: a row copied with plain vector stores from an address
// that is not a multiple of a vector's bytes splits every other store
// across two cache lines. Rows long enough to pay for a masked head store
// whole vectors at aligned addresses instead. Evidence:
// docs/decisions/kernel-cost-model.md, "Aligned row copies".
void KernelPlanner::alignedStores(SlicePlan &plan) {
  Value rowLength = plan.extents.back();
  Type element = cast<MemRefType>(out.getType()).getElementType();
  int64_t lanes = rowLanes(plan);
  if (options.alignedRowMinBytes < 0 || !lanes)
    return;
  int64_t bytesPerElement = getElementSizeInBytes(element);
  // A row of fewer bytes than a vector has no whole vector to align.
  int64_t minBytes = std::max<int64_t>(options.alignedRowMinBytes,
                                       2 * lanes * bytesPerElement);
  Value longRows = rowsOfAtLeast(rowLength, element, minBytes);
  if (!longRows)
    return;
  outAddressing(plan);
  plan.aligning = longRows;
}

// Library copies: the C library's memcpy copies a long row with string
// instructions (x86's rep movsb), whose stores fill whole lines without
// reading them first, as a loop of vector stores must. Evidence:
// docs/decisions/kernel-cost-model.md, "Long rows: memcpy".
void KernelPlanner::libraryCopies(SlicePlan &plan) {
  if (options.memcpyRowMinBytes < 0 || !hasUnitInnerStride(plan.data) ||
      !hasUnitInnerStride(plan.out))
    return;
  Value longRows = rowsOfAtLeast(
      plan.extents.back(), cast<MemRefType>(out.getType()).getElementType(),
      std::max<int64_t>(options.memcpyRowMinBytes, 1));
  if (!longRows || !plan.streaming) {
    plan.copying = longRows;
    return;
  }
  plan.copying = b.createOrFold<arith::AndIOp>(
      loc, longRows,
      b.createOrFold<arith::XOrIOp>(
          loc, plan.streaming, arith::ConstantIntOp::create(b, loc, 1, 1)));
}

Value KernelPlanner::rowsOfAtLeast(Value rowLength, Type element,
                                   int64_t minBytes) {
  // A static row decides here, a dynamic one at run time.
  std::optional<int64_t> staticRow = getConstantIntValue(rowLength);
  if (staticRow)
    return bytesOf(*staticRow, element) < minBytes
               ? Value()
               : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge,
      arith::MulIOp::create(b, loc, rowLength,
                            constIndex(getElementSizeInBytes(element))),
      constIndex(minBytes));
}

/// Slices longer than this (eight cache lines) are left to the hardware
/// prefetcher, which streams within a row...
static constexpr int64_t kMaxPrefetchSliceBytes = 512;
/// ...once it has started: a long row's first lines are prefetched this
/// many positions ahead (options.rowPrefetchBytes of them), which hides
/// the latency of the row's first miss (docs/decisions/kernel-cost-model.md).
static constexpr int64_t kRowPrefetchDistance = 2;

void KernelPlanner::prefetch(SlicePlan &plan, ArrayRef<Value> indexedSizes) {
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
  bool longRows = !shortSlices && firstBytes > 0 && (!row || *row >= minRow);
  Value worth;
  if (shortSlices) {
    worth = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ule, bytes,
                                          constIndex(kMaxPrefetchSliceBytes));
    plan.prefetchDistance = options.prefetchDistance;
  } else if (longRows) {
    worth =
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                      plan.extents.back(), constIndex(minRow));
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

namespace {
/// llvm.fence orders memory accesses: model it as reading and writing memory.
struct FenceMemoryEffects
    : MemoryEffectOpInterface::ExternalModel<FenceMemoryEffects,
                                             LLVM::FenceOp> {
  void
  getEffects(Operation *op,
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
