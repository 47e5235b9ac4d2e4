//===- GatherToLoops.h - Lower gather ops to loop nests --------*- C++ -*-===//
//
// The kernel-emission API (emitGatherKernel and its options) and the
// patterns of convert-gather-to-loops, on ranked operands (unranked ones
// are gather-dispatch-unranked's, UnrankedDispatch/). The error hooks the
// kernels call are in ErrorHooks/ErrorHooks.h; how rows read data in
// GatherLoads.h.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERTOLOOPS_GATHERTOLOOPS_H
#define GATHER_CONVERSION_GATHERTOLOOPS_GATHERTOLOOPS_H

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class RewritePatternSet;
namespace gather {

/// How the loop nests are emitted: the options of convert-gather-to-loops,
/// whose TableGen definition (Passes.td) is the one home of their defaults
/// and descriptions.
using GatherLoweringOptions = ConvertGatherToLoopsOptions;

/// The lowering options of `from`, anything that declares them
/// (GatherLoweringOptionList in LoweringOptions.td: the pass itself,
/// gather-to-llvm's options): the one place they are copied.
template <typename From>
GatherLoweringOptions loweringOptionsOf(const From &from) {
  GatherLoweringOptions options;
  options.vectorize = from.vectorize;
  options.vectorBits = from.vectorBits;
  options.parallel = from.parallel;
  options.parallelMinBytes = from.parallelMinBytes;
  options.streamingMinBytes = from.streamingMinBytes;
  options.alignedRowMinBytes = from.alignedRowMinBytes;
  options.memcpyRowMinBytes = from.memcpyRowMinBytes;
  options.gatherLoads = from.gatherLoads;
  options.targetCpu = from.targetCpu;
  options.validateRows = from.validateRows;
  options.prefetchDistance = from.prefetchDistance;
  options.rowPrefetchBytes = from.rowPrefetchBytes;
  options.columnBlockMinBytes = from.columnBlockMinBytes;
  return options;
}

/// gather_elements along an axis before the last walks the last dim in
/// column blocks, every position of the axis in each, only along axes of at
/// most this many positions: the block's lines along the axis stay in L2,
/// and their pages in the TLB (column-block-min-bytes says from how much
/// data on). Evidence: docs/decisions/kernel-cost-model.md, "Column blocks".
inline constexpr int64_t kColumnBlockMaxPositions = 2048;

/// Emits, at `b`'s insertion point, the loops that compute the gather op `op`
/// from the memrefs `data` and `indices` into the memref `out` (already
/// allocated with the result's shape). Fails, with a diagnostic on `op`, only
/// for what a loop nest cannot express (unranked operands). The elements of
/// `indices` are read as `indexExtension` says: `Unsigned` where `indices`
/// holds the narrower integers that an unsigned widening made the op's
/// indices of.
LogicalResult
emitGatherKernel(OpBuilder &b, Operation *op, Value data, Value indices,
                 Value out, const GatherLoweringOptions &options,
                 IndexExtension indexExtension = IndexExtension::Signed);

/// Gives llvm.fence, which the kernels emit after streaming stores, the
/// memory effects it has (upstream declares none, and passes such as the
/// buffer deallocation pipeline reject ops with unknown effects). Kernels
/// stream only in contexts where this is registered (registerAllGatherDialects
/// does it).
void registerStreamingFenceExternalModel(DialectRegistry &registry);

/// Patterns that rewrite tensor gather ops into bufferization.to_buffer, a
/// memref.alloc, the loop nest, and bufferization.to_tensor, for One-Shot
/// Bufferize to fold away.
void populateGatherToLoopsPatterns(RewritePatternSet &patterns,
                                   const GatherLoweringOptions &options = {});

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOLOOPS_GATHERTOLOOPS_H
