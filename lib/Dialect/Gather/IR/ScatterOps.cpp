//===- ScatterOps.cpp - The scatter ops, the gathers' adjoints --*- C++ -*-===//
//
// Verification, folding and shape reification of the scatters. Their shape
// rules are the matching gather's (GatherShapes.cpp) on (dest, indices):
// `updates` must have the shape the gather would give, so a rule is written
// once for a gather and its adjoint.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::gather;

//===----------------------------------------------------------------------===//
// The matching gather's rules, read from an op
//===----------------------------------------------------------------------===//

static FailureOr<GatherShape> computeShape(ScatterOp op, ShapeView dest,
                                           ShapeView indices,
                                           ShapeErrorFn emitError) {
  return inferGatherShape(dest, indices, static_cast<int64_t>(op.getAxis()),
                          static_cast<int64_t>(op.getBatchDims()), op.getMode(),
                          emitError);
}

static FailureOr<GatherShape> computeShape(ScatterElementsOp op, ShapeView dest,
                                           ShapeView indices,
                                           ShapeErrorFn emitError) {
  return inferGatherElementsShape(dest, indices,
                                  static_cast<int64_t>(op.getAxis()),
                                  op.getMode(), emitError);
}

static FailureOr<GatherShape> computeShape(ScatterNDOp op, ShapeView dest,
                                           ShapeView indices,
                                           ShapeErrorFn emitError) {
  return inferGatherNDShape(dest, indices,
                            static_cast<int64_t>(op.getBatchDims()),
                            op.getMode(), emitError);
}

template <typename OpTy>
static FailureOr<GatherShape> computeShape(OpTy op, ShapeErrorFn emitError) {
  return computeShape(
      op, ShapeView::get(cast<ShapedType>(op.getDest().getType())),
      ShapeView::get(cast<ShapedType>(op.getIndices().getType())), emitError);
}

//===----------------------------------------------------------------------===//
// Shared implementation
//===----------------------------------------------------------------------===//

template <typename OpTy> static LogicalResult verifyScatterLike(OpTy op) {
  auto emitError = [&](const Twine &msg) { return op.emitOpError(msg); };
  FailureOr<GatherShape> shape = computeShape(op, emitError);
  if (failed(shape))
    return failure();

  auto dest = cast<RankedTensorType>(op.getDest().getType());
  auto indices = cast<RankedTensorType>(op.getIndices().getType());
  auto updates = cast<RankedTensorType>(op.getUpdates().getType());
  Type element = dest.getElementType();
  if (updates.getElementType() != element)
    return op.emitOpError("updates element type ")
           << updates.getElementType() << " must match the dest element type "
           << element;
  ScatterCombine combine = op.getReduction();
  if (isa<ComplexType>(element) &&
      (combine == ScatterCombine::max || combine == ScatterCombine::min))
    return op.emitOpError("reduction ")
           << stringifyScatterCombine(combine)
           << " is not defined on complex numbers (" << element << ")";

  // updates has the matching gather's result shape.
  SmallVector<int64_t> expected = shape->getStaticShape(dest, indices);
  if (updates.getRank() != static_cast<int64_t>(expected.size()))
    return op.emitOpError("updates must have rank ")
           << expected.size() << " (the gather's result for dest and indices)"
           << ", but has rank " << updates.getRank();
  for (auto [d, want, have] : llvm::enumerate(expected, updates.getShape())) {
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
        want != have)
      return op.emitOpError("updates dimension ")
             << d << " has size " << have << ", but dest and indices give "
             << want;
  }
  return success();
}

/// A scatter of no index at all (a static empty index tensor with static
/// operands, whose rules the verifier checked) is its dest.
template <typename OpTy> static OpFoldResult foldScatterLike(OpTy op) {
  auto dest = cast<RankedTensorType>(op.getDest().getType());
  auto indices = cast<RankedTensorType>(op.getIndices().getType());
  auto updates = cast<RankedTensorType>(op.getUpdates().getType());
  if (!dest.hasStaticShape() || !indices.hasStaticShape() ||
      !updates.hasStaticShape() || indices.getNumElements() != 0)
    return {};
  return op.getDest();
}

/// Only `fill` and `unchecked` define a result for every index, as for the
/// gathers; `unchecked` may still write out of bounds.
static Speculation::Speculatability getScatterSpeculatability(GatherMode mode) {
  return mode == GatherMode::fill ? Speculation::Speculatable
                                  : Speculation::NotSpeculatable;
}

#define GATHER_DEFINE_SCATTER_METHODS(OpTy)                                    \
  LogicalResult OpTy::verify() { return verifyScatterLike(*this); }            \
  OpFoldResult OpTy::fold(FoldAdaptor) { return foldScatterLike(*this); }      \
  LogicalResult OpTy::reifyResultShapes(                                       \
      OpBuilder &builder, ReifiedRankedShapedTypeDims &reified) {              \
    reified.push_back(tensor::getMixedSizes(builder, getLoc(), getDest()));    \
    return success();                                                          \
  }                                                                            \
  Speculation::Speculatability OpTy::getSpeculatability() {                    \
    return getScatterSpeculatability(getMode());                               \
  }                                                                            \
  FailureOr<GatherShape> OpTy::getGatherShape() {                              \
    return computeShape(*this, nullptr);                                       \
  }

GATHER_DEFINE_SCATTER_METHODS(ScatterOp)
GATHER_DEFINE_SCATTER_METHODS(ScatterElementsOp)
GATHER_DEFINE_SCATTER_METHODS(ScatterNDOp)

#undef GATHER_DEFINE_SCATTER_METHODS
