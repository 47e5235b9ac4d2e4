//===- GatherToAffine.h - Lower gather ops to affine/vector -----*- C++ -*-===//
//
// The kernel-emission API (emitGatherKernel and its options), the
// rank dispatch of unranked gathers, and the patterns of
// convert-gather-to-affine. The error hooks the kernels call are in
// ErrorHooks/ErrorHooks.h; how rows read data in GatherLoads.h.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_GATHERTOAFFINE_GATHERTOAFFINE_H
#define GATHER_CONVERSION_GATHERTOAFFINE_GATHERTOAFFINE_H

#include "gather/Conversion/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class RewritePatternSet;
namespace gather {

/// How the loop nests are emitted: the options of convert-gather-to-affine,
/// whose TableGen definition (Passes.td) is the one home of their defaults
/// and descriptions.
using GatherLoweringOptions = ConvertGatherToAffineOptions;

/// Emits, at `b`'s insertion point, the loops that compute the gather op `op`
/// from the memrefs `data` and `indices` into the memref `out` (already
/// allocated with the result's shape). Fails, with a diagnostic on `op`, only
/// for what a loop nest cannot express (unranked operands).
LogicalResult emitGatherKernel(OpBuilder &b, Operation *op, Value data,
                               Value indices, Value out,
                               const GatherLoweringOptions &options);

/// Gives llvm.fence, which the kernels emit after streaming stores, the
/// memory effects it has (upstream declares none, and passes such as the
/// buffer deallocation pipeline reject ops with unknown effects). Kernels
/// stream only in contexts where this is registered (registerAllGatherDialects
/// does it).
void registerStreamingFenceExternalModel(DialectRegistry &registry);

/// Rewrites every gather op under `root` whose data or indices is unranked
/// into an scf.index_switch on the run-time ranks (up to `maxRank`) whose
/// cases hold ranked copies of the op; ranks past `maxRank`, or that the
/// op's rules reject, call gather_mlir_shape_error.
void dispatchUnrankedGathers(Operation *root, int64_t maxRank);

/// Patterns that rewrite tensor gather ops into bufferization.to_buffer, a
/// memref.alloc, the loop nest, and bufferization.to_tensor, for One-Shot
/// Bufferize to fold away.
void populateGatherToAffinePatterns(RewritePatternSet &patterns,
                                    const GatherLoweringOptions &options = {});

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOAFFINE_GATHERTOAFFINE_H
