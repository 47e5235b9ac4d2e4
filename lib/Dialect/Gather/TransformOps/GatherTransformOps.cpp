//===- GatherTransformOps.cpp - Transform ops for gathers -----------------===//

#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/Transforms/ConsumerFusion.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"

using namespace mlir;

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.cpp.inc"

DiagnosedSilenceableFailure
transform::FuseConsumerIntoLoopOp::apply(transform::TransformRewriter &rewriter,
                                         transform::TransformResults &results,
                                         transform::TransformState &state) {
  auto consumers = llvm::to_vector(state.getPayloadOps(getConsumer()));
  auto loops = llvm::to_vector(state.getPayloadOps(getLoop()));
  if (consumers.size() != 1 || loops.size() != 1)
    return emitDefiniteFailure() << "expects one consumer and one loop, got "
                                 << consumers.size() << " and " << loops.size();
  auto consumer = dyn_cast<TilingInterface>(consumers.front());
  if (!consumer) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "the consumer does not implement "
                                          "TilingInterface";
    diag.attachNote(consumers.front()->getLoc()) << "consumer";
    return diag;
  }
  std::string why;
  rewriter.setInsertionPoint(consumer);
  FailureOr<gather::FusedConsumer> fused =
      gather::fuseConsumerIntoLoop(rewriter, consumer, loops.front(), why);
  if (failed(fused)) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "cannot fuse the consumer into the loop: " << why;
    diag.attachNote(consumers.front()->getLoc()) << "consumer";
    return diag;
  }
  results.set(cast<OpResult>(getFusedConsumer()), {fused->tiledConsumer});
  results.set(cast<OpResult>(getNewLoop()), {fused->loop});
  return DiagnosedSilenceableFailure::success();
}

namespace {
class GatherTransformDialectExtension
    : public transform::TransformDialectExtension<
          GatherTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GatherTransformDialectExtension)

  GatherTransformDialectExtension() {
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::gather::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<GatherTransformDialectExtension>();
}
