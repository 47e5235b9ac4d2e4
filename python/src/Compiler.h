//===- Compiler.h - The package's context and kernel errors -----*- C++ -*-===//
//
// The runtime library (gather/Runtime) as the package uses it: its MLIR
// context, with parsing and textual pipelines; its kernel cache, with the
// GIL released while a kernel is read or compiled; a kernel's run-time
// error, raised as a Python exception when the kernel returns; and MLIR's
// ExecutionEngine for JitModule.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PYTHON_COMPILER_H
#define GATHER_PYTHON_COMPILER_H

#include "ResultMemory.h"

#include "gather-c/Runtime.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/InitAll.h"
#include "gather/Runtime/KernelCache.h"
#include "gather/Runtime/KernelCall.h"
#include "gather/Runtime/KernelCompiler.h"
#include "gather/Runtime/KernelJit.h"
#include "gather/Runtime/KernelPolicy.h"
#include "gather/Runtime/OpenMPRuntime.h"

#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/TargetSelect.h"

#include <pybind11/pybind11.h>

#include <mutex>
#include <string>

namespace mlir::gather::python {

namespace py = pybind11;
// The package is the runtime's host: its names are the package's.
using namespace mlir::gather::runtime;

/// Raises `error` as a Python exception (with the GIL): IndexError for an
/// index, ValueError for a shape; nothing for none. `opName`, when given,
/// names the operation in the message instead of the kernel's op (a
/// function the package builds from another op). `position`, when not
/// empty, says where the bad index is (`input[1]`).
void raiseKernelError(const KernelErrorRecord &error,
                      const char *opName = nullptr,
                      const std::string &position = {});

/// A ShapeErrorFn for the dialect's shape rules (GatherShapes) that keeps
/// the message, raised as a ValueError once the rule has returned: no C++
/// exception may cross the libraries, which are built without them.
class ShapeRuleError {
public:
  LogicalResult operator()(const llvm::Twine &message) {
    text = message.str();
    return failure();
  }
  /// Throws ValueError("<prefix>: <message>").
  [[noreturn]] void raise(const std::string &prefix) const {
    throw pybind11::value_error(prefix + ": " + text);
  }

private:
  std::string text;
};

/// Compiled C interfaces take at most this many pointers (memref
/// descriptors, the result's first).
constexpr size_t kMaxPointers = 8;

/// Calls the C interface `fn` with `p` (at most kMaxPointers pointers).
inline void callWithPointers(void *fn, llvm::ArrayRef<void *> p) {
  using P = void *;
  switch (p.size()) {
  case 0:
    return reinterpret_cast<void (*)()>(fn)();
  case 1:
    return reinterpret_cast<void (*)(P)>(fn)(p[0]);
  case 2:
    return reinterpret_cast<void (*)(P, P)>(fn)(p[0], p[1]);
  case 3:
    return reinterpret_cast<void (*)(P, P, P)>(fn)(p[0], p[1], p[2]);
  case 4:
    return reinterpret_cast<void (*)(P, P, P, P)>(fn)(p[0], p[1], p[2], p[3]);
  case 5:
    return reinterpret_cast<void (*)(P, P, P, P, P)>(fn)(p[0], p[1], p[2], p[3],
                                                         p[4]);
  case 6:
    return reinterpret_cast<void (*)(P, P, P, P, P, P)>(fn)(p[0], p[1], p[2],
                                                            p[3], p[4], p[5]);
  case 7:
    return reinterpret_cast<void (*)(P, P, P, P, P, P, P)>(fn)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
  case 8:
    return reinterpret_cast<void (*)(P, P, P, P, P, P, P, P)>(fn)(
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
  }
  throw pybind11::value_error("functions take at most 7 arrays");
}

/// The gather kernel of `key` (KernelCache::lookup): prepared with the GIL
/// held, read or compiled without it; ValueError when it cannot be made.
KernelFn lookupKernel(const KernelKey &key);

/// KernelCache::load likewise; an exception `build` throws is raised as it
/// is.
KernelCache::Entry
loadKernel(const std::string &description, bool parallel,
           llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build);

/// The runtime's KernelCompiler, with errors as ValueError.
class Compiler {
public:
  static Compiler &get() {
    static Compiler *compiler = new Compiler(); // Lives until exit.
    return *compiler;
  }
  /// Whether the runtime has made its MLIRContext: kernels found in the
  /// caches never do.
  static bool created() { return KernelCompiler::created(); }

  MLIRContext &context() { return kernels.context(); }
  std::mutex &mutex() { return kernels.mutex(); }

  /// Parses and verifies `source`; throws ValueError with the diagnostics.
  OwningOpRef<ModuleOp> parse(const std::string &source) {
    DiagnosticCollector diags(context());
    // Locations name the buffer, so messages read `<source>:3:5: error:`.
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
        source, ParserConfig(&context()), "<source>");
    if (!module)
      throw py::value_error(diags.take("cannot parse the module"));
    return module;
  }

  /// Runs a textual pass pipeline on `module`; throws ValueError. Both of
  /// mlir-opt's forms are accepted: the passes alone (`canonicalize,cse`)
  /// and the pipeline anchored on the module
  /// (`builtin.module(canonicalize,cse)`, --pass-pipeline's form), which
  /// would otherwise be read as a nest on the modules inside this one.
  void runPipeline(ModuleOp module, const std::string &pipeline) {
    PassManager pm(&context(), ModuleOp::getOperationName());
    std::string parseErrors;
    llvm::raw_string_ostream os(parseErrors);
    if (failed(parsePassPipeline(withoutModuleAnchor(pipeline), pm, os)))
      throw py::value_error("invalid pipeline '" + pipeline +
                            "': " + parseErrors);
    run(pm, module);
  }

  /// The passes of a pipeline that is anchored on the module as a whole:
  /// `builtin.module(...)` whose parenthesis closes at the end; any other
  /// pipeline as it is.
  static llvm::StringRef withoutModuleAnchor(llvm::StringRef pipeline) {
    llvm::StringRef text = pipeline.trim();
    size_t open = text.find('(');
    if (open == llvm::StringRef::npos ||
        text.take_front(open).rtrim() != ModuleOp::getOperationName())
      return pipeline;
    int depth = 0;
    for (size_t i = open; i < text.size(); ++i) {
      depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
      if (depth == 0)
        return i + 1 == text.size() ? text.slice(open + 1, i) : pipeline;
    }
    return pipeline; // Unbalanced: the parser names the error.
  }

  /// Runs `pm` on `module` (KernelCompiler::run); throws ValueError with
  /// the diagnostics.
  void run(PassManager &pm, ModuleOp module) {
    if (llvm::Error error = kernels.run(pm, module))
      throw py::value_error(llvm::toString(std::move(error)));
  }

  /// JIT-compiles an LLVM-dialect module; the hooks resolve to the
  /// recorders above. Modules that use OpenMP (lowered with parallel=true)
  /// get libomp.
  std::unique_ptr<ExecutionEngine> jit(ModuleOp module, unsigned optLevel) {
    DiagnosticCollector diags(context());
    // LLVM's optimizer sees the host, as the kernels' does (KernelJit.cpp):
    // without a target machine its cost models vectorize no loop.
    static std::unique_ptr<llvm::TargetMachine> host = [] {
      auto machine =
          HostTarget::get().getMachineBuilder().createTargetMachine();
      if (!machine) {
        llvm::consumeError(machine.takeError());
        return std::unique_ptr<llvm::TargetMachine>();
      }
      return std::move(*machine);
    }();
    auto optimize = [optLevel](llvm::Module *m) {
      optimizeForHost(*m, host.get(), optLevel);
      return llvm::Error::success();
    };
    ExecutionEngineOptions options;
    options.transformer = optimize;
    options.jitCodeGenOptLevel = optLevel >= 3
                                     ? llvm::CodeGenOptLevel::Aggressive
                                     : llvm::CodeGenOptLevel::Default;
    SmallVector<StringRef> libs;
    if (usesOpenMP(module)) {
      if (llvm::Error error = loadOpenMP())
        throw py::value_error(llvm::toString(std::move(error)));
      libs.push_back(getOpenMPLibrary());
    }
    options.sharedLibPaths = libs;
    takeOverErrorHooks(module);
    auto engine = ExecutionEngine::create(module, options);
    if (!engine)
      throw py::value_error("cannot JIT-compile the module: " +
                            llvm::toString(engine.takeError()) + "\n" +
                            diags.take(""));
    (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap symbols;
      symbols[interner(kIndexErrorHook)] = {
          llvm::orc::ExecutorAddr::fromPtr(&recordIndexError),
          llvm::JITSymbolFlags::Exported};
      symbols[interner(kShapeErrorHook)] = {
          llvm::orc::ExecutorAddr::fromPtr(&recordShapeError),
          llvm::JITSymbolFlags::Exported};
      // The kernels' allocations: a large result reuses the pages of the
      // last one freed (ResultMemory.h) instead of faulting in fresh ones
      // on every call; the arrays that adopt results free through it too.
      symbols[interner("malloc")] = {
          llvm::orc::ExecutorAddr::fromPtr(&python::resultMemoryAllocate),
          llvm::JITSymbolFlags::Exported};
      symbols[interner("aligned_alloc")] = {
          llvm::orc::ExecutorAddr::fromPtr(
              &python::resultMemoryAlignedAllocate),
          llvm::JITSymbolFlags::Exported};
      symbols[interner("free")] = {
          llvm::orc::ExecutorAddr::fromPtr(&python::resultMemoryRelease),
          llvm::JITSymbolFlags::Exported};
      return symbols;
    });
    (*engine)->initialize();
    return std::move(*engine);
  }

private:
  Compiler() : kernels(KernelCompiler::get()) {}

  KernelCompiler &kernels;
};

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_COMPILER_H
