//===- MPIDatatypes.h - Element types MPI calls can carry -------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_UTILS_MPIDATATYPES_H
#define GATHER_DIALECT_GATHER_UTILS_MPIDATATYPES_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::gather {

/// Whether LLVM 22's MPI-to-LLVM lowering names an MPI datatype for buffers
/// of `element`: f32, f64 and 8-, 16-, 32- and 64-bit integers. For any
/// other type it passes an invalid datatype, and the MPI call aborts at run
/// time.
inline bool hasMPIDatatype(Type element) {
  if (element.isF32() || element.isF64())
    return true;
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer)
    return false;
  unsigned width = integer.getWidth();
  return width == 8 || width == 16 || width == 32 || width == 64;
}

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_UTILS_MPIDATATYPES_H
