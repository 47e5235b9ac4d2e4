//===- Passes.td - Gather dialect transformation passes ----*- tablegen -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
#define GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GatherEmitCInterface : Pass<"gather-emit-c-interface", "ModuleOp"> {
  let summary = "Give every public function definition a C-callable wrapper";
  let description = [{
    Sets `llvm.emit_c_interface` on each public `func.func` with a body, so
    that `convert-func-to-llvm` also emits `_mlir_ciface_<name>`, which takes
    every memref as a pointer to a `StridedMemRefType` descriptor: the stable
    ABI a C or C++ program links against.
  }];
}

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
