//===- GatherDialect.cpp - Gather dialect registration ----------*- C++ -*-===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gather;

#include "gather/Dialect/Gather/IR/GatherOpsDialect.cpp.inc"

#include "gather/Dialect/Gather/IR/GatherEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "gather/Dialect/Gather/IR/GatherAttrs.cpp.inc"

void GatherDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "gather/Dialect/Gather/IR/GatherOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gather/Dialect/Gather/IR/GatherAttrs.cpp.inc"
      >();
}

/// Folded gathers become arith.constant.
Operation *GatherDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
