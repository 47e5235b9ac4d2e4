//===- KernelCompiler.cpp - The runtime's MLIR context --------------------===//

#include "gather/Runtime/KernelCompiler.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/InitAll.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::runtime;

void mlir::gather::runtime::appendDiagnostic(std::string &text,
                                             const Diagnostic &d) {
  if (!text.empty())
    text += "\n";
  llvm::raw_string_ostream os(text);
  Location loc = d.getLocation();
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  else if (!isa<UnknownLoc>(loc))
    os << loc << ": ";
  // In DiagnosticSeverity's order.
  static constexpr const char *kSeverities[] = {"note", "warning", "error",
                                                "remark"};
  static_assert(static_cast<int>(DiagnosticSeverity::Remark) == 3);
  os << kSeverities[static_cast<int>(d.getSeverity())] << ": ";
  os << d.str();
  for (const Diagnostic &note : d.getNotes())
    appendDiagnostic(text, note);
}

static bool compilerMade = false;

KernelCompiler &KernelCompiler::get() {
  static KernelCompiler *compiler = new KernelCompiler(); // Lives until exit.
  return *compiler;
}

bool KernelCompiler::created() { return compilerMade; }

KernelCompiler::KernelCompiler() {
  compilerMade = true;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();
  registerAllGatherPasses();
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllGatherDialects(registry);
  ctx.appendDialectRegistry(registry);
  // Other dialects load as a parsed module or a pass needs them (a
  // kernel's pipeline loads about a third, and loading all is slow);
  // these are the ones the kernels' builders create ops of.
  ctx.loadDialect<func::FuncDialect, bufferization::BufferizationDialect,
                  GatherDialect>();
  ctx.disableMultithreading();
}

llvm::Error KernelCompiler::run(PassManager &pm, ModuleOp module) {
  DiagnosticCollector diags(ctx);
  pm.enableVerifier(false);
  if (failed(pm.run(module)))
    return llvm::createStringError(diags.take("the pipeline failed"));
  if (failed(verify(module)))
    return llvm::createStringError(
        diags.take("the pipeline produced invalid IR"));
  return llvm::Error::success();
}

bool mlir::gather::runtime::usesOpenMP(ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (op->getName().getDialectNamespace() == "omp" ||
        (fn && fn.getName().starts_with("__kmpc_")))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

bool mlir::gather::runtime::mayReportOnOpenMPThreads(ModuleOp module) {
  auto reports = [&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee || *callee == kIndexErrorHook || *callee == kShapeErrorHook)
      return true;
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(*callee);
    return !fn || !fn.isExternal();
  };
  WalkResult found = module.walk([&](Operation *op) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (fn && fn.getName() == "__kmpc_fork_call")
      return WalkResult::interrupt();
    if (!isa<omp::ParallelOp>(op))
      return WalkResult::advance();
    WalkResult call = op->walk([&](LLVM::CallOp c) {
      return reports(c) ? WalkResult::interrupt() : WalkResult::advance();
    });
    return call.wasInterrupted() ? WalkResult::interrupt() : WalkResult::skip();
  });
  return found.wasInterrupted();
}

void mlir::gather::runtime::takeOverErrorHooks(ModuleOp module) {
  for (StringRef name : {kIndexErrorHook, kShapeErrorHook}) {
    auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!hook || hook.isExternal())
      continue;
    hook.getBody().dropAllReferences();
    hook.getBody().getBlocks().clear();
    hook.setLinkage(LLVM::Linkage::External);
  }
}
