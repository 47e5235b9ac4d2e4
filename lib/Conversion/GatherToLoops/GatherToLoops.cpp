//===- GatherToLoops.cpp - The convert-gather-to-loops pass ---*- C++ -*-===//
//
// Tensor-level patterns around emitGatherKernel: operands become read-only
// buffers, the result a fresh allocation; One-Shot Bufferize later folds the
// to_buffer/to_tensor pairs so no copy remains.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Conversion/EmbeddingBagToSCF/EmbeddingBagToSCF.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOLOOPS
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {
constexpr StringLiteral kUncountableTuples =
    "gather_nd indices whose static sizes count past int64";

/// Whether the op's index tuples can be walked as one row: a check of
/// gather_nd's indices collapses their last two dims (tuples of k), which
/// collapse_shape cannot type when the static sizes count past int64.
bool hasCountableIndexTuples(Operation *op) {
  return !isa<GatherNDOp>(op) ||
         hasCountableStaticSizes(op->getOperand(1).getType());
}

/// The narrower integers that the op's indices widen, which the kernel reads
/// instead, extending each as it goes: the cast's operand and its extension.
struct WidenedIndices {
  Value narrow;
  IndexExtension extension;
  /// The widening op: erased once no gather reads it.
  Operation *widening;
};

/// The extension of a cast that only widens integers of 8 to 64 bits (the
/// ops' index widths): arith.extsi/extui, or index_cast/index_castui from
/// an integer to `index`.
std::optional<IndexExtension> wideningExtension(Operation *cast) {
  if (!cast || cast->getNumOperands() != 1 || cast->getNumResults() != 1)
    return std::nullopt;
  Type from = getElementTypeOrSelf(cast->getOperand(0).getType());
  bool toIndex = getElementTypeOrSelf(cast->getResult(0).getType()).isIndex();
  if (!from.isSignlessInteger() ||
      !llvm::is_contained({8u, 16u, 32u, 64u}, from.getIntOrFloatBitWidth()))
    return std::nullopt;
  if (isa<arith::ExtSIOp>(cast) || (isa<arith::IndexCastOp>(cast) && toIndex))
    return IndexExtension::Signed;
  if (isa<arith::ExtUIOp>(cast) || (isa<arith::IndexCastUIOp>(cast) && toIndex))
    return IndexExtension::Unsigned;
  return std::nullopt;
}

/// `indices` as a widening of narrower integers of the same shape: an
/// arith cast on tensors, or the elementwise linalg.generic that
/// convert-elementwise-to-linalg makes of one (upstream's test of a single
/// unary elementwise op).
std::optional<WidenedIndices> widenedIndices(Value indices) {
  Operation *widening = indices.getDefiningOp();
  if (!widening)
    return std::nullopt;
  Operation *cast = widening;
  if (auto generic = dyn_cast<linalg::GenericOp>(widening)) {
    if (!linalg::isaElemwiseSingleUnaryOpInterface(generic))
      return std::nullopt;
    cast = &generic.getBody()->front();
  }
  std::optional<IndexExtension> extension = wideningExtension(cast);
  if (!extension)
    return std::nullopt;
  Value narrow = widening->getOperand(0);
  auto narrowType = dyn_cast<RankedTensorType>(narrow.getType());
  auto wideType = dyn_cast<RankedTensorType>(indices.getType());
  if (!narrowType || !wideType || narrowType.getShape() != wideType.getShape())
    return std::nullopt;
  return WidenedIndices{narrow, *extension, widening};
}

template <typename OpTy> struct GatherLikeToAffine : OpConversionPattern<OpTy> {
  GatherLikeToAffine(MLIRContext *context, const GatherLoweringOptions &options)
      : OpConversionPattern<OpTy>(context), options(options) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
    auto indicesType =
        dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
    if (!dataType || !indicesType)
      return rewriter.notifyMatchFailure(
          op, "loop nests need ranked operands (gather-dispatch-unranked)");
    FailureOr<GatherShape> shape = op.getGatherShape();
    if (failed(shape))
      return rewriter.notifyMatchFailure(op, "op does not verify");
    if (!hasCountableIndexTuples(op))
      return rewriter.notifyMatchFailure(op, kUncountableTuples);
    // Ranked operands give a ranked result, whatever type the op declares.
    auto resultType =
        cast<RankedTensorType>(shape->getResultType(dataType, indicesType));
    if (auto declared = dyn_cast<RankedTensorType>(op.getType()))
      resultType = declared;

    Location loc = op.getLoc();
    auto toBuffer = [&](Value tensor, RankedTensorType type) -> Value {
      // A restrict to_tensor of a memref: read that buffer in place, in its
      // own layout (strided views included), rather than through an
      // identity-layout copy.
      if (auto source = tensor.getDefiningOp<bufferization::ToTensorOp>())
        if (source.getRestrict() &&
            isa<MemRefType>(source.getBuffer().getType()))
          return source.getBuffer();
      auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
      return bufferization::ToBufferOp::create(rewriter, loc, memrefType,
                                               tensor, /*readOnly=*/true)
          .getResult();
    };
    Value data = toBuffer(adaptor.getData(), dataType);
    // Indices widened from narrower integers: the kernel reads those and
    // extends them itself, so the wide ones are never written to memory.
    IndexExtension extension = IndexExtension::Signed;
    Value indices;
    if (std::optional<WidenedIndices> widened =
            widenedIndices(adaptor.getIndices())) {
      extension = widened->extension;
      indices = toBuffer(widened->narrow,
                         cast<RankedTensorType>(widened->narrow.getType()));
    } else {
      indices = toBuffer(adaptor.getIndices(), indicesType);
    }

    // Destination passing: a result whose only use stores it into a buffer
    // is computed in that buffer, with no allocation and no copy.
    if (auto sink = getDestination(op, resultType)) {
      if (failed(emitGatherKernel(rewriter, op, data, indices, sink.getDest(),
                                  options, extension)))
        return failure();
      rewriter.eraseOp(sink);
      rewriter.eraseOp(op);
      return success();
    }

    SmallVector<Value> dynamicSizes = shape->getDynamicSizes(
        rewriter, loc, data, indices, resultType.getShape());
    auto outType =
        MemRefType::get(resultType.getShape(), resultType.getElementType());
    Value out = memref::AllocOp::create(rewriter, loc, outType, dynamicSizes);

    if (failed(emitGatherKernel(rewriter, op, data, indices, out, options,
                                extension)))
      return failure();
    Value result = bufferization::ToTensorOp::create(
        rewriter, loc, resultType, out, /*restrict=*/true, /*writable=*/true);
    if (result.getType() != op.getType())
      result = tensor::CastOp::create(rewriter, loc, op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }

  /// The `materialize_in_destination` into a restrict, writable memref of
  /// matching type that is the result's only use, if there is one.
  static bufferization::MaterializeInDestinationOp
  getDestination(OpTy op, RankedTensorType resultType) {
    if (!op->hasOneUse())
      return {};
    auto sink =
        dyn_cast<bufferization::MaterializeInDestinationOp>(*op->user_begin());
    if (!sink || !sink.getRestrict() || !sink.getWritable())
      return {};
    auto dest = dyn_cast<MemRefType>(sink.getDest().getType());
    if (!dest || dest.getElementType() != resultType.getElementType() ||
        failed(verifyCompatibleShape(dest.getShape(), resultType.getShape())))
      return {};
    return sink;
  }

  GatherLoweringOptions options;
};

struct ConvertGatherToLoopsPass
    : gather::impl::ConvertGatherToLoopsBase<ConvertGatherToLoopsPass> {
  using Base::Base;
  // Reads the options (protected members of Base).
  template <typename From>
  friend GatherLoweringOptions gather::loweringOptionsOf(const From &);

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Loop nests need ranks: gather-dispatch-unranked gives them.
    if (failed(checkRankedOperands(
            getOperation(), getArgument(), "run gather-dispatch-unranked first",
            [](Operation *op) { return isa<GatherOpInterface>(op); })))
      return signalPassFailure();
    WalkResult uncountable = getOperation()->walk([&](GatherNDOp op) {
      if (hasCountableIndexTuples(op))
        return WalkResult::advance();
      op->emitError() << getArgument() << ": " << kUncountableTuples;
      return WalkResult::interrupt();
    });
    if (uncountable.wasInterrupted())
      return signalPassFailure();
    // The widenings of indices that the kernels read narrow: erased below
    // where no other op reads them.
    SetVector<Operation *> widenings;
    getOperation()->walk([&](Operation *op) {
      if (!isa<GatherOp, GatherElementsOp, GatherNDOp>(op))
        return;
      if (std::optional<WidenedIndices> widened =
              widenedIndices(op->getOperand(1)))
        widenings.insert(widened->widening);
    });
    ConversionTarget target(*context);
    target.addIllegalDialect<GatherDialect>();
    RewritePatternSet patterns(context);
    populateGatherToLoopsPatterns(patterns, loweringOptionsOf(*this));
    // Embedding bags are loops on tensors, as in gather-to-llvm.
    populateEmbeddingBagToSCFPatterns(
        patterns, BagErrorReport::Hooks, BagForm::BagLoops,
        ConvertEmbeddingBagToSCFOptions().prefetchDistance);
    if (failed(
            applyLoweringPatterns(getOperation(), target, std::move(patterns))))
      return signalPassFailure();
    for (Operation *widening : llvm::reverse(widenings))
      if (widening->use_empty())
        widening->erase();
  }
};
} // namespace

void mlir::gather::populateGatherToLoopsPatterns(
    RewritePatternSet &patterns, const GatherLoweringOptions &options) {
  patterns
      .add<GatherLikeToAffine<GatherOp>, GatherLikeToAffine<GatherElementsOp>,
           GatherLikeToAffine<GatherNDOp>>(patterns.getContext(), options);
}
