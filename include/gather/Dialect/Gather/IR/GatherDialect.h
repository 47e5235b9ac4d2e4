//===- GatherDialect.h - Gather dialect -------------------------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERDIALECT_H
#define GATHER_DIALECT_GATHER_IR_GATHERDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "gather/Dialect/Gather/IR/GatherOpsDialect.h.inc"

#include "gather/Dialect/Gather/IR/GatherEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gather/Dialect/Gather/IR/GatherAttrs.h.inc"

#endif // GATHER_DIALECT_GATHER_IR_GATHERDIALECT_H
