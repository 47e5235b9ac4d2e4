//===- UnrankedDispatch.cpp - Gathers on unranked tensors -------*- C++ -*-===//
//
// A loop nest needs ranks. A gather whose data or indices is unranked becomes
// an scf.index_switch on the operands' run-time ranks, with one case for each
// rank pair (and, for gather_nd with unranked indices, an inner switch on the
// index tuple length) up to a maximum rank that the op's own shape rules
// accept with its attributes. Each case casts the operands to ranked dynamic
// tensors and holds a ranked copy of the op, which the affine lowering turns
// into a kernel (with the run-time shape checks of dynamic dims): the pass
// gather-dispatch-unranked. Ranks that
// no case covers call gather_mlir_shape_error (rule RANK_LIMIT or RANKS) and
// yield an empty result.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/UnrankedDispatch/UnrankedDispatch.h"
#include "gather-c/Runtime.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERDISPATCHUNRANKED
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// One case of a switch: the ranked operand types it casts to.
struct RankCase {
  int64_t key;
  RankedTensorType data, indices;
};

/// Builds the dispatch of one op at the builder's insertion point.
class RankDispatcher : EmitterBase {
public:
  RankDispatcher(OpBuilder &b, GatherOpInterface op, int64_t maxRank)
      : EmitterBase(b, op->getLoc()), op(op), maxRank(maxRank),
        resultType(cast<TensorType>(op->getResult(0).getType())) {}

  /// The value that replaces the op's result.
  Value build();

private:
  /// Whether the op's rules accept these operand types with a result that
  /// fits the op's result type.
  bool accepts(RankedTensorType data, RankedTensorType indices);
  /// A ranked copy of the op on its operands cast to the case's types, its
  /// result cast back to the op's result type.
  Value emitCase(const RankCase &c);
  /// scf.index_switch on `key` over `cases`; the default reports `rule`
  /// (a value) with the run-time ranks and yields an empty result.
  Value emitSwitch(Value key, ArrayRef<RankCase> cases,
                   function_ref<Value(const RankCase &)> body, Value rule);
  /// gather_nd with indices of the case's rank and a tuple length known
  /// only at run time: a switch on the length.
  Value emitTupleLengthSwitch(const RankCase &c);
  /// An empty tensor of the result type (dynamic dims 0); of rank `rank`
  /// if the result is unranked (1 if that is not known either).
  Value emptyResult(std::optional<int64_t> rank);

