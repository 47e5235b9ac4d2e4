//===- Pipelines.h - GatherMLIR's registered pipelines ----------*- C++ -*-===//

#ifndef GATHER_PIPELINES_PIPELINES_H
#define GATHER_PIPELINES_PIPELINES_H

#include "gather/Conversion/Passes.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
namespace gather {

/// The options gather-to-llvm shares with convert-gather-to-affine take
/// their defaults from it: Passes.td spells each default once.
inline const ConvertGatherToAffineOptions &loweringDefaults() {
  static const ConvertGatherToAffineOptions defaults;
  return defaults;
}

/// The same for the options it shares with convert-embedding-bag-to-scf.
inline const ConvertEmbeddingBagToSCFOptions &bagLoweringDefaults() {
  static const ConvertEmbeddingBagToSCFOptions defaults;
  return defaults;
}

/// And with gather-dispatch-unranked.
inline const GatherDispatchUnrankedOptions &dispatchDefaults() {
  static const GatherDispatchUnrankedOptions defaults;
  return defaults;
}

struct GatherToLLVMOptions : public PassPipelineOptions<GatherToLLVMOptions> {
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Move contiguous slices with vector operations"),
      llvm::cl::init(loweringDefaults().vectorize)};
  PassOptions::Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Bits per vector (lanes = vector-bits / element bits)"),
      llvm::cl::init(loweringDefaults().vectorBits)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run the outermost gather loop on OpenMP threads "
                     "(link libomp)"),
      llvm::cl::init(loweringDefaults().parallel)};
  PassOptions::Option<int64_t> parallelMinBytes{
      *this, "parallel-min-bytes",
      llvm::cl::desc("With parallel: results (and, for check mode's scan, "
                     "index arrays) smaller than this keep a serial loop "
                     "nest"),
      llvm::cl::init(loweringDefaults().parallelMinBytes)};
  PassOptions::Option<unsigned> numThreads{
      *this, "num-threads",
      llvm::cl::desc("With parallel: OpenMP threads per parallel loop (0: "
                     "the OpenMP runtime's default, OMP_NUM_THREADS)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> streamingMinBytes{
      *this, "streaming-min-bytes",
      llvm::cl::desc("Results of at least this many bytes write rows of 256 "
                     "bytes or more with non-temporal stores (-1: never)"),
      llvm::cl::init(loweringDefaults().streamingMinBytes)};
  PassOptions::Option<int64_t> prefetchDistance{
      *this, "prefetch-distance",
      llvm::cl::desc("Prefetch slices of at most 512 bytes this many index "
                     "positions ahead (0: never)"),
      llvm::cl::init(loweringDefaults().prefetchDistance)};
  PassOptions::Option<int64_t> bagPrefetchDistance{
      *this, "bag-prefetch-distance",
      llvm::cl::desc("Embedding bags: prefetch the rows of the id this many "
                     "positions ahead (0: never)"),
      llvm::cl::init(bagLoweringDefaults().prefetchDistance)};
  PassOptions::Option<GatherLoads> gatherLoads{
      *this, "gather-loads",
      llvm::cl::desc("How rows along the last axis read data"),
      llvm::cl::init(loweringDefaults().gatherLoads),
      llvm::cl::values(
          clEnumValN(GatherLoads::Auto, "auto",
                     "from target-cpu: scalar on AMD Zen, else vector"),
          clEnumValN(GatherLoads::Vector, "vector", "vector.gather"),
          clEnumValN(GatherLoads::Scalar, "scalar",
                     "one scalar load per lane"))};
  PassOptions::Option<bool> validateRows{
      *this, "validate-rows",
      llvm::cl::desc("check mode: check each row's indices as it is "
                     "gathered (the result may be partly written when an "
                     "index fails)"),
      llvm::cl::init(loweringDefaults().validateRows)};
  PassOptions::Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("The CPU the code is for, as LLVM names it (empty: a "
                     "generic one): what gather-loads=auto decides from"),
      llvm::cl::init(loweringDefaults().targetCpu)};
  PassOptions::Option<int64_t> maxUnrankedRank{
      *this, "max-unranked-rank",
      llvm::cl::desc("Highest rank of unranked operands that gets a kernel "
                     "(higher ranks are a run-time error)"),
      llvm::cl::init(dispatchDefaults().maxRank)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Compute elementwise consumers of gathers in the "
                     "gathers' loop (gather-fuse-elementwise)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Give public functions a C-callable _mlir_ciface_ "
                     "wrapper"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> defaultErrorHandlers{
      *this, "default-error-handlers",
      llvm::cl::desc("Define the run-time error hooks weakly in the module "
                     "(print and exit 1); off for hosts that resolve them "
                     "themselves"),
      llvm::cl::init(true)};
};

/// Tensor-level gather/func/arith/tensor/bufferization/memref IR down to the
/// LLVM dialect:
///   1. convert-tensor-to-gather (upstream tensor.gather becomes gather ops),
///      gather-warn-constant-indices (a warning per constant index that
///      check mode rejects if it runs),
///      gather-shape-inference (results as static as the operands allow),
///      convert-elementwise-to-linalg (elementwise arith on tensors),
///      gather-fuse-elementwise (option fuse-elementwise: elementwise
///      consumers computed in the loop of the gathers they read),
///      gather-dispatch-unranked (option max-unranked-rank: gathers on
///      unranked operands switch on their run-time ranks),
///      convert-gather-to-affine (the gather ops become loop nests),
///   2. one-shot-bufferize with function boundaries and identity layouts,
///      then the ownership-based buffer deallocation pipeline, and
///      convert-linalg-to-loops,
///   3. canonicalize, cse, loop-invariant code motion,
///   4. lower-affine, scf-forall-to-for (or, with option parallel,
///      scf-forall-to-parallel and convert-scf-to-openmp),
///   5. gather-emit-c-interface (option c-interface),
///   6. vector and memref to LLVM, convert-scf-to-cf, then complex, arith,
///      index, (parallel) openmp, func and cf to LLVM, and
///      reconcile-unrealized-casts,
///   7. gather-define-error-handlers (option default-error-handlers).
void buildGatherToLLVMPipeline(OpPassManager &pm,
                               const GatherToLLVMOptions &options);

/// Registers `gather-to-llvm`.
void registerGatherPipelines();

} // namespace gather
} // namespace mlir

#endif // GATHER_PIPELINES_PIPELINES_H
