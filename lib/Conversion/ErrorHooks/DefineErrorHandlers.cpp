//===- DefineErrorHandlers.cpp - Default definitions of the hooks ---------===//
//
// gather-define-error-handlers: a lowered module that calls a run-time error
// hook gets a weak definition of it, in the LLVM dialect, that prints the
// message of include/gather-c/Runtime.h (the same format strings hosts use)
// and exits, so lowered code depends on libc alone.
//
//===----------------------------------------------------------------------===//

#include "gather-c/Runtime.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <array>
#include <functional>

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERDEFINEERRORHANDLERS
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// Emits the body of one weak hook. All helpers emit at the builder's
/// insertion point.
class HandlerBuilder {
public:
  HandlerBuilder(OpBuilder &b, ModuleOp module, Location loc)
      : b(b), module(module), loc(loc), i64(b.getI64Type()),
        ptr(LLVM::LLVMPointerType::get(b.getContext())) {}

  /// gather_mlir_index_error(op, dataDim, index, dimSize).
  LogicalResult defineIndexHook(LLVM::LLVMFuncOp hook);
  /// gather_mlir_shape_error(op, rule, dim, a, b).
  LogicalResult defineShapeHook(LLVM::LLVMFuncOp hook);

private:
  Value constI64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  }
  Value equals(Value a, int64_t v) {
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, a,
                                constI64(v));
  }
  /// The address of the NUL-terminated private string constant `name`
  /// (created on first use).
  Value string(StringRef name, StringRef text) {
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      std::string value = text.str();
      value.push_back('\0');
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
      global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                      LLVM::Linkage::Private, name,
                                      b.getStringAttr(value));
    }
    return LLVM::AddressOfOp::create(b, loc, global);
  }
  /// The op's name for an op code (GATHER_MLIR_OP_*).
  Value opName(Value op);
  /// dprintf(2, "error: " format "\n", args...).
  LogicalResult print(StringRef name, StringRef format, ValueRange args);
  /// fflush(NULL); exit(1).
  LogicalResult exitWithError();
  /// Starts a weak definition of the external hook `hook`; returns its entry
  /// (null on failure), with the builder where the report starts.
  Block *begin(LLVM::LLVMFuncOp hook) {
    hook.setLinkage(LLVM::Linkage::Weak);
    // A host's definition must be able to take its place.
    SymbolTable::setSymbolVisibility(hook, SymbolTable::Visibility::Public);
    Block *entry = hook.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    return succeeded(reportOnce()) ? entry : nullptr;
  }
  /// Threads of a threaded loop may fail at once: the first caller reports
  /// and exits; any later one waits in pause() for that exit (two threads in
  /// exit() deadlock, and their messages interleave).
  LogicalResult reportOnce();
  /// Runs the printer of the first case whose value `selector` equals (or
  /// `otherwise`), then exits.
  using Printer = function_ref<LogicalResult()>;
  LogicalResult switchAndExit(Value selector,
                              ArrayRef<std::pair<int64_t, Printer>> cases,
                              Printer otherwise);

  OpBuilder &b;
  ModuleOp module;
  Location loc;
  Type i64, ptr;
};

} // namespace

Value HandlerBuilder::opName(Value op) {
  // A select chain over the op codes; an unknown code names the last op.
  std::pair<int64_t, StringRef> ops[] = {
      {GATHER_MLIR_OP_GATHER, "gather_mlir_name_gather"},
      {GATHER_MLIR_OP_GATHER_ELEMENTS, "gather_mlir_name_gather_elements"},
      {GATHER_MLIR_OP_GATHER_ND, "gather_mlir_name_gather_nd"},
      {GATHER_MLIR_OP_EMBEDDING_BAG, "gather_mlir_name_embedding_bag"},
      {GATHER_MLIR_OP_SCATTER, "gather_mlir_name_scatter"},
      {GATHER_MLIR_OP_SCATTER_ELEMENTS, "gather_mlir_name_scatter_elements"},
      {GATHER_MLIR_OP_SCATTER_ND, "gather_mlir_name_scatter_nd"}};
  Value name;
  for (auto [code, symbol] : llvm::reverse(ops)) {
    Value here = string(symbol, gatherMlirOpName(code));
    name = name ? LLVM::SelectOp::create(b, loc, equals(op, code), here, name)
                      .getResult()
                : here;
  }
  return name;
}

