//===- TestGatherInferTypes.cpp - Test the gather ops' type inference -----===//
//
// Rebuilds every gather op from its operands and properties alone, so that
// its result type comes from InferTypeOpInterface, and casts back to the old
// type where the two differ. FileCheck then sees the inferred types.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestGatherInferTypesPass
    : PassWrapper<TestGatherInferTypesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestGatherInferTypesPass)

  StringRef getArgument() const final { return "test-gather-infer-types"; }
  StringRef getDescription() const final {
    return "Rebuild gather ops with inferred result types";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tensor::TensorDialect>();
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<gather::GatherOpInterface>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder builder(op);
      SmallVector<Type> inferred;
      if (failed(cast<InferTypeOpInterface>(op).inferReturnTypes(
              op->getContext(), op->getLoc(), op->getOperands(),
              op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
              op->getRegions(), inferred)))
        return signalPassFailure();
      OperationState state(op->getLoc(), op->getName(), op->getOperands(),
                           inferred);
      state.attributes = op->getDiscardableAttrDictionary();
      state.propertiesAttr = op->getPropertiesAsAttribute();
      Operation *rebuilt = builder.create(state);
      Value result = rebuilt->getResult(0);
      if (result.getType() != op->getResult(0).getType())
        result = tensor::CastOp::create(builder, op->getLoc(),
                                        op->getResult(0).getType(), result);
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};
} // namespace

namespace mlir::gather {
void registerTestTileFromIndicesPass();
void registerTestPasses() {
  PassRegistration<TestGatherInferTypesPass>();
  registerTestTileFromIndicesPass();
}
} // namespace mlir::gather
