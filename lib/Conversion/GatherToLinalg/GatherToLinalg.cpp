//===- GatherToLinalg.cpp - Lower gather ops to upstream linalg -*- C++ -*-===//
//
// A lowering to upstream dialects only (linalg, tensor, arith, scf, cf,
// complex), for compilers whose pipelines know no others. It trades the
// affine kernels' vector paths and error hooks for portability:
//
//  1. in every mode but `unchecked`, cf.assert the shape rules that the
//     verifier could not check because a dim is dynamic;
//  2. `check`: a linalg.generic over the indices asserts each value in range
//     and yields it; the gather reads these checked indices, so nothing of
//     data is read before every index passed. `clamp`/`wrap`: assert that no
//     index selects along an empty dimension;
//  3. the gather: a linalg.generic over the result shape whose body reads
//     the index components with tensor.extract, resolves them by the mode in
//     i64 arith, and reads data with tensor.extract (inside an scf.if for
//     `fill`). `check` keeps its read in bounds as well (clamped, or guarded
//     when the dim may be empty), for clients that drop cf.assert.
//
// Which operand dimension each result dimension walks, and which data
// dimension each index component selects along, come from GatherShape.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/Emitter.h"
#include "gather/Dialect/Gather/Utils/IndexArithmetic.h"
#include "gather/Dialect/Gather/Utils/Lowering.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERTOLINALG
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// Emits the lowering of one gather op at the builder's insertion point.
class LinalgGatherEmitter : EmitterBase {
public:
  LinalgGatherEmitter(OpBuilder &b, GatherOpInterface op,
                      const GatherShape &shape, Value data, Value indices)
      : EmitterBase(b, op->getLoc()), opName(op->getName().getStringRef()),
        mode(op.getMode()), shape(shape), data(data), indices(indices),
        dataType(cast<RankedTensorType>(data.getType())),
        indicesType(cast<RankedTensorType>(indices.getType())),
        tuples(isa<GatherNDOp>(op)) {}

  /// The gathered tensor, of the op's result type.
  Value emit(Type resultType);

private:
  /// Operand sizes, emitted once before the generics that use them.
  Value dim(Value tensor, int64_t d) {
    Value &size = dims[{tensor, d}];
    if (!size)
      size = getValueOrCreateConstantIndexOp(
          b, loc, tensor::getMixedSize(b, loc, tensor, d));
    return size;
  }
  void check(Value cond, const Twine &msg) {
    cf::AssertOp::create(b, loc, cond, (opName + ": " + msg).str());
  }
  /// The size of the data dimension component `c` selects along, as i64.
  Value indexedSize(int64_t c) {
    int64_t d = shape.indexedDim(c);
    if (!dataType.isDynamicDim(d))
      return constI64(dataType.getDimSize(d));
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), dim(data, d));
  }
  Value toI64(Value raw) { return indexValueToI64(b, loc, raw); }

  void assertShapeRules(ArrayRef<int64_t> resultShape,
                        ArrayRef<OpFoldResult> resultSizes);
  void assertNotEmpty();
  Value checkIndices(ArrayRef<Value> sizes);
  /// checkIndices' linalg.generic, over every index.
  Value checkAll(ArrayRef<Value> sizes);
  /// full(), a value of `shaped`'s type, unless `shaped` is empty along a
  /// dim past its first: then empty(). A linalg.generic over a tensor empty
  /// along an inner dim would still walk its outer dims (2^40 x 0 indices
  /// ran for hours), and a cf.assert in its body keeps LLVM from deleting
  /// the loop.
  Value unlessEmpty(Value shaped, function_ref<Value()> empty,
                    function_ref<Value()> full);
  /// The subscript into data dimension indexedDim(c) for index value `i`
  /// (i64) along a dimension of size `s` (i64), and whether it is in range
  /// (`fill` only; null otherwise).
  std::pair<Value, Value> resolve(Value i, Value s, int64_t staticSize);
  /// The body of the gather at result position `ivs`.
  Value gatherAt(ValueRange ivs, ArrayRef<Value> sizes, Type element);

  StringRef opName;
  GatherMode mode;
  const GatherShape &shape;
  Value data, indices;
  RankedTensorType dataType, indicesType;
  /// gather_nd: the last indices dim holds the tuples' components.
  bool tuples;
  DenseMap<std::pair<Value, int64_t>, Value> dims;
};

void LinalgGatherEmitter::assertShapeRules(ArrayRef<int64_t> resultShape,
                                           ArrayRef<OpFoldResult> resultSizes) {
  if (mode == GatherMode::unchecked)
    return;
  // The rules the kernels' hooks check too (GatherShape::getRunTimeRules);
  // a cf.assert's message is static, so it names the dims, not their
  // sizes.
  for (const OperandDimRule &r : shape.getRunTimeRules(dataType, indicesType))
    check(cmp(r.atMost ? arith::CmpIPredicate::ule : arith::CmpIPredicate::eq,
              dim(indices, r.indicesDim), dim(data, r.dataDim)),
          r.atMost ? "indices dimension " + Twine(r.indicesDim) +
                         " is larger than data dimension " + Twine(r.dataDim)
                   : "batch dimension " + Twine(r.dataDim) +
                         " has different sizes in data and indices");
  // A result dim the op declares static that the operands leave dynamic.
  for (auto [d, size] : llvm::enumerate(resultSizes)) {
    auto value = dyn_cast<Value>(size);
    if (!value || ShapedType::isDynamic(resultShape[d]))
      continue;
    check(cmp(arith::CmpIPredicate::eq, value, constIndex(resultShape[d])),
          "result dimension " + Twine(d) + " has size " +
              Twine(resultShape[d]) + ", but the operands give another");
  }
}

