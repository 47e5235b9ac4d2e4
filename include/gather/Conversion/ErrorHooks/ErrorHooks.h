//===- ErrorHooks.h - The run-time error hooks of lowered gathers -*- C++ -*-===//
//
// The functions a lowered gather calls before it returns without gathering
// (include/gather-c/Runtime.h has their C declarations and messages):
//   void gather_mlir_index_error(int64_t op, int64_t dataDim,
//                                int64_t index, int64_t dimSize);
// for a failed `check` (or an index into an empty dimension in
// `clamp`/`wrap` mode), and
//   void gather_mlir_shape_error(int64_t op, int64_t rule, int64_t dim,
//                                int64_t a, int64_t b);
// for a shape rule (GATHER_MLIR_RULE_*) that fails at run time. `op` is
// GATHER_MLIR_OP_*. gather-define-error-handlers gives them weak default
// definitions.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_ERRORHOOKS_ERRORHOOKS_H
#define GATHER_CONVERSION_ERRORHOOKS_ERRORHOOKS_H

#include "mlir/IR/Builders.h"

namespace mlir::gather {

inline constexpr llvm::StringLiteral kIndexErrorHook =
    "gather_mlir_index_error";
inline constexpr llvm::StringLiteral kShapeErrorHook =
    "gather_mlir_shape_error";

/// How a lowering reports what the mode makes an error.
enum class ErrorReport {
  /// Calls of the run-time hooks above: the message names the bad value,
  /// and a host can take the failure over.
  Hooks,
  /// cf.assert with a fixed message: upstream ops only.
  Asserts
};

/// Declares the hook `name` (kIndexErrorHook, kShapeErrorHook) as a private
/// function in the symbol table that holds `op`, unless it is there.
void declareErrorHook(OpBuilder &b, Operation *op, StringRef name);

} // namespace mlir::gather

#endif // GATHER_CONVERSION_ERRORHOOKS_ERRORHOOKS_H
