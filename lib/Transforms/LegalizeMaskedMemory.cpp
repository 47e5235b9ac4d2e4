//===- LegalizeMaskedMemory.cpp - Masked 16-bit floats as i16 ---*- C++ -*-===//
//
// gather-legalize-masked-memory: LLVM's masked loads, stores, gathers and
// scatters of bf16 and f16 vectors become the same intrinsics on i16
// vectors, with bitcasts around them. They move the same bits, and X86's
// instruction selection cannot lower some bf16 ones (a masked store of a
// v64bf16 with a constant mask of 33 lanes aborts LLVM 22 with "Cannot
// select" on hosts with avx512_bf16).
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERLEGALIZEMASKEDMEMORY
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// `type` with i16 elements if it is a vector of 16-bit floats, else null.
VectorType asI16Vector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || !isa<BFloat16Type, Float16Type>(vector.getElementType()))
    return {};
  return vector.clone(IntegerType::get(type.getContext(), 16));
}

/// Rewrites `op`'s 16-bit float vector operands and result as i16 ones.
void legalize(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  for (OpOperand &operand : op->getOpOperands())
    if (VectorType i16 = asI16Vector(operand.get().getType()))
      operand.set(LLVM::BitcastOp::create(b, loc, i16, operand.get()));
  b.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    Type original = result.getType();
    VectorType i16 = asI16Vector(original);
    if (!i16)
      continue;
    result.setType(i16);
    auto cast = LLVM::BitcastOp::create(b, loc, original, result);
    result.replaceAllUsesExcept(cast, cast);
  }
}

struct GatherLegalizeMaskedMemoryPass
    : gather::impl::GatherLegalizeMaskedMemoryBase<
          GatherLegalizeMaskedMemoryPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (isa<LLVM::MaskedLoadOp, LLVM::MaskedStoreOp, LLVM::masked_gather,
              LLVM::masked_scatter, LLVM::masked_expandload,
              LLVM::masked_compressstore>(op))
        legalize(op);
    });
  }
};

} // namespace
