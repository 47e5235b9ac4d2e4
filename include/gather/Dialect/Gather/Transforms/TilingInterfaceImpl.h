//===- TilingInterfaceImpl.h - Tiling of the gather ops ---------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_TILINGINTERFACEIMPL_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_TILINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace gather {

/// Attaches upstream's TilingInterface to the gather ops: iteration domain =
/// result dims, all parallel; tiles, producer fusion (result tiles) and
/// operand tiles of the indices (the gather as consumer of an ids producer).
/// The scatters' domain is their updates, the index positions reductions.
void registerTilingInterfaceExternalModels(DialectRegistry &registry);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_TILINGINTERFACEIMPL_H
