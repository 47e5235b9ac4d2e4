//===- Dialects.cpp - C API of the gather dialect ---------------*- C++ -*-===//

#include "gather-c/Dialects.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace mlir::gather;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Gather, gather, GatherDialect)

void mlirGatherRegisterDialects(MlirDialectRegistry registry) {
  registerAllGatherDialects(*unwrap(registry));
}

void mlirGatherRegisterPasses(void) { registerAllGatherPasses(); }

bool mlirAttributeIsAGatherMode(MlirAttribute attr) {
  return isa_and_present<GatherModeAttr>(unwrap(attr));
}

MlirAttribute mlirGatherModeAttrGet(MlirContext ctx, MlirStringRef name) {
  std::optional<GatherMode> mode = symbolizeGatherMode(unwrap(name));
  if (!mode)
    return {nullptr};
  // The attribute's storage is the dialect's: a context that has not loaded
  // it yet (only registered it, or not even that) loads it now.
  unwrap(ctx)->getOrLoadDialect<GatherDialect>();
  return wrap(GatherModeAttr::get(unwrap(ctx), *mode));
}

MlirStringRef mlirGatherModeAttrGetValue(MlirAttribute attr) {
  auto mode = dyn_cast_if_present<GatherModeAttr>(unwrap(attr));
  if (!mode)
    return mlirStringRefCreate(nullptr, 0);
  return wrap(stringifyGatherMode(mode.getValue()));
}