  /// The rank of `tensor`: of its type, of the ranked tensor that a chain
  /// of tensor.casts made it from (shape inference leaves such casts where
  /// a refined result still feeds an unranked use), or the one rank every
  /// case of an earlier gather's dispatch yields.
  static std::optional<int64_t> knownRank(Value tensor, int depth = 0) {
    if (auto ranked = dyn_cast<RankedTensorType>(tensor.getType()))
      return ranked.getRank();
    if (depth > kMaxRankSearchDepth)
      return std::nullopt;
    if (auto cast = tensor.getDefiningOp<tensor::CastOp>())
      return knownRank(cast.getSource(), depth + 1);
    auto dispatch = tensor.getDefiningOp<scf::IndexSwitchOp>();
    if (!dispatch)
      return std::nullopt;
    unsigned n = cast<OpResult>(tensor).getResultNumber();
    SmallVector<Value> yielded;
    for (Region &region : dispatch->getRegions()) {
      if (region.empty())
        return std::nullopt;
      yielded.push_back(region.front().getTerminator()->getOperand(n));
    }
    return commonKnownRank(yielded, depth + 1);
  }
  /// The one rank that knownRank finds for every value of `tensors`.
  static std::optional<int64_t> commonKnownRank(ValueRange tensors,
                                                int depth = 0) {
    std::optional<int64_t> rank;
    for (Value tensor : tensors) {
      std::optional<int64_t> r = knownRank(tensor, depth);
      if (!r || (rank && *rank != *r))
        return std::nullopt;
      rank = r;
    }
    return rank;
  }
  /// How far knownRank follows casts and dispatches.
  static constexpr int kMaxRankSearchDepth = 16;
  Value rankOf(Value tensor) {
    if (std::optional<int64_t> rank = knownRank(tensor))
      return constIndex(*rank);
    return tensor::RankOp::create(b, loc, tensor);
  }
  /// A dynamic shape of the rank `tensor` is known to have, else of every
  /// rank in [from, maxRank]. Cases only for ranks an operand can have: a
  /// case that casts a ranked buffer to another rank through `*` would be
  /// folded by the canonicalizer into an invalid memref.cast.
  SmallVector<RankedTensorType> candidates(Value tensor, int64_t from) const {
    Type type = tensor.getType();
    if (auto ranked = dyn_cast<RankedTensorType>(type))
      return {ranked};
    Type element = cast<ShapedType>(type).getElementType();
    if (std::optional<int64_t> rank = knownRank(tensor))
      return {RankedTensorType::get(
          SmallVector<int64_t>(*rank, ShapedType::kDynamic), element)};
    SmallVector<RankedTensorType> result;
    for (int64_t r = from; r <= maxRank; ++r)
      result.push_back(RankedTensorType::get(
          SmallVector<int64_t>(r, ShapedType::kDynamic), element));
    return result;
  }
  /// `indices` with its last dimension `k`.
  static RankedTensorType withTupleLength(RankedTensorType indices, int64_t k) {
    SmallVector<int64_t> shape(indices.getShape());
    shape.back() = k;
    return RankedTensorType::get(shape, indices.getElementType());
  }
  bool hasTupleSwitch() {
    return isa<GatherNDOp>(op) &&
           !isa<RankedTensorType>(op.getIndices().getType());
  }

  GatherOpInterface op;
  int64_t maxRank;
  TensorType resultType;
  Value dataRank, indicesRank;
};

} // namespace

bool RankDispatcher::accepts(RankedTensorType data, RankedTensorType indices) {
  if (hasTupleSwitch() && ShapedType::isDynamic(indices.getShape().back()))
    return llvm::any_of(llvm::seq<int64_t>(1, maxRank + 1), [&](int64_t k) {
      return accepts(data, withTupleLength(indices, k));
    });
  FailureOr<GatherShape> shape = op.getGatherShapeFor(data, indices);
  if (failed(shape) || !shape->ranked)
    return false;
  TensorType type = shape->getResultType(data, indices);
  return !resultType.hasRank() ||
         (type.getRank() == resultType.getRank() &&
          succeeded(verifyCompatibleShape(type, resultType)));
}

Value RankDispatcher::emitCase(const RankCase &c) {
  auto castTo = [&](Value v, Type type) -> Value {
    if (v.getType() == type)
      return v;
    return tensor::CastOp::create(b, loc, type, v);
  };
  Value data = castTo(op.getData(), c.data);
  Value indices = castTo(op.getIndices(), c.indices);
  Operation *ranked = b.clone(*op);
  ranked->setOperands({data, indices});
  FailureOr<GatherShape> shape = op.getGatherShapeFor(c.data, c.indices);
  assert(succeeded(shape) && "cases are made of accepted types");
  ranked->getResult(0).setType(shape->getResultType(c.data, c.indices));
  return castTo(ranked->getResult(0), resultType);
}

Value RankDispatcher::emptyResult(std::optional<int64_t> rank) {
  auto type = dyn_cast<RankedTensorType>(resultType);
  if (!type)
    type = RankedTensorType::get(SmallVector<int64_t>(rank.value_or(1), 0),
                                 resultType.getElementType());
  SmallVector<Value> zeros(type.getNumDynamicDims(), constIndex(0));
  Value empty = tensor::EmptyOp::create(b, loc, type, zeros);
  if (type == resultType)
    return empty;
  return tensor::CastOp::create(b, loc, resultType, empty);
}

