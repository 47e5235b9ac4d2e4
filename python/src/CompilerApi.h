//===- CompilerApi.h - gather_mlir.compiler's Module and JitModule -*- C++ -*-===//

#ifndef GATHER_PYTHON_COMPILERAPI_H
#define GATHER_PYTHON_COMPILERAPI_H

#include <pybind11/pybind11.h>

namespace mlir::gather::python {

/// Adds Module (parse, verify, run pipelines) and JitModule (lower, JIT,
/// call) to `m`.
void bindCompilerApi(pybind11::module_ &m);

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_COMPILERAPI_H
