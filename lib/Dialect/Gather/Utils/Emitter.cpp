//===- Emitter.cpp - What the lowerings' emitters build with --------------===//

#include "gather/Dialect/Gather/Utils/Emitter.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::gather;

Value EmitterBase::tensorDim(Value shaped, int64_t d) {
  return getValueOrCreateConstantIndexOp(
      b, loc, linalg::createFoldedDimOp(b, loc, shaped, d));
}

Value EmitterBase::zero(Type type) {
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Attribute z = b.getZeroAttr(complexType.getElementType());
    return complex::ConstantOp::create(b, loc, complexType,
                                       b.getArrayAttr({z, z}));
  }
  if (auto vectorType = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(
        b, loc, vectorType,
        DenseElementsAttr::get(vectorType,
                               b.getZeroAttr(vectorType.getElementType())));
  return arith::ConstantOp::create(b, loc,
                                   cast<TypedAttr>(b.getZeroAttr(type)));
}

Value mlir::gather::createIfElse(OpBuilder &b, Location loc, Type type,
                                 Value cond, function_ref<Value()> then,
                                 function_ref<Value()> otherwise) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, then());
  b.setInsertionPointToStart(ifOp.elseBlock());
  scf::YieldOp::create(b, loc, otherwise());
  return ifOp.getResult(0);
}

OpFoldResult mlir::gather::sliceOffsetInto(OpBuilder &b, Location loc,
                                           OpFoldResult offset,
                                           int64_t dimSize) {
  std::optional<int64_t> constant = getConstantIntValue(offset);
  if (!constant || ShapedType::isDynamic(dimSize) || *constant < dimSize)
    return offset;
  return getValueOrCreateConstantIndexOp(b, loc, offset);
}

Value mlir::gather::createElementPointer(OpBuilder &b, Location loc,
                                         Value memref, ValueRange subscripts,
                                         Value elementBytes) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = metadata.getOffset();
  for (auto [s, stride] : llvm::zip(subscripts, metadata.getStrides()))
    offset = arith::AddIOp::create(b, loc, offset,
                                   arith::MulIOp::create(b, loc, s, stride));
  Value address = arith::AddIOp::create(
      b, loc, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref),
      arith::MulIOp::create(b, loc, offset, elementBytes));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()),
      arith::IndexCastOp::create(b, loc, b.getI64Type(), address).getResult());
}
