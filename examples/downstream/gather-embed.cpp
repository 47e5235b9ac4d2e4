//===- gather-embed.cpp - A compiler that embeds GatherMLIR -----*- C++ -*-===//
//
// What a compiler built on an installed GatherMLIR does: registers the
// dialect in its own context, builds a gather op with the generated C++
// builders, verifies it and lowers it to the LLVM dialect with the
// gather-to-llvm pipeline in its own PassManager.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/InitAll.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// func.func @lookup(%table: tensor<4x3xf32>, %ids: tensor<2xi64>)
///     -> tensor<2x3xf32>: rows of %table, 0 for ids out of range.
static OwningOpRef<ModuleOp> buildLookup(MLIRContext &ctx) {
  OpBuilder builder(&ctx);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());

  auto tableType = RankedTensorType::get({4, 3}, builder.getF32Type());
  auto idsType = RankedTensorType::get({2}, builder.getI64Type());
  auto resultType = RankedTensorType::get({2, 3}, builder.getF32Type());
  auto func = func::FuncOp::create(
      builder, loc, "lookup",
      builder.getFunctionType({tableType, idsType}, {resultType}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);

  // The result type is inferred (InferTypeOpInterface).
  auto gather = gather::GatherOp::create(
      builder, loc, body->getArgument(0), body->getArgument(1),
      /*axis=*/0, /*batch_dims=*/0, gather::GatherMode::fill);
  func::ReturnOp::create(builder, loc, gather.getResult());
  return module;
}

int main() {
  DialectRegistry registry;
  // The upstream dialects and interface models the pipeline lowers through,
  // then the gather dialect with its own models.
  registerAllDialects(registry);
  registerAllExtensions(registry);
  gather::registerAllGatherDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<func::FuncDialect, gather::GatherDialect>();

  OwningOpRef<ModuleOp> module = buildLookup(ctx);
  if (failed(verify(*module))) {
    llvm::errs() << "the built module does not verify\n";
    return 1;
  }
  llvm::outs() << "built:\n" << *module << "\n";

  PassManager pm(&ctx);
  gather::GatherToLLVMOptions options;
  gather::buildGatherToLLVMPipeline(pm, options);
  if (failed(pm.run(*module))) {
    llvm::errs() << "gather-to-llvm failed\n";
    return 1;
  }
  if (failed(verify(*module))) {
    llvm::errs() << "the lowered module does not verify\n";
    return 1;
  }
  llvm::outs() << "lowered:\n" << *module << "\n";
  return 0;
}