LogicalResult HandlerBuilder::reportOnce() {
  auto i32 = b.getI32Type();
  FailureOr<LLVM::LLVMFuncOp> pause =
      LLVM::lookupOrCreateFn(b, module, "pause", {}, i32);
  if (failed(pause))
    return failure();
  StringRef name = "gather_mlir_error_reported";
  auto flag = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!flag) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    flag = LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/false,
                                  LLVM::Linkage::Internal, name,
                                  b.getI32IntegerAttr(0));
  }
  Value first = LLVM::AtomicRMWOp::create(
      b, loc, LLVM::AtomicBinOp::xchg, LLVM::AddressOfOp::create(b, loc, flag),
      LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1)),
      LLVM::AtomicOrdering::seq_cst);
  Region *region = b.getInsertionBlock()->getParent();
  Block *report = &region->emplaceBlock(), *wait = &region->emplaceBlock();
  LLVM::CondBrOp::create(
      b, loc,
      LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::eq, first,
          LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0))),
      report, wait);
  b.setInsertionPointToStart(wait);
  LLVM::CallOp::create(b, loc, *pause, ValueRange{});
  LLVM::BrOp::create(b, loc, ValueRange{}, wait);
  b.setInsertionPointToStart(report);
  return success();
}

LogicalResult HandlerBuilder::print(StringRef name, StringRef format,
                                    ValueRange args) {
  auto i32 = b.getI32Type();
  FailureOr<LLVM::LLVMFuncOp> dprintf = LLVM::lookupOrCreateFn(
      b, module, "dprintf", {i32, ptr}, i32, /*isVarArg=*/true);
  if (failed(dprintf))
    return failure();
  SmallVector<Value> operands{
      LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(2)),
      string(name, ("error: " + format + "\n").str())};
  operands.append(args.begin(), args.end());
  LLVM::CallOp::create(b, loc, *dprintf, operands);
  return success();
}

LogicalResult HandlerBuilder::exitWithError() {
  auto i32 = b.getI32Type();
  FailureOr<LLVM::LLVMFuncOp> fflush =
      LLVM::lookupOrCreateFn(b, module, "fflush", {ptr}, i32);
  FailureOr<LLVM::LLVMFuncOp> exit = LLVM::lookupOrCreateFn(
      b, module, "exit", {i32}, LLVM::LLVMVoidType::get(b.getContext()));
  if (failed(fflush) || failed(exit))
    return failure();
  LLVM::CallOp::create(b, loc, *fflush,
                       ValueRange{LLVM::ZeroOp::create(b, loc, ptr)});
  LLVM::CallOp::create(b, loc, *exit,
                       ValueRange{LLVM::ConstantOp::create(
                           b, loc, i32, b.getI32IntegerAttr(1))});
  LLVM::UnreachableOp::create(b, loc);
  return success();
}

LogicalResult
HandlerBuilder::switchAndExit(Value selector,
                              ArrayRef<std::pair<int64_t, Printer>> cases,
                              Printer otherwise) {
  Region *region = b.getInsertionBlock()->getParent();
  for (auto [value, printer] : cases) {
    Block *match = &region->emplaceBlock();
    Block *next = &region->emplaceBlock();
    LLVM::CondBrOp::create(b, loc, equals(selector, value), match, next);
    b.setInsertionPointToStart(match);
    if (failed(printer()) || failed(exitWithError()))
      return failure();
    b.setInsertionPointToStart(next);
  }
  if (failed(otherwise()))
    return failure();
  return exitWithError();
}

