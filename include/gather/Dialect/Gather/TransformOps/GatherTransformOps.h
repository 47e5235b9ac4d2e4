//===- GatherTransformOps.h - Transform ops for gathers ---------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_H
#define GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_H

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace gather {
/// Registers the transform dialect extension with
/// transform.gather.fuse_consumer_into_loop.
void registerTransformDialectExtension(DialectRegistry &registry);
} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_TRANSFORMOPS_GATHERTRANSFORMOPS_H
