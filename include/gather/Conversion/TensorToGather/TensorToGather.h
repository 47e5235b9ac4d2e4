//===- TensorToGather.h - Raise tensor.gather into gather ops ---*- C++ -*-===//

#ifndef GATHER_CONVERSION_TENSORTOGATHER_TENSORTOGATHER_H
#define GATHER_CONVERSION_TENSORTOGATHER_TENSORTOGATHER_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"

namespace mlir {
class RewritePatternSet;
namespace gather {

/// Patterns that rewrite upstream `tensor.gather` into `gather.gather_nd`
/// (after a `linalg.transpose` of the source when `gather_dims` do not
/// lead, and followed by a `tensor.expand_shape` when the result keeps the
/// gathered dims). Out-of-range coordinates, undefined upstream, get `mode`.
void populateTensorToGatherPatterns(RewritePatternSet &patterns,
                                    GatherMode mode = GatherMode::check);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_TENSORTOGATHER_TENSORTOGATHER_H
