//===- gather-lsp-server.cpp - LSP server for gather IR ---------*- C++ -*-===//
//
// MLIR's language server (diagnostics, hover, go-to-definition, completion)
// for .mlir files with gather ops: the gather dialect plus every upstream
// dialect and extension, as gather-opt has, so modules at any stage of
// gather-to-llvm are understood.
//
//===----------------------------------------------------------------------===//

#include "gather/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::gather::registerAllGatherDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
