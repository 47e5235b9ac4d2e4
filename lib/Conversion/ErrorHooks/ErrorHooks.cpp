//===- ErrorHooks.cpp - Declarations of the run-time error hooks ---------===//

#include "gather/Conversion/ErrorHooks/ErrorHooks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::gather;

void mlir::gather::declareErrorHook(OpBuilder &b, Operation *op,
                                    StringRef name) {
  Operation *table = SymbolTable::getNearestSymbolTable(op);
  if (SymbolTable::lookupSymbolIn(table, name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&table->getRegion(0).front());
  unsigned arity = name == kShapeErrorHook ? 5 : 4;
  auto hook = func::FuncOp::create(
      b, op->getLoc(), name,
      b.getFunctionType(SmallVector<Type>(arity, b.getI64Type()), {}));
  hook.setPrivate();
}
