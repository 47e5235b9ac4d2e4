//===- ScatterToSCF.h - Lower the scatters to loops on tensors --*- C++ -*-===//

#ifndef GATHER_CONVERSION_SCATTERTOSCF_SCATTERTOSCF_H
#define GATHER_CONVERSION_SCATTERTOSCF_SCATTERTOSCF_H

#include "gather/Dialect/Gather/Utils/ErrorHooks.h"

#include <cstdint>

namespace mlir {
class DialectRegistry;
class OpBuilder;
class RewritePatternSet;
class Value;
namespace gather {
class ScatterOpInterface;

/// Whether the lowered scatters run on threads (an scf.forall over ranges
/// of dest's rows, each thread applying the updates that land in its rows in
/// their sequential order), and from how many bytes of updates.
struct ScatterThreads {
  bool parallel = false;
  int64_t parallelMinBytes = 0;
};

/// A pattern that lowers `gather.scatter`, `gather.scatter_elements` and
/// `gather.scatter_nd` on ranked tensors to upstream ops only: a scan that
/// validates every index and run-time shape rule first, then one `scf.for`
/// nest over `updates` in row-major order (so duplicates combine
/// deterministically) that reads, combines and inserts into `dest` with
/// `tensor.extract`/`tensor.insert`. Errors are reported as `report` says.
void populateScatterToSCFPatterns(RewritePatternSet &patterns,
                                  ErrorReport report,
                                  ScatterThreads threading = {});

/// The loops of `op` on `dest`, `indices` and `updates`, at the builder's
/// insertion point: tensors (the result is the new dest) or memrefs (dest is
/// written in place and returned). `op` must verify.
Value emitScatter(OpBuilder &b, ScatterOpInterface op, Value dest,
                  Value indices, Value updates, ErrorReport report,
                  ScatterThreads threading = {});

/// Lets One-Shot Bufferize bufferize the scatters: each writes into the
/// buffer of `dest` (in place when the analysis allows, a copy otherwise)
/// with the loops of emitScatter on memrefs, errors through the run-time
/// hooks, as the gathers' model.
void registerScatterBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_SCATTERTOSCF_SCATTERTOSCF_H
