//===- BufferizableOpInterfaceImpl.cpp - One-Shot Bufferize of scatters ---===//
//
// A scatter is destination-style: it reads all three operands and writes
// the buffer of `dest`, which its result is equivalent to, so One-Shot
// Bufferize keeps it in place when `dest` is not read after it (and copies
// `dest` first otherwise). Bufferizing emits the scatter's loops on the
// buffers (emitScatter on memrefs, loads and stores), as the gathers' model
// emits their kernels, with the run-time hooks for errors. gather-to-llvm
// lowers the ops before bufferizing, with its options.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/ScatterToSCF/ScatterToSCF.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::gather;

namespace {
template <typename OpTy>
struct ScatterBufferization
    : DstBufferizableOpInterfaceExternalModel<ScatterBufferization<OpTy>,
                                              OpTy> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto scatterOp = cast<OpTy>(op);
    if (!hasCountableStaticSizes(op))
      return op->emitOpError("cannot bufferize: its static sizes count past "
                             "int64 elements");
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    FailureOr<Value> dest =
        getBuffer(rewriter, scatterOp.getDest(), options, state);
    FailureOr<Value> indices =
        getBuffer(rewriter, scatterOp.getIndices(), options, state);
    FailureOr<Value> updates =
        getBuffer(rewriter, scatterOp.getUpdates(), options, state);
    if (failed(dest) || failed(indices) || failed(updates))
      return failure();
    emitScatter(rewriter, scatterOp, *dest, *indices, *updates,
                ErrorReport::Hooks);
    replaceOpWithBufferizedValues(rewriter, op, *dest);
    return success();
  }
};
} // namespace

void mlir::gather::registerScatterBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, GatherDialect *) {
    ScatterOp::attachInterface<ScatterBufferization<ScatterOp>>(*context);
    ScatterElementsOp::attachInterface<ScatterBufferization<ScatterElementsOp>>(
        *context);
    ScatterNDOp::attachInterface<ScatterBufferization<ScatterNDOp>>(*context);
    // Bufferizing emits the loops: their dialects must be loaded before any
    // pass runs.
    context->loadDialect<arith::ArithDialect, cf::ControlFlowDialect,
                         complex::ComplexDialect, func::FuncDialect,
                         linalg::LinalgDialect, memref::MemRefDialect,
                         scf::SCFDialect>();
  });
}
