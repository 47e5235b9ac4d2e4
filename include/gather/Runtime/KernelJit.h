//===- KernelJit.h - Kernel objects for the host, linked in process -------===//
//
// The runtime's kernels are object files: compiled for the host CPU
// from a module the gather-to-llvm pipeline lowered, then linked into the
// process by one ORC LLJIT. An object file is what KernelStore keeps on
// disk, so a kernel compiled in one process and one read back in another go
// through the same linking.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELJIT_H
#define GATHER_RUNTIME_KERNELJIT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <utility>

namespace mlir::gather::runtime {

/// The machine kernels are compiled for: the host's triple, CPU and CPU
/// features (as `+a,-b,...`, sorted).
struct HostTarget {
  std::string triple, cpu, features;

  static const HostTarget &get();
  /// What kernels are compiled with: the host, -O3 code generation, and the
  /// position-independent small code model the JIT linker takes.
  llvm::orc::JITTargetMachineBuilder getMachineBuilder() const;
  /// The vector width LLVM's own vectorizers prefer here (its cost model's
  /// register width), which is 512 on CPUs whose 512-bit vectors are fast
  /// and 256 where LLVM tunes for 256-bit ones
  /// (docs/decisions/kernel-cost-model.md, "Vector width"). Asked of a
  /// target machine on the first compile, not before: a kernel on disk
  /// needs none.
  unsigned vectorBits() const;
};

/// LLVM's default pipeline at `optLevel` (0..3) for `machine` (null: no
/// target's cost models), tuned for kernels the lowering already
/// vectorized: no partial or runtime loop unrolling. Every kernel of the
/// runtime goes through it (the Python package's JitModule too).
void optimizeForHost(llvm::Module &module, llvm::TargetMachine *machine,
                     unsigned optLevel);

/// Compiles an LLVM-dialect module to an object file for the host:
/// translation to LLVM IR, optimizeForHost at -O3, code generation.
llvm::Expected<llvm::SmallVector<char, 0>> compileToObject(ModuleOp module);

/// Links kernel objects into the process, each in a JITDylib of its own (so
/// that they may define the same names). Their undefined symbols resolve to
/// the host symbols given at creation, then to libomp's (once an object that
/// needs it was linked: loadOpenMP), then to the process's.
///
/// Linked code is visible to debuggers and profilers: every object is
/// registered with GDB's JIT interface (`__jit_debug_register_code`, which
/// gdb and lldb read), and, when the environment sets GATHER_MLIR_PERF=1
/// at the linker's creation, the functions of every object are appended to
/// /tmp/perf-<pid>.map, the map of JIT code `perf report` and `perf top`
/// read, named `<symbol> [<name given to link>]`.
class KernelLinker {
public:
  static llvm::Expected<std::unique_ptr<KernelLinker>>
  create(llvm::ArrayRef<std::pair<llvm::StringRef, void *>> hostSymbols);

  /// Links `object` and returns the address of its symbol `entry`. `name`
  /// says what the object is to a profiler (a kernel's description).
  llvm::Expected<void *> link(std::unique_ptr<llvm::MemoryBuffer> object,
                              bool needsOpenMP, llvm::StringRef entry,
                              llvm::StringRef name = {});

  ~KernelLinker();

private:
  class PerfMap;
  KernelLinker(std::unique_ptr<llvm::orc::LLJIT> jit, PerfMap *perfMap)
      : jit(std::move(jit)), perfMap(perfMap) {}

  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// Owned by the linking layer; null when GATHER_MLIR_PERF is not 1.
  PerfMap *perfMap;
  bool openMPLinked = false;
  unsigned linked = 0;
};

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELJIT_H
