//===- BufferizableOpInterfaceImpl.cpp - One-Shot Bufferize models -------===//
//
// A gather reads both operands and writes only a new buffer, so it never
// forces a copy of an operand. Bufferizing it emits its loop nest directly
// (as upstream's tensor.generate emits its body), through the same
// emitGatherKernel that convert-gather-to-loops uses, with that pass's
// default options: this model lives with the lowering (registered by
// registerAllGatherDialects), so the dialect's own libraries do not depend
// on a conversion. gather-to-llvm lowers the ops before bufferizing, with
// its options.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToLoops/BufferizableOpInterfaceImpl.h"

#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::gather;

namespace {
template <typename OpTy>
struct GatherLikeBufferization
    : BufferizableOpInterface::ExternalModel<GatherLikeBufferization<OpTy>,
                                             OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto gatherOp = cast<OpTy>(op);
    auto resultType = dyn_cast<RankedTensorType>(gatherOp.getType());
    if (!resultType)
      return op->emitOpError("cannot bufferize: the result rank is not known");
    FailureOr<GatherShape> shape = gatherOp.getGatherShape();
    if (failed(shape))
      return failure();
    // The kernels collapse and stride over dims: their sizes must count.
    if (!hasCountableStaticSizes(op))
      return op->emitOpError("cannot bufferize: its static sizes count past "
                             "int64 elements");

    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    FailureOr<Value> data =
        getBuffer(rewriter, gatherOp.getData(), options, state);
    FailureOr<Value> indices =
        getBuffer(rewriter, gatherOp.getIndices(), options, state);
    if (failed(data) || failed(indices))
      return failure();

    Location loc = op->getLoc();
    SmallVector<Value> dynamicSizes = shape->getDynamicSizes(
        rewriter, loc, *data, *indices, resultType.getShape());
    auto outType =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    FailureOr<Value> out =
        options.createAlloc(rewriter, loc, outType, dynamicSizes);
    if (failed(out))
      return failure();

    if (failed(emitGatherKernel(rewriter, op, *data, *indices, *out, {})))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, *out);
    return success();
  }
};
} // namespace

void mlir::gather::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, GatherDialect *) {
    GatherOp::attachInterface<GatherLikeBufferization<GatherOp>>(*context);
    GatherElementsOp::attachInterface<
        GatherLikeBufferization<GatherElementsOp>>(*context);
    GatherNDOp::attachInterface<GatherLikeBufferization<GatherNDOp>>(*context);
    // Bufferizing emits the loop nest: its dialects must be loaded before
    // any pass runs (as upstream's tensor models load linalg).
    context->loadDialect<affine::AffineDialect, arith::ArithDialect,
                         complex::ComplexDialect, func::FuncDialect,
                         LLVM::LLVMDialect, memref::MemRefDialect,
                         scf::SCFDialect, vector::VectorDialect>();
  });
}
