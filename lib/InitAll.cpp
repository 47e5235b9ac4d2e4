//===- InitAll.cpp - Register everything GatherMLIR provides ----*- C++ -*-===//

#include "gather/InitAll.h"

#include "gather/Conversion/GatherMPIToLLVM/MPIMemoryEffects.h"
#include "gather/Conversion/GatherToLoops/BufferizableOpInterfaceImpl.h"
#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Conversion/Passes.h"
#include "gather/Conversion/ScatterToSCF/ScatterToSCF.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Dialect/Gather/Transforms/ShardingInterfaceImpl.h"
#include "gather/Dialect/Gather/Transforms/TilingInterfaceImpl.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::gather::registerAllGatherDialects(DialectRegistry &registry) {
  registry.insert<GatherDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerScatterBufferizableOpInterfaceExternalModels(registry);
  registerTilingInterfaceExternalModels(registry);
  registerShardingInterfaceExternalModels(registry);
  registerMPIMemoryEffectsExternalModels(registry);
  registerStreamingFenceExternalModel(registry);
  registerTransformDialectExtension(registry);
}

void mlir::gather::registerAllGatherPasses() {
  registerGatherConversionPasses();
  registerGatherTransformsPasses();
  registerGatherGeneralTransformsPasses();
  registerGatherPipelines();
}
