//===- CompilerApi.h - compiler.Module and JitModule ------------*- C++ -*-===//

#ifndef GATHER_PYTHON_COMPILERAPI_H
#define GATHER_PYTHON_COMPILERAPI_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::gather::python {

/// The module of one gather.embedding_bag kernel, built in `ctx` (the
/// caller holds the shared context's lock; no Python is called, so the
/// GIL need not be held): `func.func @name` taking the table [?, rowWidth]
/// (its width dynamic without one; a static width spares the bag loops the
/// row stride's arithmetic and registers), the ids (rank `idsRank`; 2-D
/// ids have `bagLength` columns when it is given, else a dynamic count),
/// then those of offsets, per-sample weights, scales and zero points that
/// are given (null types: absent), and last the buffer of the result, which
/// the op's type inference gives and the bag is materialized in. ValueError
/// with the op's diagnostics for a combination it rejects.
mlir::OwningOpRef<mlir::ModuleOp> buildEmbeddingBagModule(
    mlir::MLIRContext &ctx, const std::string &name, mlir::Type table,
    std::optional<int64_t> rowWidth, mlir::Type ids, int64_t idsRank,
    std::optional<int64_t> bagLength, bool offsets, mlir::Type weights,
    mlir::Type scales, bool zeroPoints, const std::string &reduction,
    std::optional<int64_t> paddingIdx, bool includeLastOffset,
    const std::string &mode, std::optional<int64_t> rowwiseBits,
    std::optional<int64_t> blockBits, std::optional<int64_t> blockSize);

/// Adds Module (parse, verify, run pipelines) and JitModule (lower, JIT,
/// call) to `m`.
void bindCompilerApi(pybind11::module_ &m);

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_COMPILERAPI_H
