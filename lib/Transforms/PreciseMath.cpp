//===- PreciseMath.cpp - expm1 and log1p as libm calls ----------*- C++ -*-===//
//
// gather-precise-math: upstream's math-to-libm patterns on math.expm1 and
// math.log1p only, whose LLVM lowering loses the digits of small arguments.
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERPRECISEMATH
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

struct GatherPreciseMathPass
    : gather::impl::GatherPreciseMathBase<GatherPreciseMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    // The patterns lower every math op libm has; the target asks for these
    // two only, on the element types the patterns handle.
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<math::ExpM1Op, math::Log1pOp>(
        [](Operation *op) {
          Type element = getElementTypeOrSelf(op->getResult(0).getType());
          return !isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(
              element);
        });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
