//===- GatherOps.cpp - Gather dialect operations ----------------*- C++ -*-===//
//
// Verification, type inference and shape reification of the gather ops. All
// three delegate to the shape rules in GatherShapes.cpp, so the diagnostics a
// user sees from the verifier and from a type-inferring builder are the same.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "gather/Dialect/Gather/IR/GatherIndexing.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::gather;

//===----------------------------------------------------------------------===//
// Per-op shape rules, read from an adaptor
//===----------------------------------------------------------------------===//

static FailureOr<GatherShape> computeShape(GatherOp::Adaptor op, ShapeView data,
                                           ShapeView indices,
                                           ShapeErrorFn emitError) {
  return inferGatherShape(data, indices, static_cast<int64_t>(op.getAxis()),
                          static_cast<int64_t>(op.getBatchDims()), op.getMode(),
                          emitError);
}

static FailureOr<GatherShape> computeShape(GatherElementsOp::Adaptor op,
                                           ShapeView data, ShapeView indices,
                                           ShapeErrorFn emitError) {
  return inferGatherElementsShape(data, indices,
                                  static_cast<int64_t>(op.getAxis()),
                                  op.getMode(), emitError);
}

static FailureOr<GatherShape> computeShape(GatherNDOp::Adaptor op,
                                           ShapeView data, ShapeView indices,
                                           ShapeErrorFn emitError) {
  return inferGatherNDShape(data, indices,
                            static_cast<int64_t>(op.getBatchDims()),
                            op.getMode(), emitError);
}

/// The rules on operand types `data` and `indices`, which must be tensors.
template <typename AdaptorT>
static FailureOr<GatherShape> computeShape(AdaptorT op, Type data, Type indices,
                                           ShapeErrorFn emitError) {
  auto shapes = getOperandShapes(data, indices, emitError);
  if (failed(shapes))
    return failure();
  return computeShape(op, shapes->first, shapes->second, emitError);
}

/// The rules on the adaptor's own operand types.
template <typename AdaptorT>
static FailureOr<GatherShape> computeShape(AdaptorT op,
                                           ShapeErrorFn emitError) {
  return computeShape(op, op.getData().getType(), op.getIndices().getType(),
                      emitError);
}

//===----------------------------------------------------------------------===//
// Shared implementation of the op interfaces
//===----------------------------------------------------------------------===//

template <typename OpTy> static LogicalResult verifyGatherLike(OpTy op) {
  FailureOr<GatherShape> shape =
      computeShape(typename OpTy::Adaptor(op),
                   [&](const Twine &msg) { return op.emitOpError(msg); });
  if (failed(shape))
    return failure();

  // Index values are not checked here, even constant ones: a verifier sees
  // only what the op carries, and a gather whose constant index is out of
  // range may sit in a branch that never runs. check mode reports the index
  // when the gather runs; gather-warn-constant-indices warns ahead of time.

  auto data = cast<ShapedType>(op.getData().getType());
  auto indices = cast<ShapedType>(op.getIndices().getType());
  auto result = cast<ShapedType>(op.getResult().getType());
  if (result.getElementType() != data.getElementType())
    return op.emitOpError("result element type ")
           << result.getElementType() << " must match the data element type "
           << data.getElementType();
  if (!result.hasRank())
    return success();
  if (!shape->ranked) {
    // Only the operand ranks the rules allow can make the result's rank.
    if (result.getRank() < shape->minResultRank)
      return op.emitOpError("result must have rank >= ")
             << shape->minResultRank << ", but has rank " << result.getRank();
    return success();
  }
  SmallVector<int64_t> expected = shape->getStaticShape(data, indices);
  if (result.getRank() != static_cast<int64_t>(expected.size()))
    return op.emitOpError("result must have rank ")
           << expected.size() << ", but has rank " << result.getRank();
  for (auto [d, want, have] : llvm::enumerate(expected, result.getShape())) {
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
        want != have)
      return op.emitOpError("result dimension ")
             << d << " has size " << have << ", but the operands give " << want;
  }
  return success();
}

