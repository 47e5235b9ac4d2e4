//===- KernelKey.cpp - What tells gather kernels apart --------------------===//

#include "gather/Runtime/KernelKey.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::runtime;

FailureOr<GatherShape>
mlir::gather::runtime::inferShapeOf(OpKind k, ShapeView data, ShapeView indices,
                                    int64_t axis, int64_t batchDims,
                                    GatherMode mode, ShapeErrorFn emitError) {
  switch (k) {
  case OpKind::Gather:
    return inferGatherShape(data, indices, axis, batchDims, mode, emitError);
  case OpKind::Elements:
    return inferGatherElementsShape(data, indices, axis, mode, emitError);
  case OpKind::ND:
    return inferGatherNDShape(data, indices, batchDims, mode, emitError);
  }
  return failure();
}

OwningOpRef<ModuleOp> KernelKey::build(MLIRContext &ctx) const {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  Type element = b.getIntegerType(dataBytes * 8);
  Type indexElement = b.getIntegerType(indexBytes * 8);
  SmallVector<int64_t> dataShape(dataRank, ShapedType::kDynamic);
  SmallVector<int64_t> indexShape(indexRank, ShapedType::kDynamic);
  if (op == OpKind::ND)
    indexShape.back() = tupleSize;
  if (rowLength)
    dataShape.back() = rowLength;
  if (indexRowLength && op != OpKind::ND && indexRank > 0)
    indexShape.back() = indexRowLength;
  if (axisLength && op != OpKind::ND && axis < dataRank)
    dataShape[axis] = axisLength;
  auto noError = [](const Twine &) { return failure(); };
  GatherMode gatherMode = static_cast<GatherMode>(mode);
  ShapeView dataView(dataShape), indexView(indexShape);
  FailureOr<GatherShape> shape = inferShapeOf(op, dataView, indexView, axis,
                                              batchDims, gatherMode, noError);
  if (failed(shape))
    return nullptr;
  SmallVector<int64_t> resultShape = shape->getStaticShape(dataView, indexView);
  auto memrefOf = [&](ArrayRef<int64_t> sizes, Type type, bool strided) {
    MemRefLayoutAttrInterface layout;
    if (strided && !sizes.empty())
      layout = StridedLayoutAttr::get(
          &ctx, ShapedType::kDynamic,
          SmallVector<int64_t>(sizes.size(), ShapedType::kDynamic));
    return MemRefType::get(sizes, type, layout);
  };
  MemRefType dm = memrefOf(dataShape, element, flags & StridedData);
  MemRefType im = memrefOf(indexShape, indexElement, flags & StridedIndices);
  MemRefType om = memrefOf(resultShape, element, false);
  b.setInsertionPointToEnd(module->getBody());
  auto fn = func::FuncOp::create(b, loc, "kernel",
                                 b.getFunctionType({dm, im, om}, {}));
  fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  // The buffers of restrict tensors share no memory: LLVM may keep what it
  // loaded from one across stores into another (gather-noalias-memref-args).
  for (unsigned i = 0; i < 3; ++i)
    fn.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  auto tensorOf = [&](Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    return bufferization::ToTensorOp::create(
        b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
        memref, /*restrict=*/true);
  };
  Value data = tensorOf(body->getArgument(0));
  Value indices = tensorOf(body->getArgument(1));
  if ((flags & UnsignedIndices) && indexBytes < 8)
    indices = arith::ExtUIOp::create(
        b, loc, RankedTensorType::get(im.getShape(), b.getI64Type()), indices);
  Value result;
  switch (op) {
  case OpKind::Gather:
    result =
        GatherOp::create(b, loc, data, indices, axis, batchDims, gatherMode);
    break;
  case OpKind::Elements:
    result = GatherElementsOp::create(b, loc, data, indices, axis, gatherMode);
    break;
  case OpKind::ND:
    result = GatherNDOp::create(b, loc, data, indices, batchDims, gatherMode);
    break;
  }
  auto sink = bufferization::MaterializeInDestinationOp::create(
      b, loc, TypeRange{}, result, body->getArgument(2));
  sink.setRestrict(true);
  sink.setWritable(true);
  func::ReturnOp::create(b, loc);
  return module;
}
