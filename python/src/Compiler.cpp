//===- Compiler.cpp - The package's MLIR context and kernel errors --------===//

#include "Compiler.h"

using namespace mlir::gather::python;

thread_local KernelErrorRecord mlir::gather::python::lastKernelError;

extern "C" void recordIndexError(int64_t op, int64_t dim, int64_t index,
                                 int64_t size) {
  if (mlir::gather::python::lastKernelError.kind == mlir::gather::python::KernelErrorRecord::None)
    mlir::gather::python::lastKernelError = {mlir::gather::python::KernelErrorRecord::Index, op, 0, dim, index, size};
}

extern "C" void recordShapeError(int64_t op, int64_t rule, int64_t dim,
                                 int64_t a, int64_t b) {
  if (mlir::gather::python::lastKernelError.kind == mlir::gather::python::KernelErrorRecord::None)
    mlir::gather::python::lastKernelError = {mlir::gather::python::KernelErrorRecord::Shape, op, rule, dim, a, b};
}