LogicalResult HandlerBuilder::defineIndexHook(LLVM::LLVMFuncOp hook) {
  Block *entry = begin(hook);
  if (!entry)
    return failure();
  Value op = entry->getArgument(0), dim = entry->getArgument(1),
        index = entry->getArgument(2), size = entry->getArgument(3);
  Value name = opName(op);
  auto emptyDim = [&] {
    return print("gather_mlir_empty_dim_error",
                 GATHER_MLIR_EMPTY_DIM_ERROR_FORMAT, {name, index, dim});
  };
  return switchAndExit(size, {{0, emptyDim}}, [&] {
    Value lowest = LLVM::SubOp::create(b, loc, constI64(0), size);
    Value highest = LLVM::SubOp::create(b, loc, size, constI64(1));
    return print("gather_mlir_index_error_format",
                 GATHER_MLIR_INDEX_ERROR_FORMAT,
                 {name, index, lowest, highest, dim, size});
  });
}

LogicalResult HandlerBuilder::defineShapeHook(LLVM::LLVMFuncOp hook) {
  Block *entry = begin(hook);
  if (!entry)
    return failure();
  Value op = entry->getArgument(0), rule = entry->getArgument(1),
        dim = entry->getArgument(2), a = entry->getArgument(3),
        b = entry->getArgument(4);
  Value name = opName(op);
  // The values a message may print, in gatherMlirShapeValueSlot's order.
  std::array<Value, 4> slots{
      dim, a, b, LLVM::SubOp::create(this->b, loc, dim, constI64(1))};
  // Each rule prints the values its entry in Runtime.h's table names.
  auto printer = [&](int64_t code) {
    return [this, code, name, slots] {
      const GatherMlirShapeMessage *message = gatherMlirShapeMessage(code);
      SmallVector<Value> args{name};
      for (char which : StringRef(message->values))
        args.push_back(slots[gatherMlirShapeValueSlot(which)]);
      return print(("gather_mlir_shape_error_" + Twine(code)).str(),
                   message->format, args);
    };
  };
  SmallVector<std::function<LogicalResult()>> printers;
  for (int64_t code = 0; code < GATHER_MLIR_RULE_COUNT; ++code)
    printers.push_back(printer(code));
  SmallVector<std::pair<int64_t, Printer>> cases;
  for (int64_t code = 1; code < GATHER_MLIR_RULE_COUNT; ++code)
    cases.push_back({code, printers[code]});
  // An unknown rule prints the batch dimension's message, as the formatter.
  static_assert(GATHER_MLIR_RULE_BATCH_DIM == 0, "the default is rule 0");
  return switchAndExit(rule, cases, printers[GATHER_MLIR_RULE_BATCH_DIM]);
}

namespace {
struct GatherDefineErrorHandlersPass
    : gather::impl::GatherDefineErrorHandlersBase<
          GatherDefineErrorHandlersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(module.getContext());
    using Define = LogicalResult (HandlerBuilder::*)(LLVM::LLVMFuncOp);
    std::tuple<StringRef, unsigned, Define> hooks[] = {
        {kIndexErrorHook, 4, &HandlerBuilder::defineIndexHook},
        {kShapeErrorHook, 5, &HandlerBuilder::defineShapeHook}};
    for (auto [name, arity, define] : hooks) {
      auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!hook || !hook.isExternal())
        continue; // Not called, or defined already.
      auto hookType =
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b.getContext()),
                                      SmallVector<Type>(arity, b.getI64Type()));
      if (hook.getFunctionType() != hookType) {
        hook.emitOpError("cannot define the error hook '")
            << name << "': expected type " << hookType;
        return signalPassFailure();
      }
      HandlerBuilder builder(b, module, hook.getLoc());
      if (failed((builder.*define)(hook))) {
        hook.emitOpError("cannot define the error hook '") << name << "'";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
