//===- BufferizableOpInterfaceImpl.h - One-Shot Bufferize -------*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOLOOPS_BUFFERIZABLEOPINTERFACEIMPL_H
#define GATHER_CONVERSION_GATHERTOLOOPS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace gather {

/// Lets One-Shot Bufferize bufferize the gather ops: each reads its operands
/// in place, allocates its result, and becomes the loop nest of
/// emitGatherKernel (with the default GatherLoweringOptions).
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_GATHERTOLOOPS_BUFFERIZABLEOPINTERFACEIMPL_H