void LinalgGatherEmitter::assertNotEmpty() {
  if (mode != GatherMode::clamp && mode != GatherMode::wrap)
    return;
  // Any index at all along an empty dimension is an error: assert that the
  // dimension is not empty or that there are no indices.
  int64_t positions = indicesType.getRank() - (tuples ? 1 : 0);
  Value count;
  for (int64_t c = 0; c < shape.tupleSize; ++c) {
    int64_t d = shape.indexedDim(c);
    if (dataType.getDimSize(d) > 0)
      continue;
    if (!count) {
      count = constIndex(1);
      for (int64_t p = 0; p < positions; ++p)
        count = arith::MulIOp::create(b, loc, count, dim(indices, p));
    }
    Value noIndices = cmp(arith::CmpIPredicate::eq, count, constIndex(0));
    Value nonEmpty = cmp(arith::CmpIPredicate::ne, dim(data, d), constIndex(0));
    check(arith::OrIOp::create(b, loc, noIndices, nonEmpty),
          "an index selects along data dimension " + Twine(d) +
              ", which is empty (size 0)");
  }
}

Value LinalgGatherEmitter::checkIndices(ArrayRef<Value> sizes) {
  // No index, nothing to check.
  return unlessEmpty(
      indices, [&] { return indices; }, [&] { return checkAll(sizes); });
}

Value LinalgGatherEmitter::unlessEmpty(Value shaped,
                                       function_ref<Value()> empty,
                                       function_ref<Value()> full) {
  auto type = cast<RankedTensorType>(shaped.getType());
  Value someEmpty;
  for (int64_t d = 1; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 0)
      return empty();
    if (!type.isDynamicDim(d))
      continue;
    Value zero = cmp(arith::CmpIPredicate::eq,
                     tensor::DimOp::create(b, loc, shaped, d), constIndex(0));
    someEmpty = someEmpty
                    ? arith::OrIOp::create(b, loc, someEmpty, zero).getResult()
                    : zero;
  }
  if (!someEmpty)
    return full();
  return createIfElse(b, loc, type, someEmpty, empty, full);
}

Value LinalgGatherEmitter::checkAll(ArrayRef<Value> sizes) {
  int64_t q = indicesType.getRank();
  Value init =
      tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, indices),
                              indicesType.getElementType());
  AffineMap identity = b.getMultiDimIdentityMap(q);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{indices}, ValueRange{init},
      ArrayRef<AffineMap>{identity, identity},
      SmallVector<utils::IteratorType>(q, utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value i = toI64(args[0]);
        Value component =
            tuples ? linalg::IndexOp::create(b, loc, q - 1).getResult()
                   : Value();
        for (int64_t c = 0; c < shape.tupleSize; ++c) {
          Value ok = isIndexInRange(b, loc, normalizeIndex(b, loc, i, sizes[c]),
                                    sizes[c]);
          // Component c of each tuple is checked against its own dimension.
          if (tuples)
            ok = arith::OrIOp::create(
                b, loc, cmp(arith::CmpIPredicate::ne, component, constIndex(c)),
                ok);
          int64_t d = shape.indexedDim(c);
          int64_t s = dataType.getDimSize(d);
          std::string range =
              ShapedType::isDynamic(s)
                  ? "[-size, size - 1] for data dimension " +
                        std::to_string(d) + " of dynamic size"
                  : "[" + std::to_string(-s) + ", " + std::to_string(s - 1) +
                        "] for data dimension " + std::to_string(d) +
                        " of size " + std::to_string(s);
          check(ok, "index out of range " + range);
        }
        linalg::YieldOp::create(b, loc, args[0]);
      });
  return generic.getResult(0);
}

std::pair<Value, Value> LinalgGatherEmitter::resolve(Value i, Value s,
                                                     int64_t staticSize) {
  // check: the indices were asserted in range, and the read is kept in
  // bounds as well, so that a client that drops cf.assert (IREE strips it
  // from its dispatches) reads nothing out of bounds: clamped along a dim
  // known not to be empty, else guarded as fill guards it.
  GatherMode resolved = mode;
  if (mode == GatherMode::check)
    resolved = staticSize > 0 ? GatherMode::clamp : GatherMode::fill;
  ResolvedIndex r = resolveIndex(b, loc, resolved, i, s);
  return {arith::IndexCastOp::create(b, loc, b.getIndexType(), r.index),
          r.valid};
}

