//===- Pipelines.cpp - GatherMLIR's registered pipelines --------*- C++ -*-===//
//
// Upstream passes do everything here but the gather lowering itself:
// One-Shot Bufferize, the buffer deallocation pipeline, and the standard
// conversions to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"

#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ComplexToStandard/ComplexToStandard.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/ShardToMPI/ShardToMPI.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::gather;

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERTOLLVM
#include "gather/Pipelines/Passes.h.inc"
} // namespace mlir::gather

namespace {
/// The passes of gather-to-llvm, from `options`: GatherToLLVMOptions or the
/// pass itself, whose options have the same names.
template <typename Options>
void buildPipeline(OpPassManager &pm, const Options &options) {
  // Upstream tensor.gather, which MLIR cannot bufferize, becomes gather ops.
  pm.addPass(createConvertTensorToGather());
  // Constant indices that check mode will reject when they run: a warning.
  pm.addPass(createGatherWarnConstantIndices());
  // Ranked results wherever the operands allow; then only what stays
  // unranked needs the run-time rank dispatch.
  pm.addPass(createGatherShapeInference());
  // Embedding bags: loops over bags and ids, on tensors.
  ConvertEmbeddingBagToSCFOptions bags;
  bags.prefetchDistance = options.bagPrefetchDistance;
  pm.addPass(createConvertEmbeddingBagToSCF(bags));
  // Scatters: a validating scan, then loops over updates (threads owning
  // ranges of dest's rows).
  ConvertScatterToSCFOptions scatters;
  scatters.parallel = options.parallel;
  scatters.parallelMinBytes = options.parallelMinBytes;
  pm.addPass(createConvertScatterToSCF(scatters));
  // Elementwise arith and math on tensors go through linalg, where
  // gather-fuse-elementwise computes those that read gathers in the gathers'
  // loop.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  if (options.fuseElementwise) {
    GatherFuseElementwiseOptions fusion;
    fusion.parallel = options.parallel;
    fusion.parallelMinBytes = options.parallelMinBytes;
    pm.addPass(createGatherFuseElementwise(fusion));
  }
  // Unranked operands: a switch on their run-time ranks, ranked gathers in
  // each case.
  GatherDispatchUnrankedOptions dispatch;
  dispatch.maxRank = options.maxUnrankedRank;
  pm.addPass(createGatherDispatchUnranked(dispatch));
  pm.addPass(createConvertGatherToLoops(loweringOptionsOf(options)));
  // A partitioned module (shard-partition's output): its collectives and
  // process indices become mpi ops on buffers, before bufferization.
  pm.addPass(createConvertShardToMPIPass());
  pm.addPass(createGatherMPIReduceInPlace());