template <typename OpTy>
static LogicalResult
inferGatherLike(std::optional<Location> location, ValueRange operands,
                DictionaryAttr attributes, OpaqueProperties properties,
                RegionRange regions, SmallVectorImpl<Type> &inferred) {
  StringRef name = OpTy::getOperationName();
  if (operands.size() != 2)
    return emitOptionalError(location, "'", name, "' op expected 2 operands",
                             " (data and indices), but got ", operands.size());
  typename OpTy::Adaptor op(operands, attributes, properties, regions);
  auto emitError = [&](const Twine &msg) {
    return emitOptionalError(location, "'", name, "' op ", msg);
  };
  FailureOr<GatherShape> shape = computeShape(op, emitError);
  if (failed(shape))
    return failure();
  inferred.push_back(
      shape->getResultType(cast<ShapedType>(op.getData().getType()),
                           cast<ShapedType>(op.getIndices().getType())));
  return success();
}

/// Result types are compatible when they have the same element type and
/// shapes that may be equal (a static dimension refines a dynamic one, a
/// ranked tensor an unranked one).
static bool areCompatibleResultTypes(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip_equal(lhs, rhs)) {
    if (getElementTypeOrSelf(l) != getElementTypeOrSelf(r) ||
        failed(verifyCompatibleShape(l, r)))
      return false;
  }
  return true;
}

template <typename OpTy>
static LogicalResult reifyGatherLike(OpTy op, OpBuilder &builder,
                                     ReifiedRankedShapedTypeDims &reified) {
  FailureOr<GatherShape> shape =
      computeShape(typename OpTy::Adaptor(op), nullptr);
  if (failed(shape) || !shape->ranked)
    return failure();
  SmallVector<OpFoldResult> sizes =
      shape->getMixedSizes(builder, op.getLoc(), op.getData(), op.getIndices());
  // The declared result may be less static than the operands (or, checked
  // when the op runs, more): the sizes take its form.
  if (auto type = dyn_cast<RankedTensorType>(op.getType()))
    sizes = asReifiedSizesOf(builder, op.getLoc(), type, sizes);
  reified.push_back(sizes);
  return success();
}

/// Only `fill` defines a result for every index; speculating any other mode
/// could raise an error, or read out of bounds, that the program never asked
/// for.
static Speculation::Speculatability getGatherSpeculatability(GatherMode mode) {
  return mode == GatherMode::fill ? Speculation::Speculatable
                                  : Speculation::NotSpeculatable;
}

//===----------------------------------------------------------------------===//
// The ops
//===----------------------------------------------------------------------===//

#define GATHER_DEFINE_COMMON_METHODS(OpTy)                                     \
  LogicalResult OpTy::verify() { return verifyGatherLike(*this); }             \
  LogicalResult OpTy::inferReturnTypes(                                        \
      MLIRContext *, std::optional<Location> location, ValueRange operands,    \
      DictionaryAttr attributes, OpaqueProperties properties,                  \
      RegionRange regions, SmallVectorImpl<Type> &inferred) {                  \
    return inferGatherLike<OpTy>(location, operands, attributes, properties,   \
                                 regions, inferred);                           \
  }                                                                            \
  bool OpTy::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {           \
    return areCompatibleResultTypes(lhs, rhs);                                 \
  }                                                                            \
  LogicalResult OpTy::reifyResultShapes(                                       \
      OpBuilder &builder, ReifiedRankedShapedTypeDims &reified) {              \
    return reifyGatherLike(*this, builder, reified);                           \
  }                                                                            \
  Speculation::Speculatability OpTy::getSpeculatability() {                    \
    return getGatherSpeculatability(getMode());                                \
  }                                                                            \
  FailureOr<GatherShape> OpTy::getGatherShape() {                              \
    return computeShape(Adaptor(*this), nullptr);                              \
  }                                                                            \
  FailureOr<GatherShape> OpTy::getGatherShapeFor(Type data, Type indices) {    \
    return computeShape(Adaptor(*this), data, indices, nullptr);               \
  }

GATHER_DEFINE_COMMON_METHODS(GatherOp)
GATHER_DEFINE_COMMON_METHODS(GatherElementsOp)
GATHER_DEFINE_COMMON_METHODS(GatherNDOp)

#undef GATHER_DEFINE_COMMON_METHODS

#include "gather/Dialect/Gather/IR/GatherOpInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/IR/GatherOps.cpp.inc"
