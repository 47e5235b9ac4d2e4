//===- CopyToMemmove.cpp - Whole contiguous copies as memmove ---*- C++ -*-===//
//
// gather-copy-to-memmove: a `linalg.copy` between contiguous buffers that
// no loop holds becomes one `llvm.intr.memmove`. The C library's memmove
// stores a copy larger than the caches past them, which the loop of
// `convert-linalg-to-loops` does not (a scatter's copy of dest into a new
// array, on one thread).
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "gather/Dialect/Gather/Utils/Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERCOPYTOMEMMOVE
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

/// Whether `type`'s elements lie one after another from its offset: an
/// identity layout, or one dim of stride 1.
bool contiguous(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() == 1 &&
         succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides[0] == 1;
}

/// Whether `copy` moves whole bytes between contiguous buffers of one
/// element type, and runs once: no loop holds it.
bool movable(linalg::CopyOp copy) {
  if (!copy.hasPureBufferSemantics() ||
      copy->getParentOfType<LoopLikeOpInterface>())
    return false;
  auto from = dyn_cast<MemRefType>(copy.getInputs()[0].getType());
  auto to = dyn_cast<MemRefType>(copy.getOutputs()[0].getType());
  if (!from || !to || from.getElementType() != to.getElementType() ||
      from.getMemorySpace() || to.getMemorySpace() || !contiguous(from) ||
      !contiguous(to))
    return false;
  Type element = from.getElementType();
  return element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 == 0;
}

void toMemmove(linalg::CopyOp copy) {
  OpBuilder b(copy);
  Location loc = copy.getLoc();
  Value from = copy.getInputs()[0], to = copy.getOutputs()[0];
  auto type = cast<MemRefType>(from.getType());
  Value elementBytes =
      arith::ConstantIndexOp::create(b, loc, type.getElementTypeBitWidth() / 8);
  Value bytes = elementBytes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    bytes = arith::MulIOp::create(b, loc, bytes,
                                  memref::DimOp::create(b, loc, from, dim));
  LLVM::MemmoveOp::create(
      b, loc, gather::createElementPointer(b, loc, to, {}, elementBytes),
      gather::createElementPointer(b, loc, from, {}, elementBytes),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), bytes),
      /*isVolatile=*/false);
  copy.erase();
}

struct GatherCopyToMemmovePass
    : gather::impl::GatherCopyToMemmoveBase<GatherCopyToMemmovePass> {
  void runOnOperation() override {
    SmallVector<linalg::CopyOp> copies;
    getOperation()->walk([&](linalg::CopyOp copy) {
      if (movable(copy))
        copies.push_back(copy);
    });
    for (linalg::CopyOp copy : copies)
      toMemmove(copy);
  }
};

} // namespace