Value LinalgGatherEmitter::gatherAt(ValueRange ivs, ArrayRef<Value> sizes,
                                    Type element) {
  int64_t r = dataType.getRank(), q = indicesType.getRank();
  // The result dims that walk each operand dim (gather_elements' data dims
  // off the axis walk with their indices dim: indices are no larger).
  SmallVector<Value> dataSub(r), indexSub(q);
  shape.placePosition(ivs, dataSub, indexSub);

  Value valid;
  for (int64_t c = 0; c < shape.tupleSize; ++c) {
    if (tuples)
      indexSub[q - 1] = constIndex(c);
    Value i = toI64(tensor::ExtractOp::create(b, loc, indices, indexSub));
    auto [subscript, inRange] =
        resolve(i, sizes[c], dataType.getDimSize(shape.indexedDim(c)));
    dataSub[shape.indexedDim(c)] = subscript;
    if (inRange)
      valid = valid ? arith::AndIOp::create(b, loc, valid, inRange) : inRange;
  }
  if (!valid)
    return tensor::ExtractOp::create(b, loc, data, dataSub);
  // fill: read only when every component is in range, so that nothing is
  // read out of bounds even along an empty dimension.
  auto ifOp = scf::IfOp::create(
      b, loc, valid,
      [&](OpBuilder &nested, Location l) {
        scf::YieldOp::create(
            nested, l,
            tensor::ExtractOp::create(nested, l, data, dataSub).getResult());
      },
      [&](OpBuilder &nested, Location l) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, l, zero(element));
      });
  return ifOp.getResult(0);
}

Value LinalgGatherEmitter::emit(Type resultType) {
  Type element = dataType.getElementType();
  SmallVector<OpFoldResult> sizes = shape.getMixedSizes(b, loc, data, indices);
  // The declared result shape where it is static (checked in step 1), the
  // operands' sizes elsewhere.
  auto declared = dyn_cast<RankedTensorType>(resultType);
  SmallVector<int64_t> resultShape =
      declared ? llvm::to_vector(declared.getShape())
               : SmallVector<int64_t>(sizes.size(), ShapedType::kDynamic);
  assertShapeRules(resultShape, sizes);
  SmallVector<OpFoldResult> emptySizes;
  for (auto [size, declaredSize] : llvm::zip_equal(sizes, resultShape))
    emptySizes.push_back(ShapedType::isDynamic(declaredSize)
                             ? size
                             : OpFoldResult(b.getIndexAttr(declaredSize)));

  assertNotEmpty();
  SmallVector<Value> axisSizes;
  for (int64_t c = 0; c < shape.tupleSize; ++c)
    axisSizes.push_back(indexedSize(c));
  if (mode == GatherMode::check)
    indices = checkIndices(axisSizes);
  Value init = tensor::EmptyOp::create(b, loc, emptySizes, element);
  int64_t rank = emptySizes.size();
  auto gatherAll = [&]() -> Value {
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &nested, Location, ValueRange) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          SmallVector<Value> ivs;
          for (int64_t d = 0; d < rank; ++d)
            ivs.push_back(linalg::IndexOp::create(b, loc, d));
          linalg::YieldOp::create(b, loc, gatherAt(ivs, axisSizes, element));
        });
    return generic.getResult(0);
  };
  Value result = unlessEmpty(init, [&] { return init; }, gatherAll);
  if (result.getType() != resultType)
    result = tensor::CastOp::create(b, loc, resultType, result);
  return result;
}

struct GatherToLinalg : OpInterfaceConversionPattern<GatherOpInterface> {
  using Base::Base;

  LogicalResult
  matchAndRewrite(GatherOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = operands[0], indices = operands[1];
    if (!isa<RankedTensorType>(data.getType()) ||
        !isa<RankedTensorType>(indices.getType()))
      return rewriter.notifyMatchFailure(op, "needs ranked operands");
    FailureOr<GatherShape> shape = op.getGatherShape();
    if (failed(shape) || !shape->ranked)
      return rewriter.notifyMatchFailure(op, "op does not verify");
    LinalgGatherEmitter emitter(rewriter, op, *shape, data, indices);
    rewriter.replaceOp(op, emitter.emit(op->getResult(0).getType()));
    return success();
  }
};

struct ConvertGatherToLinalgPass
    : gather::impl::ConvertGatherToLinalgBase<ConvertGatherToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    if (failed(checkRankedOperands(
            getOperation(), getArgument(),
            "refine them with gather-shape-inference, or lower with "
            "gather-to-llvm, which dispatches on run-time ranks",
            [](Operation *) { return true; })))
      return signalPassFailure();

    ConversionTarget target(*context);
    target.addIllegalDialect<GatherDialect>();
    RewritePatternSet patterns(context);
    populateGatherToLinalgPatterns(patterns);
    if (failed(
            applyLoweringPatterns(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::gather::populateGatherToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherToLinalg>(patterns.getContext());
  populateEmbeddingBagToSCFPatterns(patterns, BagErrorReport::Asserts,
                                    BagForm::Elementwise,
                                    /*prefetchDistance=*/0);
  populateScatterToSCFPatterns(patterns, ErrorReport::Asserts);
}
