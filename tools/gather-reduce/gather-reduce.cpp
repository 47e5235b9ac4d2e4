//===- gather-reduce.cpp - Reduce gather test cases ------------*- C++ -*-===//
//
// mlir-reduce with the gather dialect and passes: shrinks a module while an
// interestingness script still accepts it, e.g.
//   gather-reduce crash.mlir --reduction-tree='traversal-mode=0 test=crash.sh'
//
//===----------------------------------------------------------------------===//

#include "gather/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gather::registerAllGatherPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::gather::registerAllGatherDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context)) ? 1 : 0;
}
