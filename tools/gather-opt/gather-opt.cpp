//===- gather-opt.cpp - The GatherMLIR optimizer driver ---------*- C++ -*-===//
//
// An mlir-opt with the gather dialect, its passes and pipelines, and the
// upstream dialects, passes and extensions they lower through.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::gather {
/// Defined in test/lib: passes that test the C++ interfaces from lit.
void registerTestPasses();
} // namespace mlir::gather

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gather::registerAllGatherPasses();
  mlir::gather::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::gather::registerAllGatherDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "GatherMLIR optimizer driver\n", registry));
}