  // A tensor.empty whose value ends up stored into a buffer (a fused loop
  // materialized in a caller's destination) becomes that buffer.
  // (Along every path of a result: upstream's pass replaces one use.)
  pm.addPass(createGatherEliminateEmptyTensors());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops may carry gathered tensors (scf.for iter_args).
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  // The clones the deallocation pipeline inserts (a function that returns
  // an argument, a constant or a view) become allocations and copies.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Copies and elementwise ops on contiguous buffers as flat loops, which
  // vectorize however short the innermost dim is.
  pm.addNestedPass<func::FuncOp>(createGatherFlattenLinalg());
  // Large linalg ops that no loop holds (elementwise ops not fused into a
  // gather's loop) on threads, as the gathers: their outer loop parallel.
  if (options.parallel) {
    GatherParallelizeLinalgOptions threads;
    threads.parallelMinBytes = options.parallelMinBytes;
    pm.addNestedPass<func::FuncOp>(createGatherParallelizeLinalg(threads));
  }
  // Whole copies between contiguous buffers as one memmove; copies in loops
  // (the threads' tiles) stay for the next pass.
  pm.addNestedPass<func::FuncOp>(createGatherCopyToMemmove());
  // scf loops, which are valid anywhere: affine loops are not inside the
  // scf.for/scf.forall of tiled linalg ops (their bounds use scf ivs).
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());

  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createLowerAffinePass());
  // scf.forall (tile_using_forall's loops): on threads with `parallel`,
  // through scf.parallel and OpenMP; else one iteration after another.
  if (options.parallel)
    pm.addPass(createForallToParallelLoopPass());
  else
    pm.addPass(createForallToForLoopPass());
  if (options.parallel) {
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = options.numThreads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
    pm.addPass(createGatherOpenMPSchedule());
  }
  if (options.cInterface)
    pm.addPass(createGatherEmitCInterface());

  // Complex functions (exp, log, sqrt, ...) as arith and math on the parts;
  // then math ops (fused into a gather's loop or not): outlined integer
  // powers, expm1 and log1p as libm calls (gather-precise-math), LLVM's
  // intrinsics where LLVM has one, libm calls for the rest (tanh, erf, ...;
  // vectors a lane at a time). Before scf-to-cf and func-to-llvm: the
  // outlined functions hold scf loops, the libm calls are func.calls.
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createGatherPreciseMath());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // bf16 arithmetic in f32, and conversions to and from bf16 as integer
  // ops: LLVM lowers them to libgcc calls that hosts without AVX-512 BF16
  // and GCC 13 cannot link.
  pm.addPass(arith::createArithEmulateUnsupportedFloats(
      {/*sourceTypeStrs=*/{"bf16"}, /*targetTypeStr=*/"f32"}));
  pm.addPass(createGatherExpandBFloat16());
  // A 1-D transfer of a memref whose last dim has a stride other than 1
  // (ids sliced with a stride, fixed-length bags tiled) as a loop of
  // scalar loads: vector-to-llvm lowers only unit strides. (The pass also
  // unrolls n-D transfers into loops and splits broadcasting ones; the
  // kernels have neither, and their code is the same with it or without,
  // checked on every test's input.)
  pm.addPass(createConvertVectorToSCFPass());
  // memref before scf-to-cf: scf-to-openmp wraps parallel bodies in
  // memref.alloca_scope, which must be lowered while they are one block.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  // Where func-to-llvm (or openmp-to-llvm, which converts functions too)
  // puts the data pointers of `llvm.noalias` memrefs: recorded before it,
  // marked once the canonicalizer below has folded the descriptors, so
  // that accesses are seen to go through them.
  pm.addPass(createGatherNoAliasMemRefArgs());
  if (options.parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertGatherMPIToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Masked memory intrinsics of bf16/f16 vectors (a row's last, partial
  // vector) as i16 ones, which every host's instruction selection lowers.
  pm.addPass(createGatherLegalizeMaskedMemory());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createGatherNoAliasMemRefArgs());
  if (options.defaultErrorHandlers)
    pm.addPass(createGatherDefineErrorHandlers());
}

/// gather-to-llvm as a pass: its options are declared with those of the
/// passes it runs (Passes.td), and it runs them as a dynamic pipeline.
struct GatherToLLVMPass : gather::impl::GatherToLLVMBase<GatherToLLVMPass> {
  using Base::Base;
  // Both read the options (protected members of Base).
  template <typename Options>
  friend void buildPipeline(OpPassManager &, const Options &);
  template <typename From>
  friend GatherLoweringOptions gather::loweringOptionsOf(const From &);

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    buildPipeline(pm, *this);
    pm.getDependentDialects(registry);
  }

  LogicalResult initialize(MLIRContext *) override {
    pipeline = OpPassManager(ModuleOp::getOperationName());
    buildPipeline(pipeline, *this);
    return success();
  }

  void runOnOperation() override {
    if (failed(runPipeline(pipeline, getOperation())))
      signalPassFailure();
  }

  OpPassManager pipeline{ModuleOp::getOperationName()};
};
} // namespace

void mlir::gather::buildGatherToLLVMPipeline(
    OpPassManager &pm, const GatherToLLVMOptions &options) {
  buildPipeline(pm, options);
}

void mlir::gather::registerGatherPipelines() {
  registerPass([] { return createGatherToLLVM(); });
}
