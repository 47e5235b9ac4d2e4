//===- gather-tile-fuse.cpp - Tile a consumer, fuse its gather --*- C++ -*-===//
//
// What a compiler that schedules with upstream's C++ API does with the
// installed GatherMLIR: tiles an elementwise consumer of a gather with
// scf::tileConsumerAndFuseProducersUsingSCF, which fuses the gather into the
// consumer's loops through the gather's TilingInterface (one row of the
// gather per tile: the gathered rows never exist whole), then lowers the
// result with gather-to-llvm.
//
//===----------------------------------------------------------------------===//

#include "gather/InitAll.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// An embedding lookup scaled by 2: the gather and its consumer.
static constexpr const char *kModule = R"mlir(
func.func @scaled_lookup(%table: tensor<1000x64xf32>, %ids: tensor<128xi64>)
    -> tensor<128x64xf32> {
  %rows = gather.gather %table[%ids] {mode = #gather<mode clamp>}
      : (tensor<1000x64xf32>, tensor<128xi64>) -> tensor<128x64xf32>
  %init = tensor.empty() : tensor<128x64xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<128x64xf32>) outs(%init : tensor<128x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<128x64xf32>
  return %scaled : tensor<128x64xf32>
}
)mlir";

int main() {
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  gather::registerAllGatherDialects(registry);
  MLIRContext ctx(registry);

  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kModule, &ctx);
  if (!module)
    return 1;

  linalg::GenericOp consumer;
  module->walk([&](linalg::GenericOp op) { consumer = op; });
  IRRewriter rewriter(&ctx);
  rewriter.setInsertionPoint(consumer);
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(
      {rewriter.getIndexAttr(1), rewriter.getIndexAttr(0)});
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(consumer.getOperation()), options);
  if (failed(tiled)) {
    llvm::errs() << "tile and fuse failed\n";
    return 1;
  }
  for (auto [original, replacement] : tiled->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
  // The untiled consumer and what only it used (the whole gather among
  // them) are dead now.
  rewriter.eraseOp(consumer);
  (void)simplifyRegions(rewriter, module->getOperation()->getRegions());
  llvm::outs() << "fused producers: " << tiled->fusedProducers.size() << "\n";
  if (failed(verify(*module))) {
    llvm::errs() << "the tiled module does not verify\n";
    return 1;
  }
  llvm::outs() << "tiled:\n" << *module << "\n";

  PassManager pm(&ctx);
  gather::buildGatherToLLVMPipeline(pm, gather::GatherToLLVMOptions());
  if (failed(pm.run(*module))) {
    llvm::errs() << "gather-to-llvm failed\n";
    return 1;
  }
  llvm::outs() << "lowered:\n" << *module << "\n";
  return 0;
}
