//===- KernelPlanner.h - The cost model of gather kernels -------*- C++ -*-===//
//
// Private to lib/Conversion/GatherToLoops: the plans a kernel follows (how
// slices move, how rows read, what runs on threads), built once before the
// loops by KernelPlanner (KernelCostModel.cpp) and read by the emitter's
// data movement. The planner never calls the emitter.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_GATHERTOLOOPS_KERNELPLANNER_H
#define LIB_CONVERSION_GATHERTOLOOPS_KERNELPLANNER_H

#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::gather::detail {

/// An EmitterBase for memref kernels: the sizes of memref dims.
class MemRefEmitterBase : protected EmitterBase {
protected:
  using EmitterBase::EmitterBase;

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
};

/// The bytes of the last dim a column block of gather_elements walks
/// (KernelPlanner::columnBlocks): four lines, which the hardware's
/// prefetchers follow as a stream along the axis.
inline constexpr int64_t kColumnBlockBytes = 256;

/// The most indices a gather resolves once for every data row that shares
/// them (KernelEmitter::gatherSharedIndices): each is a copy unrolled into
/// the row loop.
inline constexpr int64_t kSharedIndexRowMax = 16;

/// The most indices a wrap gather wraps once, before its rows, into a
/// buffer on the stack (128 KiB of i64; docs/decisions/kernel-cost-model.md,
/// "Wrapped once").
inline constexpr int64_t kWrappedOnceMaxIndices = 16384;

/// How a kernel moves its slices: the cost model's choices, computed once
/// before the loops and read by the data movement.
struct SlicePlan {
  /// What copySlice reads and writes: the kernel's data and out, or views
  /// of them with the slice dims collapsed into one row.
  Value data, out;
  /// The sizes of a slice's dims after the prefix (none: one element).
  SmallVector<Value> extents;
  /// i1: rows are written with non-temporal stores (null: never).
  Value streaming;
  /// i1: rows are copied with stores of whole vectors at vector-aligned
  /// addresses, after a masked head (null: never). Stores that straddle
  /// two cache lines cost two.
  Value aligning;
  /// i1: rows are copied by a call of the C library's memcpy (null: never;
  /// false wherever `streaming` is true).
  Value copying;
  /// With `streaming` or `aligning`: out's base address in bytes and its
  /// strides, from which rowAddress finds a row's alignment.
  Value outBase;
  SmallVector<Value> outStrides;
  /// i1: slices are prefetched prefetchDistance positions ahead (null:
  /// never), prefetchBytes of each (its first line when 0).
  Value prefetching;
  int64_t prefetchDistance = 0;
  int64_t prefetchBytes = 0;
  /// How rows gathered along the last axis read data (gatherRows:
  /// resolveGatherLoads; Auto in other plans).
  GatherLoads rowLoads = GatherLoads::Auto;
};

/// Builds the plans of one kernel over `data`, `indices` and `out`. Each
/// choice has a lowering option that overrides it; where sizes are dynamic,
/// a plan is an i1 computed at the builder's insertion point.
class KernelPlanner : MemRefEmitterBase {
public:
  KernelPlanner(OpBuilder &b, Location loc,
                const GatherLoweringOptions &options, Value data, Value indices,
                Value out)
      : MemRefEmitterBase(b, loc), options(options), data(data),
        indices(indices), out(out) {}

  /// The plan of slices that are data dims [dataFrom, r) and out dims
  /// [outFrom, R): when both are contiguous, viewed as one row so short
  /// trailing dims still fill whole vectors; streaming stores as planned.
  /// No prefetching (prefetch).
  SlicePlan slices(int64_t dataFrom, int64_t outFrom);
  /// The plan of rows gathered by gatherRow, along the last axis from a
  /// data axis of `axisSize` elements, or (`axisSize` null) across the rows
  /// of an axis before it: their length is the result's last dimension,
  /// `rowLength`; how they read and whether they stream (never for rows
  /// read one element an iteration, which store scalars).
  SlicePlan gatherRows(Value rowLength, Value axisSize);
  /// The plan of one-element slices of data and out (gather_elements).
  SlicePlan elements() const {
    SlicePlan plan;
    plan.data = data;
    plan.out = out;
    return plan;
  }
  /// Whether and how `plan`'s slices are prefetched ahead: short slices
  /// (options.prefetchDistance) or the first bytes of long rows
  /// (options.rowPrefetchBytes). Sets plan.prefetching, the distance and
  /// the bytes. `indexedSizes` are the sizes (i64) of the data dims the
  /// indices select along: none may be empty.
  void prefetch(SlicePlan &plan, ArrayRef<Value> indexedSizes);
  /// Whether loops over `memref` (the result for the gather loops, the
  /// indices for check mode's scan) run on threads: with options.parallel,
  /// when it has at least options.parallelMinBytes bytes. An i1 (a constant
  /// when the sizes are static), or null: never.
  Value parallel(Value memref);
  /// Whether gather_elements along `axis` (before the last) walks the last
  /// dim in blocks of kColumnBlockBytes, every position of the axis in each
  /// block (KernelEmitter::columnBlockNest): where data from the axis on
  /// outgrows the caches but a block's lines along the axis do not. An i1,
  /// or null: never.
  Value columnBlocks(int64_t axis);
  /// Lanes per vector for the element type, or 0 when it does not vectorize.
  int64_t vectorLanes(Type element) const;
  /// Lanes of the vectors that copy `plan`'s rows (their innermost dim),
  /// or 0 when they move an element at a time: an element that does not
  /// vectorize, or a strided innermost dim of `plan.data` or `plan.out`.
  int64_t rowLanes(const SlicePlan &plan) const;
  /// Lanes for gatherRow, or 0 when the row does not vectorize.
  int64_t gatherRowLanes() const;

private:
  /// Sets plan.streaming for `plan`'s rows (its last extent) and the out
  /// metadata rowAddress reads.
  void streamingStores(SlicePlan &plan);
  /// Sets plan.aligning for `plan`'s rows (options.alignedRowMinBytes) and
  /// the out metadata rowAddress reads.
  void alignedStores(SlicePlan &plan);
  /// Sets plan.copying for `plan`'s rows (options.memcpyRowMinBytes).
  void libraryCopies(SlicePlan &plan);
  /// An i1 that rows of `rowLength` elements have at least `minBytes`:
  /// constant true, or null (never), for a static row.
  Value rowsOfAtLeast(Value rowLength, Type element, int64_t minBytes);
  /// Sets plan.outBase and plan.outStrides, once.
  void outAddressing(SlicePlan &plan);
  /// The size of `memref` in bytes (index), computed at the insertion point.
  Value sizeInBytes(Value memref);

  const GatherLoweringOptions &options;
  Value data, indices, out;
};

/// Whether the innermost dimension of `memref` has unit stride.
inline bool hasUnitInnerStride(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  return type.getRank() > 0 && type.isLastDimUnitStride();
}

} // namespace mlir::gather::detail

#endif // LIB_CONVERSION_GATHERTOLOOPS_KERNELPLANNER_H
