//===- Pipelines.h - GatherMLIR's registered pipelines ----------*- C++ -*-===//

#ifndef GATHER_PIPELINES_PIPELINES_H
#define GATHER_PIPELINES_PIPELINES_H

#include "gather/Conversion/Passes.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
namespace gather {

// GatherToLLVMOptions: the options of gather-to-llvm, declared in
// Pipelines/Passes.td (with those of the passes it forwards them to, in
// Conversion/LoweringOptions.td).
#define GEN_PASS_DECL_GATHERTOLLVM
#include "gather/Pipelines/Passes.h.inc"

/// Tensor-level gather/func/arith/tensor/bufferization/memref IR down to the
/// LLVM dialect: the passes of gather-to-llvm (Pipelines/Passes.td lists
/// them, docs/GatherPasses.md shows them) added to `pm`.
void buildGatherToLLVMPipeline(OpPassManager &pm,
                               const GatherToLLVMOptions &options);

/// Registers `gather-to-llvm`.
void registerGatherPipelines();

} // namespace gather
} // namespace mlir

#endif // GATHER_PIPELINES_PIPELINES_H
