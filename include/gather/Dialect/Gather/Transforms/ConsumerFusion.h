//===- ConsumerFusion.h - Fuse a consumer into its producer's loop -*- C++ -*-//
//
// Upstream's consumer fusion (scf::tileAndFuseConsumerOfSlices) drives only
// destination-style ops. The gather ops keep their value-semantics form and
// get destinations by reification; this fuses such an op (any
// TilingInterface op with the operand-tile methods) as the consumer of a
// tiled producer of one of its operands.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_CONSUMERFUSION_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_CONSUMERFUSION_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

#include <string>

namespace mlir::gather {

/// What fuseConsumerIntoLoop made: the tiled consumer inside the loop and
/// the loop that replaced `loop` (one more result: the consumer's).
struct FusedConsumer {
  Operation *tiledConsumer;
  Operation *loop;
};

/// Fuses `consumer`, whose operand is a result of `loop` (an scf.forall that
/// assembles it with tensor.parallel_insert_slice, or an scf.for that yields
/// a tensor.insert_slice into its iteration argument, as upstream's
/// tile_using_forall / tile_using_for make them), into that loop: in every
/// iteration the operand tile the loop inserts is read by a tile of the
/// consumer (TilingInterface::getTiledImplementationFromOperandTiles), whose
/// result the new loop inserts into a reified destination at
/// getResultTilePosition. The consumer's other operands must be defined
/// outside the loop. Returns failure, with the reason in `why`, when the
/// IR has another form or no tile of the consumer reads exactly that
/// operand tile; the loop and the consumer are unchanged then (index
/// computations the attempt built in the loop body stay, dead, for
/// canonicalization to remove).
FailureOr<FusedConsumer> fuseConsumerIntoLoop(RewriterBase &rewriter,
                                              TilingInterface consumer,
                                              Operation *loop,
                                              std::string &why);

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_CONSUMERFUSION_H
