//===- MPIReduceInPlace.cpp - All-reduce partial results in place ---------===//
//
// convert-shard-to-mpi lowers shard.all_reduce to a new buffer, a
// linalg.copy of the reduced value into it and an in-place mpi.allreduce.
// When the copied buffer is a fresh allocation that nothing uses after the
// copy, the two buffers can be one.
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERMPIREDUCEINPLACE
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// Whether an mpi.allreduce reduces `buffer` (or a reshape of it) in place.
static bool isReducedInPlace(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    if (auto reduce = dyn_cast<mpi::AllReduceOp>(user))
      if (reduce.getSendbuf() == buffer && reduce.getRecvbuf() == buffer)
        return true;
    if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user) &&
        isReducedInPlace(user->getResult(0)))
      return true;
  }
  return false;
}

/// Forwards `copy`'s source to its destination when the destination is a
/// fresh allocation reduced in place, the source an allocation of the same
/// block whose other users all come before the copy and only access it.
static void reduceSourceInPlace(linalg::CopyOp copy) {
  if (!copy.hasPureBufferSemantics())
    return;
  Value source = copy.getInputs()[0], dest = copy.getOutputs()[0];
  auto sourceAlloc = source.getDefiningOp<memref::AllocOp>();
  auto destAlloc = dest.getDefiningOp<memref::AllocOp>();
  Block *block = copy->getBlock();
  if (!sourceAlloc || !destAlloc || source.getType() != dest.getType() ||
      sourceAlloc->getBlock() != block || destAlloc->getBlock() != block ||
      sourceAlloc.getAlignment() != destAlloc.getAlignment() ||
      !isReducedInPlace(dest))
    return;
  for (Operation *user : dest.getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (user != copy && (!ancestor || !copy->isBeforeInBlock(ancestor)))
      return;
  }
  for (Operation *user : source.getUsers()) {
    if (user == copy)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || !ancestor->isBeforeInBlock(copy) ||
        isa<ViewLikeOpInterface, CallOpInterface>(user) ||
        !isa<MemoryEffectOpInterface>(user) ||
        user->hasTrait<OpTrait::ReturnLike>())
      return;
  }
  dest.replaceAllUsesWith(source);
  copy.erase();
  destAlloc.erase();
}

struct GatherMPIReduceInPlacePass
    : gather::impl::GatherMPIReduceInPlaceBase<GatherMPIReduceInPlacePass> {
  void runOnOperation() override {
    SmallVector<linalg::CopyOp> copies;
    getOperation()->walk([&](linalg::CopyOp copy) { copies.push_back(copy); });
    for (linalg::CopyOp copy : copies)
      reduceSourceInPlace(copy);
  }
};

} // namespace
