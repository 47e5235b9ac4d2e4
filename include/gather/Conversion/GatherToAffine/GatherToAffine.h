//===- GatherToAffine.h - Lower gather ops to affine/vector -----*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOAFFINE_GATHERTOAFFINE_H
#define GATHER_CONVERSION_GATHERTOAFFINE_GATHERTOAFFINE_H

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class RewritePatternSet;
namespace gather {

/// How a row of gather_elements (or of gather along the last axis) reads
/// data: hardware vector gathers, or one scalar load per element, which is
/// faster where gathers are slow (AMD Zen, and Intel cores with the Gather
/// Data Sampling microcode mitigation).
enum class GatherLoads { Auto, Vector, Scalar };

/// What GatherLoads::Auto means on the host (the JIT's target): Scalar on
/// AMD Zen CPUs and when /sys reports the Gather Data Sampling mitigation
/// in microcode, else Vector.
GatherLoads getHostGatherLoads();

/// How the loop nests are emitted.
struct GatherLoweringOptions {
  /// Move contiguous slices (and gather_elements rows along the innermost
  /// axis) with vector operations instead of element by element.
  bool vectorize = true;
  /// Bits in one vector; its lane count is this over the element width.
  unsigned vectorBits = 256;
  /// Make the outermost loop of the gather (not of the validation, which
  /// reports the first bad index) an scf.parallel, for scf-to-openmp, for
  /// results of at least `parallelMinBytes` bytes (a run-time test when the
  /// sizes are dynamic; smaller results keep a serial loop nest).
  bool parallel = false;
  int64_t parallelMinBytes = 8 << 20;
  /// Results of at least this many bytes write their contiguous rows with
  /// non-temporal (streaming) vector stores, which skip the cache instead of
  /// first reading every destination line into it; smaller results stay in
  /// the cache for whoever reads them next. -1 never streams.
  int64_t streamingMinBytes = 40 << 20;
  /// Slices of at most 512 bytes (gather_nd tuples, short rows) are
  /// prefetched this many index positions ahead: the hardware prefetcher
  /// follows a long row by itself, but not jumps from slice to slice.
  /// 0 never prefetches: the default, as on the development machine (2 MiB
  /// L2, 260 MiB L3) every distance from 4 to 64 cost 5-25% (gather_nd
  /// 512x512x32 f32 with 65536 pairs; 65536 rows of 1,000,000x64 f32).
  int64_t prefetchDistance = 0;
  /// Vector gathers or scalar loads along rows (Auto: getHostGatherLoads).
  GatherLoads gatherLoads = GatherLoads::Auto;
  /// In `check` mode, kernels that gather by rows along the last axis
  /// (gather_elements, gather) validate each row of indices right before
  /// gathering it, while it is in L1, instead of in a separate pass over all
  /// of them; serial loops only. The result may then be partly written when
  /// an index error is reported: for destinations nobody sees after an
  /// error (a fresh result), not for a caller's buffer that must survive.
  bool validateRows = false;
};

/// The run-time hooks a kernel calls before it returns without gathering
/// (include/gather-c/Runtime.h has their C declarations and messages):
///   void gather_mlir_index_error(int64_t op, int64_t dataDim,
///                                int64_t index, int64_t dimSize);
/// for a failed `check` (or an index into an empty dimension in
/// `clamp`/`wrap` mode), and
///   void gather_mlir_shape_error(int64_t op, int64_t rule, int64_t dim,
///                                int64_t a, int64_t b);
/// for a shape rule (GATHER_MLIR_RULE_*) that fails at run time. `op` is 0 for gather.gather, 1
/// for gather_elements, 2 for gather_nd. gather-define-error-handlers gives
/// them weak default definitions.
inline constexpr llvm::StringLiteral kIndexErrorHook =
    "gather_mlir_index_error";
inline constexpr llvm::StringLiteral kShapeErrorHook =
    "gather_mlir_shape_error";

/// Declares the hook `name` (kIndexErrorHook, kShapeErrorHook) as a private
/// function in the symbol table that holds `op`, unless it is there.
void declareErrorHook(OpBuilder &b, Operation *op, StringRef name);

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
