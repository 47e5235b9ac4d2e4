//===- EmbeddingBagToSCF.h - Lower embedding bags to loops ------*- C++ -*-===//

#ifndef GATHER_CONVERSION_EMBEDDINGBAGTOSCF_EMBEDDINGBAGTOSCF_H
#define GATHER_CONVERSION_EMBEDDINGBAGTOSCF_EMBEDDINGBAGTOSCF_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;
namespace gather {

/// How lowered embedding bags report what the mode makes an error.
enum class BagErrorReport {
  /// Calls of the run-time hooks (gather-c/Runtime.h): the message names
  /// the bad value, and a host can take the failure over.
  Hooks,
  /// cf.assert with a fixed message: upstream ops only.
  Asserts
};

/// A pattern (for dialect conversion or greedy rewriting) that lowers
/// `gather.embedding_bag` on tensors to an `scf.forall` over bags whose body
/// walks the bag's ids with `scf.for` and accumulates each row into the
/// bag's result row with an elementwise `linalg.generic` on a slice of the
/// table: O(ids x dim) work, upstream ops only (scf, tensor, linalg, arith,
/// and func.call of the hooks or cf.assert). With `prefetchDistance` > 0,
/// the rows of the id that many positions ahead are prefetched (through a
/// read-only bufferization.to_buffer of the table and memref.prefetch).
void populateEmbeddingBagToSCFPatterns(RewritePatternSet &patterns,
                                       BagErrorReport report,
                                       int64_t prefetchDistance);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_EMBEDDINGBAGTOSCF_EMBEDDINGBAGTOSCF_H
