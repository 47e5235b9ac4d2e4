//===- Compiler.h - The package's MLIR context and kernel errors -*- C++ -*-===//
//
// One MLIRContext with every dialect, pass and translation the package needs,
// behind one lock; diagnostics collected as mlir-opt prints them; and the
// record of a kernel's run-time error, raised as a Python exception when the
// kernel returns.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PYTHON_COMPILER_H
#define GATHER_PYTHON_COMPILER_H

#include "KernelJit.h"
#include "OpenMPRuntime.h"
#include "ResultMemory.h"

#include "gather-c/Runtime.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/InitAll.h"

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

/// Kernels that cannot run report through the hooks (which the JIT
/// resolves to the functions below), and the error is raised when the call
/// returns: IndexError for an index, ValueError for a shape.
struct KernelErrorRecord {
  enum Kind { None, Index, Shape } kind = None;
  int64_t op = 0, rule = 0, dim = 0, a = 0, b = 0;
};

/// The hooks as the JIT resolves them: they record the first error of the
/// kernel call that runs on the calling thread, or, on a thread that a
/// threaded call's OpenMP team started, of that call (KernelCall).
extern "C" void recordIndexError(int64_t op, int64_t dim, int64_t index,
                                 int64_t size);

extern "C" void recordShapeError(int64_t op, int64_t rule, int64_t dim,
                                 int64_t a, int64_t b);

/// One call of a kernel: a kernel that may run on libomp's threads
/// (`openMP`) starts with libomp's workers kept off the calling thread's CPU
/// (keepOpenMPWorkersOffCaller), and the hooks on the calling thread record
/// into it. A `threaded` call (a kernel that may report on the threads it
/// starts: mayReportOnOpenMPThreads) also takes the errors of threads that
/// are no call's own, which cannot tell whose they are: threaded calls run
/// one at a time (each uses every core; create them without the GIL, which
/// a waiting call would otherwise hold), so they are this call's. A process
/// forked while one ran starts with the registry unlocked.
class KernelCall {
public:
  KernelCall(bool threaded, bool openMP);
  ~KernelCall();
  KernelCall(const KernelCall &) = delete;
  KernelCall &operator=(const KernelCall &) = delete;

  /// The error the kernel reported (kind None when it reported none).
  KernelErrorRecord take();

private:
  KernelErrorRecord record;
  std::unique_lock<std::mutex> oneAtATime;
};

/// Raises `error` as a Python exception (with the GIL): IndexError for an
/// index, ValueError for a shape; nothing for none. `opName`, when given,
/// names the operation in the message instead of the kernel's op (a
/// function the package builds from another op). `position`, when not
/// empty, says where the bad index is (`input[1]`).
void raiseKernelError(const KernelErrorRecord &error,
                      const char *opName = nullptr,
                      const std::string &position = {});

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
    return reinterpret_cast<void (*)(P, P, P, P, P)>(fn)(p[0], p[1], p[2],
                                                         p[3], p[4]);
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

/// Turns the weak default definitions of the error hooks (which print and
/// exit) back into declarations, so the JIT resolves them to the recorders
/// above whatever pipeline lowered the module.
inline void takeOverErrorHooks(ModuleOp module) {
  for (StringRef name : {kIndexErrorHook, kShapeErrorHook}) {
    auto hook = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!hook || hook.isExternal())
      continue;
    hook.getBody().dropAllReferences();
    hook.getBody().getBlocks().clear();
    hook.setLinkage(LLVM::Linkage::External);
  }
}

/// Appends `d` and its notes as mlir-opt prints them:
/// `<source>:3:5: error: message` (a location without a file position is
/// printed as `loc(...)`).
inline void appendDiagnostic(std::string &text, const Diagnostic &d) {
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

/// Collects the diagnostics emitted while it lives.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &d) {
          appendDiagnostic(text, d);
          return success();
        }) {}
  std::string take(const char *fallback) {
    return text.empty() ? fallback : std::move(text);
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

/// Whether `module` needs libomp: OpenMP dialect ops (which translate to
/// `__kmpc_*` calls) or declarations of the runtime's functions.
inline bool usesOpenMP(ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    auto fn = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (op->getName().getDialectNamespace() == "omp" ||
        (fn && fn.getName().starts_with("__kmpc_")))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Whether a kernel of `module` may report an error on a thread that OpenMP
/// starts: a call inside an `omp.parallel` region to an error hook, to a
/// function the module defines (which may call one) or through a pointer;
/// or a module translated already (`__kmpc_fork_call`), which cannot be
/// read. Calls to other external functions (malloc, free) cannot report.
inline bool mayReportOnOpenMPThreads(ModuleOp module) {
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
    return call.wasInterrupted() ? WalkResult::interrupt()
                                 : WalkResult::skip();
  });
  return found.wasInterrupted();
}

class Compiler {
public:
  static Compiler &get() {
    static Compiler *compiler = new Compiler(); // Lives until exit.
    return *compiler;
  }
  /// Whether get() has made the compiler (its MLIRContext, every dialect):
  /// kernels found in the caches never do.
  static bool &created() {
    static bool made = false;
    return made;
  }

  MLIRContext &context() { return ctx; }
  std::mutex &mutex() { return mu; }

  /// Parses and verifies `source`; throws ValueError with the diagnostics.
  OwningOpRef<ModuleOp> parse(const std::string &source) {
    DiagnosticCollector diags(ctx);
    // Locations name the buffer, so messages read `<source>:3:5: error:`.
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, ParserConfig(&ctx), "<source>");
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
    PassManager pm(&ctx, ModuleOp::getOperationName());
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

  /// Runs `pm` on `module`; throws ValueError with the diagnostics. The
  /// module is verified once, after the pipeline: verifying after every
  /// pass took a third of a kernel's MLIR time
  /// (docs/decisions/compile-time.md); a pass that
  /// breaks the IR is still an error, named by the final verifier.
  void run(PassManager &pm, ModuleOp module) {
    DiagnosticCollector diags(ctx);
    pm.enableVerifier(false);
    if (failed(pm.run(module)))
      throw py::value_error(diags.take("the pipeline failed"));
    if (failed(verify(module)))
      throw py::value_error(
          diags.take("the pipeline produced invalid IR"));
  }

  /// JIT-compiles an LLVM-dialect module; the hooks resolve to the
  /// recorders above. Modules that use OpenMP (lowered with parallel=true)
  /// get libomp.
  std::unique_ptr<ExecutionEngine> jit(ModuleOp module, unsigned optLevel) {
    DiagnosticCollector diags(ctx);
    // LLVM's optimizer sees the host, as the kernels' does (KernelJit.cpp):
    // without a target machine its cost models vectorize no loop.
    static std::unique_ptr<llvm::TargetMachine> host = [] {
      auto machine =
          python::HostTarget::get().getMachineBuilder().createTargetMachine();
      if (!machine) {
        llvm::consumeError(machine.takeError());
        return std::unique_ptr<llvm::TargetMachine>();
      }
      return std::move(*machine);
    }();
    auto optimize = [optLevel](llvm::Module *m) {
      python::optimizeForHost(*m, host.get(), optLevel);
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
      libs.push_back(kOpenMPLibrary);
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
  Compiler() {
    created() = true;
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
    // these are the ones the package's builders create ops of.
    ctx.loadDialect<func::FuncDialect, bufferization::BufferizationDialect,
                    GatherDialect>();
    ctx.disableMultithreading();
  }

  MLIRContext ctx;
  std::mutex mu;
};

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_COMPILER_H
