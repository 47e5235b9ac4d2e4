//===- MPIMemoryEffects.h - Memory effects of the mpi ops -------*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERMPITOLLVM_MPIMEMORYEFFECTS_H
#define GATHER_CONVERSION_GATHERMPITOLLVM_MPIMEMORYEFFECTS_H

namespace mlir {
class DialectRegistry;
namespace gather {

/// Attaches MemoryEffectOpInterface to the mpi ops that LLVM 22 leaves
/// without one (init, finalize, allreduce, barrier), so that the buffer
/// deallocation pipeline accepts partitioned modules.
void registerMPIMemoryEffectsExternalModels(DialectRegistry &registry);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERMPITOLLVM_MPIMEMORYEFFECTS_H
