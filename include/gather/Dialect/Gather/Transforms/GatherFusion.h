//===- GatherFusion.h - Consumers fused into the gather's loop --*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_GATHERFUSION_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_GATHERFUSION_H

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace gather {

/// How fused loops run.
struct GatherFusionOptions {
  /// scf.forall loops (threads, through scf-forall-to-parallel and OpenMP)
  /// for results of at least `parallelMinBytes` bytes; a serial scan before
  /// the loop reports the first bad index.
  bool parallel;
  int64_t parallelMinBytes;
};

/// Tiles the elementwise `consumer` by one index position of the
/// gather.gather ops it reads, fuses those gathers (when it is their only
/// user) into the loop, and turns each fused gather into a slice of its
/// data at the resolved index. Fails, changing nothing, when `consumer` is
/// not elementwise on tensors or reads no gather.
LogicalResult fuseElementwiseConsumer(RewriterBase &rewriter,
                                      linalg::LinalgOp consumer,
                                      const GatherFusionOptions &options);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_GATHERFUSION_H