Value RankDispatcher::emitSwitch(Value key, ArrayRef<RankCase> cases,
                                 function_ref<Value(const RankCase &)> body,
                                 Value rule) {
  SmallVector<int64_t> keys =
      llvm::map_to_vector(cases, [](const RankCase &c) { return c.key; });
  auto switchOp = scf::IndexSwitchOp::create(b, loc, TypeRange{resultType}, key,
                                             keys, keys.size());
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> results;
  for (auto [region, c] : llvm::zip_equal(switchOp.getCaseRegions(), cases)) {
    b.setInsertionPointToStart(&region.emplaceBlock());
    results.push_back(body(c));
    scf::YieldOp::create(b, loc, results.back());
  }
  b.setInsertionPointToStart(&switchOp.getDefaultRegion().emplaceBlock());
  emitShapeError(b, loc, op, rule, b.getI64IntegerAttr(maxRank), dataRank,
                 indicesRank);
  // The default's empty result has the rank every case's result has, if
  // they agree, so that a later dispatch on this result knows it.
  scf::YieldOp::create(b, loc, emptyResult(commonKnownRank(results)));
  return switchOp.getResult(0);
}

Value RankDispatcher::emitTupleLengthSwitch(const RankCase &c) {
  SmallVector<RankCase> cases;
  for (int64_t k = 1; k <= maxRank; ++k) {
    RankedTensorType indices = withTupleLength(c.indices, k);
    if (accepts(c.data, indices))
      cases.push_back({k, c.data, indices});
  }
  Value indices = op.getIndices();
  if (indices.getType() != c.indices)
    indices = tensor::CastOp::create(b, loc, c.indices, indices);
  Value k = tensor::DimOp::create(b, loc, indices, c.indices.getRank() - 1);
  return emitSwitch(
      k, cases, [&](const RankCase &c) { return emitCase(c); },
      constI64(GATHER_MLIR_RULE_RANKS));
}

Value RankDispatcher::build() {
  dataRank = rankOf(op.getData());
  indicesRank = rankOf(op.getIndices());
  // One key per rank pair; ranks past the maximum get a key no case has.
  int64_t stride = maxRank + 1;
  SmallVector<RankCase> cases;
  for (RankedTensorType data : candidates(op.getData(), 1))
    for (RankedTensorType indices :
         candidates(op.getIndices(), hasTupleSwitch() ? 1 : 0))
      if (data.getRank() <= maxRank && indices.getRank() <= maxRank &&
          accepts(data, indices))
        cases.push_back(
            {data.getRank() * stride + indices.getRank(), data, indices});

  Value max = constIndex(maxRank);
  Value tooLarge = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, dataRank, max),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, indicesRank,
                            max));
  Value key = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, dataRank, constIndex(stride)),
      indicesRank);
  key = arith::SelectOp::create(b, loc, tooLarge, constIndex(-1), key);
  Value rule = arith::SelectOp::create(b, loc, tooLarge,
                                       constI64(GATHER_MLIR_RULE_RANK_LIMIT),
                                       constI64(GATHER_MLIR_RULE_RANKS));
  return emitSwitch(
      key, cases,
      [&](const RankCase &c) {
        return hasTupleSwitch() ? emitTupleLengthSwitch(c) : emitCase(c);
      },
      rule);
}

void mlir::gather::dispatchUnrankedGathers(Operation *root, int64_t maxRank) {
  SmallVector<GatherOpInterface> unranked;
  root->walk([&](GatherOpInterface op) {
    if (!isa<RankedTensorType>(op.getData().getType()) ||
        !isa<RankedTensorType>(op.getIndices().getType()))
      unranked.push_back(op);
  });
  for (GatherOpInterface op : unranked) {
    OpBuilder b(op);
    Value result = RankDispatcher(b, op, maxRank).build();
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
}

namespace {
struct GatherDispatchUnrankedPass
    : gather::impl::GatherDispatchUnrankedBase<GatherDispatchUnrankedPass> {
  using Base::Base;

  void runOnOperation() override {
    if (maxRank < 0 || maxRank > 8) {
      emitError(getOperation().getLoc()) << "max-rank must be in [0, 8], got "
                                         << static_cast<int64_t>(maxRank);
      return signalPassFailure();
    }
    dispatchUnrankedGathers(getOperation(), maxRank);
  }
};
} // namespace
