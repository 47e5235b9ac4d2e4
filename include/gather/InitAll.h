//===- InitAll.h - Register everything GatherMLIR provides ------*- C++ -*-===//
//
// What a tool or an embedding compiler calls to get the gather dialect, its
// interface models, passes and pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_INITALL_H
#define GATHER_INITALL_H

namespace mlir {
class DialectRegistry;
namespace gather {

/// Adds the gather dialect and its external interface models to `registry`.
void registerAllGatherDialects(DialectRegistry &registry);

/// Registers the gather passes and the named pipelines (`gather-to-llvm`).
void registerAllGatherPasses();

} // namespace gather
} // namespace mlir

#endif // GATHER_INITALL_H
