//===- ScatterToSCF.h - Lower the scatters to loops on tensors --*- C++ -*-===//

#ifndef GATHER_CONVERSION_SCATTERTOSCF_SCATTERTOSCF_H
#define GATHER_CONVERSION_SCATTERTOSCF_SCATTERTOSCF_H

#include "gather/Conversion/ErrorHooks/ErrorHooks.h"

namespace mlir {
class RewritePatternSet;
namespace gather {

/// A pattern that lowers `gather.scatter`, `gather.scatter_elements` and
/// `gather.scatter_nd` on ranked tensors to upstream ops only: a scan that
/// validates every index and run-time shape rule first, then one `scf.for`
/// nest over `updates` in row-major order (so duplicates combine
/// deterministically) that reads, combines and inserts into `dest` with
/// `tensor.extract`/`tensor.insert`. Errors are reported as `report` says.
void populateScatterToSCFPatterns(RewritePatternSet &patterns,
                                  ErrorReport report);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_SCATTERTOSCF_SCATTERTOSCF_H
