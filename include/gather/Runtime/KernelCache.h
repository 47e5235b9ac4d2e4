//===- KernelCache.h - Compiled kernels, in memory and on disk --*- C++ -*-===//
//
// The cache that finds a kernel in memory (gather kernels, by KernelKey), on
// disk (KernelStore.h), or compiles it: gather-to-llvm for the host
// (KernelPolicy.h's options), then an object file linked in process
// (KernelJit.h). Kernels live as long as the process.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELCACHE_H
#define GATHER_RUNTIME_KERNELCACHE_H

#include "gather/Pipelines/Pipelines.h"
#include "gather/Runtime/KernelJit.h"
#include "gather/Runtime/KernelKey.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace mlir::gather::runtime {

/// Kernels by key. Reads take no lock: a bucket is a list of immutable
/// nodes, published by a release store of its head and never freed (kernels
/// live as long as the process); only one thread inserts at a time.
class KernelTable {
public:
  KernelFn find(const KernelKey &key) const {
    for (const Node *n = bucketOf(key).load(std::memory_order_acquire); n;
         n = n->next)
      if (n->key == key)
        return n->kernel;
    return nullptr;
  }
  /// The caller holds the lock that serializes inserts.
  void insert(const KernelKey &key, KernelFn kernel) {
    std::atomic<const Node *> &head = bucketOf(key);
    head.store(new Node{key, kernel, head.load(std::memory_order_relaxed)},
               std::memory_order_release);
  }

private:
  struct Node {
    KernelKey key;
    KernelFn kernel;
    const Node *next;
  };
  static constexpr size_t kBuckets = 1024;
  std::atomic<const Node *> &bucketOf(const KernelKey &key) const {
    return buckets[key.hash() & (kBuckets - 1)];
  }
  mutable std::atomic<const Node *> buckets[kBuckets] = {};
};

/// Compiled kernels: in memory by KernelKey, on disk by a key that also
/// names this build, LLVM and the host CPU (see KernelStore.h), compiled
/// only when neither has them. Errors (a key no kernel exists for, a
/// malformed OMP_NUM_THREADS for a threaded kernel, a failed compile or
/// link) come back as llvm::Error, with the pipeline's diagnostics.
///
/// A miss reads the environment (prepare), then reads or compiles without
/// it (obtain, load); lookup does both. A host whose environment is guarded
/// by a lock (Python's GIL) calls prepare with it held and the rest without.
class KernelCache {
public:
  static KernelCache &get();

  /// The gather kernel of `key` in memory, or null. Takes no lock.
  KernelFn find(const KernelKey &key) const { return table.find(key); }

  /// The gather kernel of `key`: find, else prepare and obtain.
  llvm::Expected<KernelFn> lookup(const KernelKey &key);

  /// What a miss reads of the process's environment.
  struct Environment {
    /// Where kernels are kept (getKernelStoreDir); none: not on disk.
    std::optional<std::string> storeDir;
  };
  /// libomp loaded for a `parallel` kernel (loadOpenMP; its error
  /// returned), and the kernel store's directory.
  static llvm::Expected<Environment> prepare(bool parallel);

  /// The gather kernel of `key`, read from disk or compiled, linked and
  /// kept in memory (unless another thread did so first).
  llvm::Expected<KernelFn> obtain(const KernelKey &key,
                                  const Environment &environment);

  /// A kernel that is not a gather's (an embedding bag's, any module's):
  /// its C interface, and whether its hooks may run on OpenMP's threads
  /// (KernelCall's `threaded`).
  struct Entry {
    void *function = nullptr;
    /// It may report on the threads it starts (mayReportOnOpenMPThreads).
    bool threaded = false;
    /// It may run on libomp's threads.
    bool openMP = false;
  };
  /// The kernel `description` names (everything its module depends on),
  /// read from disk as gathers' kernels are, else built by `build` (a
  /// module whose function `kernel` has a C interface, in
  /// KernelCompiler's context, whose lock is held; null: an error), lowered by
  /// gather-to-llvm for this host (`parallel`: threads;
  /// getKernelLoweringOptions) and compiled. Not kept in memory: the caller
  /// keeps it. `environment` comes from prepare(parallel).
  llvm::Expected<Entry>
  load(const std::string &description, bool parallel,
       llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build,
       const Environment &environment);

  /// Kernels compiled, loaded from disk, stored on disk, and disk entries
  /// rejected (corrupt, truncated or foreign; rebuilt) since the process
  /// started.
  std::atomic<int64_t> compiled{0}, loaded{0}, stored{0}, rejected{0};

  /// The key of a kernel on disk: what made its object (this build, LLVM,
  /// the host CPU, the pipeline) and its source, `description`.
  static std::string getStoreKey(const std::string &description);

private:
  KernelCache() = default;
  struct Compiled {
    llvm::SmallVector<char, 0> object;
    uint32_t flags = 0;
  };
  /// `module` lowered with `options` and compiled: the object and its
  /// flags. The caller holds KernelCompiler's lock.
  static llvm::Expected<Compiled>
  compileModule(ModuleOp module, const GatherToLLVMOptions &options);
  /// The kernel `description` names from `environment`'s directory, else
  /// from `compile`, linked: its entry and flags. The caller holds `mu`.
  llvm::Expected<std::pair<void *, uint32_t>>
  obtainLinked(const Environment &environment, const std::string &description,
               llvm::function_ref<llvm::Expected<Compiled>()> compile);
  llvm::Expected<KernelLinker &> getLinker();

  KernelTable table;
  /// Serializes misses (and so inserts into the table).
  std::mutex mu;
  std::unique_ptr<KernelLinker> linker;
};

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELCACHE_H
