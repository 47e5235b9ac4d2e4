//===- EmitCInterface.cpp - The gather-emit-c-interface pass ----*- C++ -*-===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEREMITCINTERFACE
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {
struct GatherEmitCInterfacePass
    : gather::impl::GatherEmitCInterfaceBase<GatherEmitCInterfacePass> {
  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
  }
};
} // namespace
