//===- GatherOps.h - Gather dialect operations ------------------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHEROPS_H
#define GATHER_DIALECT_GATHER_IR_GATHEROPS_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "gather/Dialect/Gather/IR/GatherOpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/IR/GatherOps.h.inc"

namespace mlir::gather {
/// Adds the canonicalization patterns of all three ops (GatherFolding.cpp),
/// for compilers that run them in their own pattern sets.
void populateGatherCanonicalizationPatterns(RewritePatternSet &patterns);
} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHEROPS_H
