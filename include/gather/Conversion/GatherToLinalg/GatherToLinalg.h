//===- GatherToLinalg.h - Lower gather ops to upstream linalg ---*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOLINALG_GATHERTOLINALG_H
#define GATHER_CONVERSION_GATHERTOLINALG_GATHERTOLINALG_H

namespace mlir {
class RewritePatternSet;
namespace gather {

/// Patterns that lower the three gather ops on ranked tensors to upstream
/// ops only: a `linalg.generic` over the result reading `tensor.extract`s
/// of indices and data, the mode in arith (and `scf.if` for `fill`'s
/// guarded read), and `cf.assert` for `check` and the run-time shape rules.
void populateGatherToLinalgPatterns(RewritePatternSet &patterns);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOLINALG_GATHERTOLINALG_H
