//===- Passes.td - GatherMLIR's pipelines ------------------*- tablegen -*-===//

#ifndef GATHER_PIPELINES_PASSES_TD
#define GATHER_PIPELINES_PASSES_TD

include "gather/Conversion/LoweringOptions.td"

def GatherToLLVM : Pass<"gather-to-llvm", "ModuleOp"> {
  let summary = "Lower a module of gather ops and upstream tensor/func/arith/"
                "memref ops to the LLVM dialect";
  let description = [{
    A pipeline (`buildGatherToLLVMPipeline` in C++), run as one pass so that
    its options are declared once, with those of the passes it forwards
    them to:

    1. `convert-tensor-to-gather` (upstream `tensor.gather` becomes gather
       ops), `gather-warn-constant-indices` (a warning per constant index
       that `check` mode rejects if it runs), `gather-shape-inference`
       (results as static as the operands allow),
       `convert-embedding-bag-to-scf` (option `bag-prefetch-distance`),
       `convert-elementwise-to-linalg` (elementwise arith and math on
       tensors),
       `gather-fuse-elementwise` (option `fuse-elementwise`: elementwise
       consumers computed in the loop of the gathers they read),
       `gather-dispatch-unranked` (option `max-unranked-rank`: gathers on
       unranked operands switch on their run-time ranks),
       `convert-gather-to-loops` (the gather ops become loop nests; the
       options it shares), `convert-shard-to-mpi` and
       `gather-mpi-reduce-in-place` (a partitioned module's collectives);
    2. empty tensor elimination, `one-shot-bufferize` with function
       boundaries and identity layouts, the ownership-based buffer
       deallocation pipeline, `gather-flatten-linalg` (copies and
       elementwise ops on contiguous buffers as flat loops), with
       `parallel` `gather-parallelize-linalg`
       (large linalg ops outside loops, such as unfused elementwise ops, on
       threads), `gather-copy-to-memmove` (copies between contiguous
       buffers outside loops as one memmove), `convert-linalg-to-loops`;
    3. `canonicalize`, `cse`, loop-invariant code motion;
    4. `lower-affine`, `scf-forall-to-for` (or, with `parallel`,
       `scf-forall-to-parallel`, `convert-scf-to-openmp` with
       `num-threads` and `gather-openmp-schedule`);
    5. `gather-emit-c-interface` (option `c-interface`);
    6. `convert-complex-to-standard` (complex functions),
       `convert-math-to-funcs`, `gather-precise-math`,
       `convert-math-to-llvm` and `convert-math-to-libm` (math ops:
       outlined integer powers, expm1 and log1p as libm calls, LLVM's
       intrinsics, libm calls), `arith-emulate-unsupported-floats`
       (bf16 arithmetic in f32) and `gather-expand-bf16` (conversions to
       and from bf16 as integer ops), vector and memref to LLVM,
       `convert-scf-to-cf`, then complex, arith, index, (parallel) openmp,
       func and cf to LLVM,
       `convert-gather-mpi-to-llvm`, `reconcile-unrealized-casts` and
       `gather-legalize-masked-memory` (masked memory intrinsics of bf16
       and f16 vectors as i16 ones);
    7. `gather-define-error-handlers` (option `default-error-handlers`).
  }];
  let options = !listconcat(GatherLoweringOptionList, [
    Option<"numThreads", "num-threads", "unsigned", /*default=*/"0",
           "With parallel: OpenMP threads per parallel loop (0: the OpenMP "
           "runtime's default, OMP_NUM_THREADS)">,
    BagPrefetchDistanceOption<"bagPrefetchDistance", "bag-prefetch-distance">,
    MaxUnrankedRankOption<"maxUnrankedRank", "max-unranked-rank">,
    Option<"fuseElementwise", "fuse-elementwise", "bool", /*default=*/"true",
           "Compute elementwise consumers of gathers in the gathers' loop "
           "(gather-fuse-elementwise)">,
    Option<"cInterface", "c-interface", "bool", /*default=*/"true",
           "Give public functions a C-callable _mlir_ciface_ wrapper">,
    Option<"defaultErrorHandlers", "default-error-handlers", "bool",
           /*default=*/"true",
           "Define the run-time error hooks weakly in the module (print and "
           "exit 1); off for hosts that resolve them themselves">,
  ]);
}

#endif // GATHER_PIPELINES_PASSES_TD
