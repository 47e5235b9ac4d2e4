//===- Emitter.cpp - What the lowerings' emitters build with --------------===//

#include "gather/Dialect/Gather/Utils/Emitter.h"

#include "mlir/Dialect/Complex/IR/Complex.h"

using namespace mlir;
using namespace mlir::gather;

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
