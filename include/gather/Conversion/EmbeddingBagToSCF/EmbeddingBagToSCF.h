//===- EmbeddingBagToSCF.h - Lower embedding bags to loops ------*- C++ -*-===//

#ifndef GATHER_CONVERSION_EMBEDDINGBAGTOSCF_EMBEDDINGBAGTOSCF_H
#define GATHER_CONVERSION_EMBEDDINGBAGTOSCF_EMBEDDINGBAGTOSCF_H

#include "gather/Dialect/Gather/Utils/ErrorHooks.h"

#include <cstdint>

namespace mlir {
class RewritePatternSet;
namespace gather {

/// How lowered embedding bags report what the mode makes an error.
using BagErrorReport = ErrorReport;

/// The loops of a lowered embedding bag. Both do O(ids x dim) work.
enum class BagForm {
  /// An `scf.forall` over bags whose body walks the bag's ids with `scf.for`
  /// and accumulates chunks of each row (vectors of 4096 bits) in
  /// registers: the kernels' form (gather-to-llvm).
  BagLoops,
  /// One `linalg.generic` over the result's elements, each walking its
  /// bag's ids with an `scf.for` in the body, after `linalg.generic`s that
  /// cf.assert each offset and (check mode) id: a form that compilers which
  /// build their dispatches from linalg ops (IREE) take. Reports with
  /// BagErrorReport::Asserts only.
  Elementwise
};

/// A pattern (for dialect conversion or greedy rewriting) that lowers
/// `gather.embedding_bag` on tensors to loops of `form`, upstream ops only
/// (scf, tensor, linalg, vector, arith, and func.call of the hooks or
/// cf.assert). With `prefetchDistance` > 0 (BagLoops), the rows of the id
/// that many positions ahead are prefetched (through a read-only
/// bufferization.to_buffer of the table and memref.prefetch).
void populateEmbeddingBagToSCFPatterns(RewritePatternSet &patterns,
                                       BagErrorReport report, BagForm form,
                                       int64_t prefetchDistance);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_EMBEDDINGBAGTOSCF_EMBEDDINGBAGTOSCF_H
