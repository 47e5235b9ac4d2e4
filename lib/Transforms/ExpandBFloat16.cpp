//===- ExpandBFloat16.cpp - bf16 conversions as integer ops -----*- C++ -*-===//
//
// gather-expand-bf16: `arith.truncf` to bf16 and `arith.extf` from bf16 as
// integer arithmetic on the bits. Without AVX-512 BF16, LLVM lowers an
// f32 or f64 to bf16 truncation as a call of `__truncsfbf2`/`__truncdfbf2`
// (a lane at a time for vectors), which libgcc before GCC 13 does not
// define: a kernel with one fails to link there.
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEREXPANDBFLOAT16
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// f64 to bf16 as f64 to f32 rounded to odd, then f32 to bf16 (which the
/// upstream patterns expand): rounding to odd first keeps the second
/// rounding exact, where rounding to nearest twice would not.
struct TruncF64ToBF16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type in = op.getIn().getType();
    if (!getElementTypeOrSelf(op.getType()).isBF16() ||
        !getElementTypeOrSelf(in).isF64())
      return failure();
    Location loc = op.getLoc();
    auto shapeOf = [&](Type element) -> Type {
      if (auto shaped = dyn_cast<ShapedType>(in))
        return shaped.clone(element);
      return element;
    };
    Type f32 = shapeOf(rewriter.getF32Type());
    Type i32 = shapeOf(rewriter.getI32Type());
    Type i64 = shapeOf(rewriter.getI64Type());
    Value d = op.getIn();
    // Nearest f32, and whether it lies farther from zero than d or is not d.
    Value t = arith::TruncFOp::create(rewriter, loc, f32, d);
    Value back = arith::ExtFOp::create(rewriter, loc, in, t);
    Value magnitude =
        createScalarOrSplatConstant(rewriter, loc, i64, INT64_MAX);
    auto bitsOf = [&](Value v) {
      return arith::AndIOp::create(
          rewriter, loc, arith::BitcastOp::create(rewriter, loc, i64, v),
          magnitude);
    };
    Value dBits = bitsOf(d), backBits = bitsOf(back);
    Value number =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::ORD, d, d);
    Value away = arith::AndIOp::create(
        rewriter, loc, number,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt,
                              backBits, dBits));
    Value inexact = arith::AndIOp::create(
        rewriter, loc, number,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, backBits,
                              dBits));
    // Toward zero (one ulp less in magnitude), then the last bit set when
    // inexact: f32 rounded to odd.
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, t);
    Value one = createScalarOrSplatConstant(rewriter, loc, i32, 1);
    bits = arith::SelectOp::create(
        rewriter, loc, away, arith::SubIOp::create(rewriter, loc, bits, one),
        bits);
    bits = arith::SelectOp::create(
        rewriter, loc, inexact, arith::OrIOp::create(rewriter, loc, bits, one),
        bits);
    Value odd = arith::BitcastOp::create(rewriter, loc, f32, bits);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), odd);
    return success();
  }
};

struct GatherExpandBFloat16Pass
    : gather::impl::GatherExpandBFloat16Base<GatherExpandBFloat16Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TruncF64ToBF16>(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
