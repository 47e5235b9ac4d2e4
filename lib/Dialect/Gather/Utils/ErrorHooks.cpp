//===- ErrorHooks.cpp - Calls of the run-time error hooks -----------------===//

#include "gather/Dialect/Gather/Utils/ErrorHooks.h"

#include "gather-c/Runtime.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gather;

int64_t mlir::gather::runtimeOpCode(Operation *op) {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([](GatherElementsOp) { return GATHER_MLIR_OP_GATHER_ELEMENTS; })
      .Case([](GatherNDOp) { return GATHER_MLIR_OP_GATHER_ND; })
      .Case([](EmbeddingBagOp) { return GATHER_MLIR_OP_EMBEDDING_BAG; })
      .Case([](ScatterOp) { return GATHER_MLIR_OP_SCATTER; })
      .Case([](ScatterElementsOp) { return GATHER_MLIR_OP_SCATTER_ELEMENTS; })
      .Case([](ScatterNDOp) { return GATHER_MLIR_OP_SCATTER_ND; })
      .Default([](Operation *) { return GATHER_MLIR_OP_GATHER; });
}

/// Declares the hook `name` as a private function in the symbol table that
/// holds `op`, unless it is there.
static void declareErrorHook(OpBuilder &b, Operation *op, StringRef name,
                             unsigned arity) {
  Operation *table = SymbolTable::getNearestSymbolTable(op);
  if (SymbolTable::lookupSymbolIn(table, name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&table->getRegion(0).front());
  auto hook = func::FuncOp::create(
      b, op->getLoc(), name,
      b.getFunctionType(SmallVector<Type>(arity, b.getI64Type()), {}));
  hook.setPrivate();
}

static void callHook(OpBuilder &b, Location loc, Operation *op, StringRef name,
                     ArrayRef<OpFoldResult> args) {
  declareErrorHook(b, op, name, args.size() + 1);
  Type i64 = b.getI64Type();
  SmallVector<Value> values = {
      arith::ConstantIntOp::create(b, loc, i64, runtimeOpCode(op))};
  for (OpFoldResult arg : args) {
    if (auto attr = dyn_cast<Attribute>(arg)) {
      values.push_back(arith::ConstantIntOp::create(
          b, loc, i64, cast<IntegerAttr>(attr).getInt()));
      continue;
    }
    Value value = cast<Value>(arg);
    assert((value.getType().isIndex() || value.getType() == i64) &&
           "a hook argument is an i64 or an index");
    if (value.getType().isIndex())
      value = arith::IndexCastOp::create(b, loc, i64, value);
    values.push_back(value);
  }
  func::CallOp::create(b, loc, name, TypeRange{}, values);
}

void mlir::gather::emitIndexError(OpBuilder &b, Location loc, Operation *op,
                                  OpFoldResult dataDim, OpFoldResult index,
                                  OpFoldResult dimSize) {
  callHook(b, loc, op, kIndexErrorHook, {dataDim, index, dimSize});
}

void mlir::gather::emitShapeError(OpBuilder &b, Location loc, Operation *op,
                                  OpFoldResult rule, OpFoldResult dim,
                                  OpFoldResult a, OpFoldResult other) {
  callHook(b, loc, op, kShapeErrorHook, {rule, dim, a, other});
}
