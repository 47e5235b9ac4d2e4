/* Compiled and run by check-gather: the gather C API with upstream's.
 *
 * RUN: %clang %s -I%mlir_include_dir -I%gather_src_root/include -L%gather_lib_dir -lGatherMLIR-C -Wl,-rpath,%gather_lib_dir -o %t
 * RUN: %t 2>&1 | FileCheck %s
 */

#include "gather-c/Dialects.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <string.h>

static void print(MlirStringRef s, void *user) {
  (void)user;
  fwrite(s.data, 1, s.length, stdout);
}

static MlirLogicalResult onDiagnostic(MlirDiagnostic d, void *user) {
  (void)user;
  printf("diagnostic: ");
  mlirDiagnosticPrint(d, print, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirContext makeContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirGatherRegisterDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirContextAttachDiagnosticHandler(ctx, onDiagnostic, NULL, NULL);
  return ctx;
}

static const char *kModule =
    "func.func @f(%d: tensor<2x5xf32>, %i: tensor<2x3xi32>) -> tensor<2x3xf32> {\n"
    "  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>\n"
    "  return %r : tensor<2x3xf32>\n"
    "}\n";

int main(void) {
  MlirContext ctx = makeContext();

  /* The dialect is there, by handle. */
  MlirDialect dialect = mlirContextGetOrLoadDialect(
      ctx, mlirDialectHandleGetNamespace(mlirGetDialectHandle__gather__()));
  // CHECK: dialect loaded: 1
  printf("dialect loaded: %d\n", !mlirDialectIsNull(dialect));

  /* Parse, verify and print the docs/Semantics.md form. */
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  MlirOperation op = mlirModuleGetOperation(module);
  // CHECK: verified: 1
  printf("verified: %d\n", mlirOperationVerify(op));
  // CHECK: gather.gather %{{.*}}[%{{.*}}] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>}
  mlirOperationPrint(op, print, NULL);
  printf("\n");

  /* Mode attributes. */
  MlirAttribute wrapMode =
      mlirGatherModeAttrGet(ctx, mlirStringRefCreateFromCString("wrap"));
  MlirStringRef name = mlirGatherModeAttrGetValue(wrapMode);
  // CHECK: mode: 1 wrap
  printf("mode: %d %.*s\n", mlirAttributeIsAGatherMode(wrapMode),
         (int)name.length, name.data);
  // CHECK: bad mode is null: 1
  printf("bad mode is null: %d\n",
         mlirAttributeIsNull(mlirGatherModeAttrGet(
             ctx, mlirStringRefCreateFromCString("nearest"))));

  /* A context that has only registered the dialect gets mode attributes
     too (the dialect loads); another attribute has no mode name. */
  MlirDialectRegistry fresh = mlirDialectRegistryCreate();
  mlirGatherRegisterDialects(fresh);
  MlirContext lazy = mlirContextCreateWithRegistry(fresh, false);
  mlirDialectRegistryDestroy(fresh);
  MlirStringRef lazyName = mlirGatherModeAttrGetValue(
      mlirGatherModeAttrGet(lazy, mlirStringRefCreateFromCString("clamp")));
  // CHECK: unloaded context: clamp
  printf("unloaded context: %.*s\n", (int)lazyName.length, lazyName.data);
  MlirAttribute nullAttr = {NULL};
  // CHECK: not a mode: 0 0 0
  printf("not a mode: %d %d %d\n", mlirAttributeIsAGatherMode(nullAttr),
         (int)mlirGatherModeAttrGetValue(nullAttr).length,
         (int)mlirGatherModeAttrGetValue(
             mlirAttributeParseGet(lazy, mlirStringRefCreateFromCString(
                                             "7 : i64")))
             .length);
  mlirContextDestroy(lazy);

  /* The registered pipeline, parsed and run through the C API. */
  mlirGatherRegisterPasses();
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      mlirPassManagerGetAsOpPassManager(pm),
      mlirStringRefCreateFromCString("builtin.module(gather-to-llvm)"), print,
      NULL);
  MlirLogicalResult ran = mlirPassManagerRunOnOp(pm, op);
  // CHECK: pipeline parsed: 1 ran: 1
  printf("pipeline parsed: %d ran: %d\n", mlirLogicalResultIsSuccess(parsed),
         mlirLogicalResultIsSuccess(ran));
  // CHECK: llvm.func @_mlir_ciface_f
  mlirOperationPrint(op, print, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);

  /* Invalid IR: a diagnostic and a null module, never a crash. */
  const char *bad = "func.func @g(%d: tensor<2x5xf32>, %i: tensor<3xi32>) {\n"
                    "  %r = gather.gather %d[%i] {axis = 2 : i64} : "
                    "(tensor<2x5xf32>, tensor<3xi32>) -> tensor<2x3xf32>\n"
                    "  return\n}\n";
  // CHECK: diagnostic: 'gather.gather' op axis 2 is out of range [-2, 1] for data of rank 2
  MlirModule none =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(bad));
  // CHECK: invalid module is null: 1
  printf("invalid module is null: %d\n", mlirModuleIsNull(none));

  /* A builder whose operand is no tensor: type inference reports it and
   * no op is made. */
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType argTypes[] = {
      mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("memref<4xf32>")),
      mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("tensor<2xi64>"))};
  MlirLocation argLocs[] = {loc, loc};
  MlirBlock block = mlirBlockCreate(2, argTypes, argLocs);
  MlirValue operands[] = {mlirBlockGetArgument(block, 0),
                          mlirBlockGetArgument(block, 1)};
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("gather.gather"), loc);
  mlirOperationStateAddOperands(&state, 2, operands);
  mlirOperationStateEnableResultTypeInference(&state);
  // CHECK: diagnostic: 'gather.gather' op data must be a tensor
  MlirOperation built = mlirOperationCreate(&state);
  // CHECK: op on a memref is null: 1
  printf("op on a memref is null: %d\n", mlirOperationIsNull(built));
  mlirBlockDestroy(block);

  mlirContextDestroy(ctx);
  return 0;
}
