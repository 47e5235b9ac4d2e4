//===- MPIMemoryEffects.cpp - Memory effects of the mpi ops ----*- C++ -*-===//
//
// LLVM 22's mpi ops that touch memory or the MPI library's state declare no
// memory effects, and the buffer deallocation pipeline rejects such ops
// ("ops with unknown memory side effects are not supported"). A partitioned
// module has them (convert-shard-to-mpi's allreduce, a program's init and
// finalize), so these models say what each does: an allreduce reads its
// send buffer and writes its receive buffer; every one of them also changes
// the library's state, so none is removed or reordered.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherMPIToLLVM/MPIMemoryEffects.h"

#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

template <typename OpTy>
struct LibraryStateEffects
    : MemoryEffectOpInterface::ExternalModel<LibraryStateEffects<OpTy>, OpTy> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    effects.emplace_back(MemoryEffects::Write::get());
    effects.emplace_back(MemoryEffects::Read::get());
    if (auto allReduce = dyn_cast<mpi::AllReduceOp>(op)) {
      effects.emplace_back(MemoryEffects::Read::get(),
                           &allReduce.getSendbufMutable());
      effects.emplace_back(MemoryEffects::Write::get(),
                           &allReduce.getRecvbufMutable());
    }
  }
};

} // namespace

void mlir::gather::registerMPIMemoryEffectsExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, mpi::MPIDialect *) {
    mpi::InitOp::attachInterface<LibraryStateEffects<mpi::InitOp>>(*context);
    mpi::FinalizeOp::attachInterface<LibraryStateEffects<mpi::FinalizeOp>>(
        *context);
    mpi::AllReduceOp::attachInterface<LibraryStateEffects<mpi::AllReduceOp>>(
        *context);
    mpi::Barrier::attachInterface<LibraryStateEffects<mpi::Barrier>>(*context);
  });
}
