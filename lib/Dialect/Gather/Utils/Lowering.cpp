//===- Lowering.cpp - What the gather lowerings share ---------------------===//

#include "gather/Dialect/Gather/Utils/Lowering.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"

using namespace mlir;

LogicalResult
mlir::gather::checkRankedOperands(Operation *root, StringRef pass,
                                  StringRef remedy,
                                  function_ref<bool(Operation *)> needsRanks) {
  WalkResult walk = root->walk([&](Operation *op) {
    if (!isa<GatherDialect>(op->getDialect()) || !needsRanks(op) ||
        llvm::all_of(op->getOperandTypes(), [](Type t) {
          return !isa<TensorType>(t) || isa<RankedTensorType>(t);
        }))
      return WalkResult::advance();
    op->emitOpError("has unranked operands: ")
        << pass << " needs ranked operands (" << remedy << ")";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult
mlir::gather::applyLoweringPatterns(Operation *root, ConversionTarget &target,
                                    RewritePatternSet &&patterns) {
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  return applyPartialConversion(root, target, std::move(patterns), config);
}
