//===- GatherPlugin.cpp - GatherMLIR as an mlir-opt plugin ------*- C++ -*-===//
//
// GatherPlugin.so loads into a stock mlir-opt built on the same libMLIR.so:
//   mlir-opt --load-dialect-plugin=GatherPlugin.so   the gather dialect and
//                                                    its interface models
//   mlir-opt --load-pass-plugin=GatherPlugin.so      every gather pass and
//                                                    the gather-to-llvm
//                                                    pipeline
// Both entry points live in this one library.
//
//===----------------------------------------------------------------------===//

#include "gather/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GatherDialect", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            gather::registerAllGatherDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "GatherPasses", LLVM_VERSION_STRING,
          []() { gather::registerAllGatherPasses(); }};
}
