//===- EmbeddingBagOps.cpp - gather.embedding_bag ---------------*- C++ -*-===//
//
// The shape rules of gather.embedding_bag, written once: the verifier, type
// inference and shape reification all read them from embeddingBagShape.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::gather;

namespace {
/// The result's static shape [bags, dim], kDynamic where a size is known
/// only at run time.
struct BagShape {
  int64_t bags, dim;
};
} // namespace

static FailureOr<BagShape> embeddingBagShape(EmbeddingBagOp::Adaptor op,
                                             ShapeErrorFn emitError) {
  auto fail = [&](const Twine &msg) -> FailureOr<BagShape> {
    if (emitError)
      (void)emitError(msg);
    return failure();
  };
  auto weight = dyn_cast<RankedTensorType>(op.getWeight().getType());
  if (!weight || weight.getRank() != 2)
    return fail("weight must be a 2-D tensor [num, dim], but is " +
                Twine(weight ? "of rank " + Twine(weight.getRank()).str()
                             : "unranked"));
  auto ids = dyn_cast<RankedTensorType>(op.getIds().getType());
  Value offsetsValue = op.getOffsets();
  int64_t wantIdsRank = offsetsValue ? 1 : 2;
  if (!ids || ids.getRank() != wantIdsRank)
    return fail(offsetsValue
                    ? "ids must be 1-D with offsets"
                    : "ids must be 2-D [bags, n] (fixed-length bags) "
                      "without offsets");
  int64_t bags = ids.getDimSize(0);
  if (offsetsValue) {
    auto offsets = dyn_cast<RankedTensorType>(offsetsValue.getType());
    if (!offsets || offsets.getRank() != 1)
      return fail("offsets must be 1-D");
    bags = offsets.getDimSize(0);
    if (op.getIncludeLastOffset() && !ShapedType::isDynamic(bags)) {
      if (bags == 0)
        return fail("include_last_offset needs at least one offset (the "
                    "end of the last bag)");
      --bags;
    } else if (op.getIncludeLastOffset()) {
      bags = ShapedType::kDynamic;
    }
  } else if (op.getIncludeLastOffset()) {
    return fail("include_last_offset needs offsets");
  }
  if (Value weights = op.getPerSampleWeights()) {
    if (op.getReduction() != BagReduction::sum)
      return fail("per_sample_weights is only supported with reduction sum");
    auto type = dyn_cast<RankedTensorType>(weights.getType());
    if (!type || failed(verifyCompatibleShape(type, ids)))
      return fail("per_sample_weights must have the shape of ids");
    if (type.getElementType() != weight.getElementType())
      return fail(Twine("per_sample_weights must have the element type of "
                        "weight"));
  }
  int64_t num = weight.getDimSize(0);
  if (std::optional<int64_t> pad = op.getPaddingIdx();
      pad && !ShapedType::isDynamic(num) && (*pad < -num || *pad >= num))
    return fail("padding_idx " + Twine(*pad) + " is out of range [" +
                Twine(-num) + ", " + Twine(num - 1) + "] for a table of " +
                Twine(num) + " rows");
  return BagShape{bags, weight.getDimSize(1)};
}

LogicalResult EmbeddingBagOp::verify() {
  FailureOr<BagShape> shape = embeddingBagShape(
      Adaptor(*this), [&](const Twine &msg) { return emitOpError(msg); });
  if (failed(shape))
    return failure();
  auto result = cast<ShapedType>(getResult().getType());
  Type element = getElementTypeOrSelf(getWeight().getType());
  if (result.getElementType() != element)
    return emitOpError("result element type ")
           << result.getElementType() << " must match the weight element type "
           << element;
  if (!result.hasRank())
    return success();
  if (result.getRank() != 2)
    return emitOpError("result must have rank 2 ([bags, dim]), but has rank ")
           << result.getRank();
  int64_t expected[] = {shape->bags, shape->dim};
  for (auto [d, want] : llvm::enumerate(expected)) {
    int64_t have = result.getDimSize(d);
    if (!ShapedType::isDynamic(want) && !ShapedType::isDynamic(have) &&
        want != have)
      return emitOpError("result dimension ")
             << d << " has size " << have << ", but the operands give " << want;
  }
  return success();
}

LogicalResult EmbeddingBagOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferred) {
  Adaptor op(operands, attributes, properties, regions);
  auto emitError = [&](const Twine &msg) {
    return emitOptionalError(location, "'", getOperationName(), "' op ", msg);
  };
  FailureOr<BagShape> shape = embeddingBagShape(op, emitError);
  if (failed(shape))
    return failure();
  inferred.push_back(
      RankedTensorType::get({shape->bags, shape->dim},
                            getElementTypeOrSelf(op.getWeight().getType())));
  return success();
}

bool EmbeddingBagOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip_equal(lhs, rhs))
    if (getElementTypeOrSelf(l) != getElementTypeOrSelf(r) ||
        failed(verifyCompatibleShape(l, r)))
      return false;
  return true;
}

LogicalResult
EmbeddingBagOp::reifyResultShapes(OpBuilder &b,
                                  ReifiedRankedShapedTypeDims &reified) {
  FailureOr<BagShape> shape = embeddingBagShape(Adaptor(*this), nullptr);
  if (failed(shape))
    return failure();
  Location loc = getLoc();
  OpFoldResult bags;
  if (Value offsets = getOffsets()) {
    bags = tensor::getMixedSize(b, loc, offsets, 0);
    if (getIncludeLastOffset())
      bags = arith::SubIOp::create(
                 b, loc, getValueOrCreateConstantIndexOp(b, loc, bags),
                 arith::ConstantIndexOp::create(b, loc, 1))
                 .getResult();
  } else {
    bags = tensor::getMixedSize(b, loc, getIds(), 0);
  }
  reified.push_back({bags, tensor::getMixedSize(b, loc, getWeight(), 1)});
  return success();
}

Type EmbeddingBagOp::getAccumulatorType() {
  Type element = getElementTypeOrSelf(getWeight().getType());
  if (element.isF16() || element.isBF16())
    return Float32Type::get(getContext());
  return element;
}
