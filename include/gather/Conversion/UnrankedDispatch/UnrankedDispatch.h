//===- UnrankedDispatch.h - Gathers on unranked tensors ---------*- C++ -*-===//
//
// The run-time rank dispatch of gather-dispatch-unranked, for embedders
// that run it outside a pass.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_UNRANKEDDISPATCH_UNRANKEDDISPATCH_H
#define GATHER_CONVERSION_UNRANKEDDISPATCH_UNRANKEDDISPATCH_H

#include <cstdint>

namespace mlir {
class Operation;
namespace gather {

/// Rewrites every gather op under `root` whose data or indices is unranked
/// into an scf.index_switch on the run-time ranks (up to `maxRank`) whose
/// cases hold ranked copies of the op; ranks past `maxRank`, or that the
/// op's rules reject, call gather_mlir_shape_error.
void dispatchUnrankedGathers(Operation *root, int64_t maxRank);

} // namespace gather
} // namespace mlir

#endif // GATHER_CONVERSION_UNRANKEDDISPATCH_UNRANKEDDISPATCH_H
