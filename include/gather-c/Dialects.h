/*===- gather-c/Dialects.h - C API of the gather dialect ----------*- C -*-===*\
|*                                                                            *|
|* Registration of the gather dialect, its passes and pipeline, and its      *|
|* mode attribute, for C clients and other language bindings. Together with  *|
|* upstream's mlir-c headers (IR, Pass, RegisterEverything), all exported by *|
|* libGatherMLIR-C.so.                                                        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_C_DIALECTS_H
#define GATHER_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Gather, gather);

/// Adds the gather dialect and its interface models (One-Shot Bufferize) to
/// `registry`.
MLIR_CAPI_EXPORTED void
mlirGatherRegisterDialects(MlirDialectRegistry registry);

/// Registers the gather passes (convert-gather-to-loops,
/// gather-shape-inference, gather-emit-c-interface) and the gather-to-llvm
/// pipeline with the global registry, for mlirParsePassPipeline.
MLIR_CAPI_EXPORTED void mlirGatherRegisterPasses(void);

/// Whether `attr` is a `#gather<mode ...>` attribute.
MLIR_CAPI_EXPORTED bool mlirAttributeIsAGatherMode(MlirAttribute attr);

/// `#gather<mode name>` for name in check, fill, clamp, wrap, unchecked
/// (the gather dialect is loaded into `ctx` if it is not yet); a null
/// attribute for any other name.
MLIR_CAPI_EXPORTED MlirAttribute mlirGatherModeAttrGet(MlirContext ctx,
                                                       MlirStringRef name);

/// The mode name of a `#gather<mode ...>` attribute; an empty string for
/// any other attribute, null included.
MLIR_CAPI_EXPORTED MlirStringRef mlirGatherModeAttrGetValue(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_DIALECTS_H */
