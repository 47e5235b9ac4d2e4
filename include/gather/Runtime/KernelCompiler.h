//===- KernelCompiler.h - The runtime's MLIR context ------------*- C++ -*-===//
//
// One MLIRContext with every dialect, pass and translation kernels need,
// behind one lock; pass pipelines run with their diagnostics collected as
// mlir-opt prints them; and what a lowered module needs of the JIT
// (libomp, error hooks that resolve to the host).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELCOMPILER_H
#define GATHER_RUNTIME_KERNELCOMPILER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <mutex>
#include <string>

namespace mlir::gather::runtime {

/// Appends `d` and its notes as mlir-opt prints them:
/// `<source>:3:5: error: message` (a location without a file position is
/// printed as `loc(...)`).
void appendDiagnostic(std::string &text, const Diagnostic &d);

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

/// The process's MLIRContext for kernels (and for any host that compiles
/// modules beside them, as the Python package does): every dialect,
/// extension, pass and LLVM IR translation registered. Lives until exit.
class KernelCompiler {
public:
  static KernelCompiler &get();
  /// Whether get() has made the compiler (its MLIRContext, every dialect):
  /// kernels found in the caches never do.
  static bool created();

  MLIRContext &context() { return ctx; }
  /// Held by whoever uses the context.
  std::mutex &mutex() { return mu; }

  /// Runs `pm` on `module`: an error with the diagnostics when it fails. The
  /// module is verified once, after the pipeline: verifying after every pass
  /// took a third of a kernel's MLIR time (docs/decisions/compile-time.md);
  /// a pass that breaks the IR is still an error, named by the final
  /// verifier. The caller holds mutex().
  llvm::Error run(PassManager &pm, ModuleOp module);

private:
  KernelCompiler();

  MLIRContext ctx;
  std::mutex mu;
};

/// Whether `module` needs libomp: OpenMP dialect ops (which translate to
/// `__kmpc_*` calls) or declarations of the runtime's functions.
bool usesOpenMP(ModuleOp module);

/// Whether a kernel of `module` may report an error on a thread that OpenMP
/// starts: a call inside an `omp.parallel` region to an error hook, to a
/// function the module defines (which may call one) or through a pointer;
/// or a module translated already (`__kmpc_fork_call`), which cannot be
/// read. Calls to other external functions (malloc, free) cannot report.
bool mayReportOnOpenMPThreads(ModuleOp module);

/// Turns the weak default definitions of the error hooks (which print and
/// exit) back into declarations, so the JIT resolves them to the recorders
/// of KernelCall.h whatever pipeline lowered the module.
void takeOverErrorHooks(ModuleOp module);

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELCOMPILER_H
