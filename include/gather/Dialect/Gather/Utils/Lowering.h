//===- Lowering.h - What the gather lowerings share -------------*- C++ -*-===//
//
// The driver of the conversions that lower gather ops (affine kernels, the
// linalg path, embedding bags as loops): one home for how they apply their
// patterns, and the ranked-operand check of the two gather lowerings (the
// bags' check also needs a ranked result and countable sizes).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_LOWERING_H
#define GATHER_DIALECT_GATHER_UTILS_LOWERING_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gather {

/// Fails, with an error on the first op of the gather dialect under `root`
/// that `needsRanks` selects and that has an unranked operand: "`pass`
/// needs ranked operands (`remedy`)".
LogicalResult checkRankedOperands(Operation *root, StringRef pass,
                                  StringRef remedy,
                                  function_ref<bool(Operation *)> needsRanks);

/// Lowers every op under `root` that `target` marks illegal with
/// `patterns`, as a partial conversion (every other op stays legal), and
/// folds nothing: a constant gather folded here would never reach its
/// lowering (folding belongs to --canonicalize).
LogicalResult applyLoweringPatterns(Operation *root, ConversionTarget &target,
                                    RewritePatternSet &&patterns);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_LOWERING_H
