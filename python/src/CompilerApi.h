//===- CompilerApi.h - gather_mlir.compiler's Module and JitModule -*- C++ -*-===//

#ifndef GATHER_PYTHON_COMPILERAPI_H
#define GATHER_PYTHON_COMPILERAPI_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::gather::python {

/// A function of a module the package JIT-compiled: its C interface (a
/// pointer to a memref descriptor per argument) and whether its hooks may
/// run on the threads OpenMP starts (KernelCall's `threaded`).
struct JitEntry {
  void *entry = nullptr;
  bool threaded = false;
};

/// The function `bag` of embedding_bag_module's module for these arguments
/// (its first ones; the module's name is `bag`), lowered and compiled as
/// JitModule.for_host lowers and compiles it (`parallel`: threads). The
/// compiled module lives as long as the process. ValueError for a
/// combination the op rejects.
JitEntry compileEmbeddingBagKernel(
    const pybind11::dtype &table, std::optional<int64_t> rowWidth,
    const pybind11::dtype &ids, bool offsets,
    std::optional<pybind11::dtype> weights, const std::string &reduction,
    std::optional<int64_t> paddingIdx, bool includeLastOffset,
    const std::string &mode, std::optional<int64_t> rowwiseBits,
    bool parallel);

/// Adds Module (parse, verify, run pipelines) and JitModule (lower, JIT,
/// call) to `m`.
void bindCompilerApi(pybind11::module_ &m);

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_COMPILERAPI_H
