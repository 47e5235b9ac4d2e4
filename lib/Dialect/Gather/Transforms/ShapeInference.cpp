//===- ShapeInference.cpp - The gather-shape-inference pass -----*- C++ -*-===//
//
// Toy chapter 4's worklist, on upstream's InferTypeOpInterface instead of a
// dialect-specific interface: SSA order lets one forward walk refine a chain
// of any length.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/Transforms/Passes.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERSHAPEINFERENCE
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// The most static tensor type that both `a` and `b` describe; null if they
/// are not tensors of one element type or contradict each other.
static Type meetTensorTypes(Type a, Type b) {
  auto ta = dyn_cast<TensorType>(a), tb = dyn_cast<TensorType>(b);
  if (!ta || !tb || ta.getElementType() != tb.getElementType())
    return {};
  if (!ta.hasRank())
    return tb;
  if (!tb.hasRank())
    return ta;
  if (ta.getRank() != tb.getRank())
    return {};
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip_equal(ta.getShape(), tb.getShape())) {
    if (ShapedType::isDynamic(x))
      shape.push_back(y);
    else if (ShapedType::isDynamic(y) || x == y)
      shape.push_back(x);
    else
      return {};
  }
  return RankedTensorType::get(shape, ta.getElementType(),
                               cast<RankedTensorType>(ta).getEncoding());
}

namespace {
struct GatherShapeInferencePass
    : gather::impl::GatherShapeInferenceBase<GatherShapeInferencePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Signatures feed callers, whose bodies may then refine further.
    for (int round = 0; round < 8; ++round) {
      for (auto func : module.getOps<func::FuncOp>())
        func.walk<WalkOrder::PreOrder>([&](Operation *op) { refineOp(op); });
      if (!refineFunctionSignatures || !refineSignatures(module))
        break;
    }
  }

  /// Folds erasing casts into gather ops, then refines `op`'s results.
  void refineOp(Operation *op) {
    if (isa<gather::GatherOpInterface>(op))
      foldErasingCasts(op);
    for (auto [result, refined] :
         llvm::zip_equal(op->getResults(), inferRefinedTypes(op)))
      if (refined != result.getType())
        refineValue(result, refined);
  }

  /// A gather operand that a tensor.cast only made less static (ranked or
  /// unranked) is read from the cast's source instead.
  void foldErasingCasts(Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      auto cast = operand.get().getDefiningOp<tensor::CastOp>();
      if (!cast)
        continue;
      Type source = cast.getSource().getType();
      if (meetTensorTypes(source, cast.getType()) != source)
        continue;
      operand.set(cast.getSource());
      if (!acceptsRefinedType(op))
        operand.set(cast);
    }
  }

  /// Gives `value` the type `refined`; users that do not verify with it keep
  /// the old type through a tensor.cast.
  void refineValue(Value value, Type refined) {
    Type old = value.getType();
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : value.getUses())
      uses.push_back(&use);
    value.setType(refined);

    Value cast;
    for (OpOperand *use : uses) {
      if (acceptsRefinedType(use->getOwner()))
        continue;
      if (!cast) {
        OpBuilder b(value.getContext());
        b.setInsertionPointAfterValue(value);
        cast = tensor::CastOp::create(b, value.getLoc(), old, value);
      }
      use->set(cast);
    }
  }

  /// Whether `user` still verifies with the refined operands it now has.
  bool acceptsRefinedType(Operation *user) {
    // Their checks live in the function type, the callee or the parent op,
    // not in verify(user). (func.return is a region terminator too.)
    if (isa<func::ReturnOp>(user))
      return refineFunctionSignatures;
    if (isa<CallOpInterface, RegionBranchTerminatorOpInterface>(user))
      return false;
    // Diagnostics of this tentative check are not the user's business.
    ScopedDiagnosticHandler silence(user->getContext(),
                                    [](Diagnostic &) { return success(); });
    // A user that infers its results is checked with them refined too (an
    // elementwise op needs operands and results alike); the walk refines
    // them for real when it reaches the user.
    SmallVector<Type> saved(user->getResultTypes());
    SmallVector<Type> refined = inferRefinedTypes(user);
    for (auto [result, type] : llvm::zip_equal(user->getResults(), refined))
      result.setType(type);
    bool ok = succeeded(verify(user, /*verifyRecursively=*/false));
    for (auto [result, type] : llvm::zip_equal(user->getResults(), saved))
      result.setType(type);
    return ok;
  }

  /// `op`'s result types, each met with what InferTypeOpInterface infers
  /// from the current operands where that is more static.
  static SmallVector<Type> inferRefinedTypes(Operation *op) {
    SmallVector<Type> types(op->getResultTypes());
    auto iface = dyn_cast<InferTypeOpInterface>(op);
    SmallVector<Type> inferred;
    if (!iface ||
        failed(iface.inferReturnTypes(
            op->getContext(), /*location=*/std::nullopt, op->getOperands(),
            op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
            op->getRegions(), inferred)) ||
        inferred.size() != types.size())
      return types;
    for (auto [type, candidate] : llvm::zip_equal(types, inferred))
      if (Type refined = meetTensorTypes(type, candidate))
        type = refined;
    return types;
  }

  /// Refines function result types from what their returns carry, and the
  /// call sites with them. Returns whether any signature changed.
  bool refineSignatures(ModuleOp module) {
    bool changed = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FunctionType type = func.getFunctionType();
      SmallVector<Type> results(type.getResults());
      // A result is refined when every return carries the same, more static
      // type; otherwise returns cast back to the declared type.
      SmallVector<Type> returned(results.size());
      func.walk([&](func::ReturnOp ret) {
        for (auto [i, v] : llvm::enumerate(ret.getOperands()))
          returned[i] = !returned[i] || returned[i] == v.getType() ? v.getType()
                                                                   : results[i];
      });
      bool refinedAny = false;
      for (auto [i, t] : llvm::enumerate(returned))
        if (t && t != results[i] && meetTensorTypes(t, results[i]) == t) {
          results[i] = t;
          refinedAny = true;
        }
      castReturnsTo(func, results);
      if (!refinedAny)
        continue;
      func.setType(
          FunctionType::get(func.getContext(), type.getInputs(), results));
      changed = true;
      if (auto uses = SymbolTable::getSymbolUses(func, module))
        for (SymbolTable::SymbolUse use : *uses)
          if (auto call = dyn_cast<func::CallOp>(use.getUser()))
            for (auto [r, t] : llvm::zip_equal(call.getResults(), results))
              if (r.getType() != t)
                refineValue(r, t);
    }
    return changed;
  }

  /// Casts return operands whose type differs from the declared `results`.
  static void castReturnsTo(func::FuncOp func, ArrayRef<Type> results) {
    func.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (auto [operand, type] :
           llvm::zip_equal(ret->getOpOperands(), results))
        if (operand.get().getType() != type)
          operand.set(
              tensor::CastOp::create(b, ret.getLoc(), type, operand.get()));
    });
  }
};
} // namespace
