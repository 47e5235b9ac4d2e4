//===- gather-opt.cpp - The GatherMLIR optimizer driver ---------*- C++ -*-===//
//
// An mlir-opt with the gather dialect, its passes and pipelines, and the
// upstream dialects, passes and extensions they lower through.
//
// Built a second time as test/lib's gather-test-opt, with
// GATHER_TEST_PASSES: that copy, which only lit uses, also has the test
// passes of test/lib (--test-gather-infer-types); gather-opt has none.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef GATHER_TEST_PASSES
namespace mlir::gather {
/// Defined in test/lib: passes that test the C++ interfaces from lit.
void registerTestPasses();
} // namespace mlir::gather
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gather::registerAllGatherPasses();
#ifdef GATHER_TEST_PASSES
  mlir::gather::registerTestPasses();
#endif

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::gather::registerAllGatherDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "GatherMLIR optimizer driver\n", registry));
}
