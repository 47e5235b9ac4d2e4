//===- InitAll.cpp - Register everything GatherMLIR provides ----*- C++ -*-===//

#include "gather/InitAll.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::gather::registerAllGatherDialects(DialectRegistry &registry) {
  registry.insert<GatherDialect>();
}

void mlir::gather::registerAllGatherPasses() {}
