/*===- gather-embed-c.c - A C program on GatherMLIR's C API -------*- C -*-===*\
|*                                                                            *|
|* Parses a module with a gather op, verifies it and lowers it to the LLVM   *|
|* dialect with the gather-to-llvm pipeline, through gather-c/Dialects.h and *|
|* upstream's mlir-c headers, all exported by libGatherMLIR-C.so.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "gather-c/Dialects.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>

static void print(MlirStringRef s, void *user) {
  fwrite(s.data, 1, s.length, (FILE *)user);
}

static const char *kModule =
    "func.func @rows(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) -> "
    "tensor<2x3xf32> {\n"
    "  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, "
    "mode = #gather<mode clamp>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> "
    "tensor<2x3xf32>\n"
    "  return %r : tensor<2x3xf32>\n"
    "}\n";

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirGatherRegisterDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirGatherRegisterPasses();

  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op)) {
    fprintf(stderr, "the parsed module does not verify\n");
    return 1;
  }
  printf("parsed:\n");
  mlirOperationPrint(op, print, stdout);
  printf("\n");

  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(gather-to-llvm)"), print,
      stderr);
  if (mlirLogicalResultIsFailure(parsed) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op)) ||
      !mlirOperationVerify(op)) {
    fprintf(stderr, "gather-to-llvm failed\n");
    return 1;
  }
  printf("lowered:\n");
  mlirOperationPrint(op, print, stdout);
  printf("\n");

  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
