//===- ErrorHooks.h - Calls of the run-time error hooks ---------*- C++ -*-===//
//
// The functions a lowered gather or scatter calls before it returns without
// doing its work (include/gather-c/Runtime.h has their C declarations and
// messages):
//   void gather_mlir_index_error(int64_t op, int64_t dataDim,
//                                int64_t index, int64_t dimSize);
// for a failed `check` (or an index into an empty dimension in
// `clamp`/`wrap` mode), and
//   void gather_mlir_shape_error(int64_t op, int64_t rule, int64_t dim,
//                                int64_t a, int64_t b);
// for a shape rule (GATHER_MLIR_RULE_*) that fails at run time. `op` is
// GATHER_MLIR_OP_*. Every lowering and transform emits its calls through
// emitIndexError and emitShapeError; gather-define-error-handlers gives the
// hooks weak default definitions.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_UTILS_ERRORHOOKS_H
#define GATHER_DIALECT_GATHER_UTILS_ERRORHOOKS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

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

/// The GATHER_MLIR_OP_* code of a gather, embedding-bag or scatter op.
int64_t runtimeOpCode(Operation *op);

/// Calls gather_mlir_index_error for `op` at the builder's insertion point,
/// declaring the hook in `op`'s symbol table. Each argument is a constant or
/// a value of type i64 or index.
void emitIndexError(OpBuilder &b, Location loc, Operation *op,
                    OpFoldResult dataDim, OpFoldResult index,
                    OpFoldResult dimSize);

/// Calls gather_mlir_shape_error for `op`'s `rule` (GATHER_MLIR_RULE_*), as
/// emitIndexError does.
void emitShapeError(OpBuilder &b, Location loc, Operation *op,
                    OpFoldResult rule, OpFoldResult dim, OpFoldResult a,
                    OpFoldResult other);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_ERRORHOOKS_H
