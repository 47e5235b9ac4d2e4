//===- EmbeddingBagToSCF.cpp - Lower embedding bags to loops ----*- C++ -*-===//
//
// gather.embedding_bag on tensors becomes, in upstream ops only:
//
//  1. unless the mode is `unchecked`, the rules the verifier could not check
//     (dynamic dims of per_sample_weights and the result, include_last_offset's
//     one offset) and then the offsets (offsets[0] == 0, non-decreasing, none
//     past the ids) are checked, one scf.for over the offsets that finds the
//     first bad one; `clamp`/`wrap` with ids in bags need rows. A failure
//     is reported (run-time hook or cf.assert) and the result is zeros:
//     nothing is read out of bounds;
//  2. an scf.forall over bags (threads when the pipeline maps it to OpenMP):
//     each bag reads its ids, 16 at a time, to learn whether all are rows
//     as they are; then it walks its ids with an scf.for, taking each id
//     as its row if so, else resolving each by the mode (`check` records
//     whether the bag held an id out of range, and when one did, a scan of
//     the ids in order names the first), and accumulates each row, a
//     chunk of kChunkBits at a time, in vector registers (f32 for f16/bf16
//     and row-wise quantized tables, whose rows are dequantized as they
//     are read), so the work is O(ids x dim); padding ids are skipped;
//     `fill` ids give zero rows; mean divides by the count, max of no row
//     is zeros. (The elementwise form, for convert-gather-to-linalg,
//     asserts each id and walks a bag per result element.)
//
// The same code serves gather-to-llvm (hooks, whose messages name the bad
// value) and convert-gather-to-linalg (cf.assert).
//
//===----------------------------------------------------------------------===//

#include "BagEmitter.h"

#include "gather/Conversion/Passes.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTEMBEDDINGBAGTOSCF
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;
using mlir::gather::bags::BagEmitter;

namespace {

struct EmbeddingBagToSCF : OpConversionPattern<EmbeddingBagOp> {
  EmbeddingBagToSCF(MLIRContext *context, BagErrorReport report, BagForm form,
                    int64_t prefetchDistance)
      : OpConversionPattern(context), report(report), form(form),
        prefetchDistance(prefetchDistance) {
    assert(
        (form != BagForm::Elementwise || report == BagErrorReport::Asserts) &&
        "the elementwise form checks with cf.assert");
  }

  LogicalResult
  matchAndRewrite(EmbeddingBagOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value operand : adaptor.getOperands())
      if (!isa<RankedTensorType>(operand.getType()))
        return rewriter.notifyMatchFailure(op, "needs ranked operands");
    if (!isa<RankedTensorType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "needs a ranked result");
    if (!hasCountableStaticSizes(op))
      return rewriter.notifyMatchFailure(
          op, "static sizes whose element count overflows int64");
    BagEmitter emitter(rewriter, op, adaptor.getWeight(), adaptor.getIds(),
                       adaptor.getOffsets(), adaptor.getPerSampleWeights(),
                       adaptor.getScales(), adaptor.getZeroPoints(), report,
                       form, prefetchDistance);
    rewriter.replaceOp(op, emitter.emit());
    return success();
  }

  BagErrorReport report;
  BagForm form;
  int64_t prefetchDistance;
};

struct ConvertEmbeddingBagToSCFPass
    : gather::impl::ConvertEmbeddingBagToSCFBase<ConvertEmbeddingBagToSCFPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    WalkResult unranked = getOperation()->walk([](EmbeddingBagOp op) {
      if (!llvm::all_of(op->getOperandTypes(),
                        llvm::IsaPred<RankedTensorType>) ||
          !isa<RankedTensorType>(op.getType())) {
        op->emitError("convert-embedding-bag-to-scf needs ranked operands "
                      "and result (refine them with gather-shape-inference)");
        return WalkResult::interrupt();
      }
      if (!hasCountableStaticSizes(op)) {
        op->emitError("convert-embedding-bag-to-scf: static sizes whose "
                      "element count overflows int64");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (unranked.wasInterrupted())
      return signalPassFailure();
    ConversionTarget target(*context);
    target.addIllegalOp<EmbeddingBagOp>();
    RewritePatternSet patterns(context);
    populateEmbeddingBagToSCFPatterns(patterns, BagErrorReport::Hooks,
                                      BagForm::BagLoops, prefetchDistance);
    if (failed(
            applyLoweringPatterns(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateEmbeddingBagToSCFPatterns(
    RewritePatternSet &patterns, BagErrorReport report, BagForm form,
    int64_t prefetchDistance) {
  patterns.add<EmbeddingBagToSCF>(patterns.getContext(), report, form,
                                  prefetchDistance);
}
