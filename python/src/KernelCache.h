//===- KernelCache.h - The gather functions' kernels, by key ----*- C++ -*-===//
//
// What tells the gather functions' kernels apart (KernelKey: op, widths,
// ranks, attributes, layouts, threads; no shape but a short row's length),
// the module a key stands for, and the cache that finds a key's kernel in
// memory, on disk (KernelStore.h) or compiles it (gather-to-llvm for the
// host, KernelJit.h).
// Built with exceptions: a kernel that cannot be built raises ValueError.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PYTHON_KERNELCACHE_H
#define GATHER_PYTHON_KERNELCACHE_H

#include "KernelJit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

namespace mlir::gather::python {

enum class OpKind : uint8_t { Gather, Elements, ND };

inline const char *opName(OpKind k) {
  switch (k) {
  case OpKind::Gather:
    return "gather";
  case OpKind::Elements:
    return "gather_elements";
  case OpKind::ND:
    return "gather_nd";
  }
  return "gather";
}

using KernelFn = void (*)(void *, void *, void *);

/// Results whose rows are short rows of data (GatherShape::readsDataRows,
/// from C-contiguous data, at most this many bytes a row)...
constexpr int64_t kStaticRowMaxBytes = 256;
/// ...and that have at least this many bytes get a kernel for their row
/// length: its row copy is a few whole vectors instead of a loop of a
/// run-time trip count and a masked tail. Smaller results would compile a
/// kernel for each row length to save microseconds.
/// Evidence: docs/decisions/kernel-cost-model.md, "Kernels for short row
/// lengths".
constexpr int64_t kStaticRowMinResultBytes = 64 << 10;

/// What tells kernels apart: everything their MLIR depends on (normalized
/// attributes, element widths, ranks, mode, layouts, threads, row
/// validation), and no shape but the length of short data rows. Plain
/// bytes, compared and hashed as two words.
struct KernelKey {
  enum Flags : uint8_t {
    /// The kernel writes a result array of its own (not the caller's out),
    /// so check mode may check each row of indices as it gathers it: an
    /// IndexError then discards a partly written result, which no one sees.
    ValidateRows = 1,
    StridedData = 2,
    StridedIndices = 4,
    /// The kernel is lowered with parallel=true: results of at least the
    /// lowering's parallel-min-bytes may run on OpenMP threads.
    Parallel = 8,
    /// The kernel may write rows with non-temporal stores (the lowering's
    /// choice for results of at least its streaming-min-bytes); without
    /// it, never (streaming-min-bytes=-1): no streaming copies to compile.
    Streaming = 16,
    /// Rows gathered along the last axis read one element an iteration
    /// (the host's choice for this data axis and these rows,
    /// getHostGatherLoads: a long axis, sparse rows); without it, the
    /// host's choice for an axis of unknown length. Set only for kernels
    /// that gather such rows from C-contiguous operands.
    ElementLoads = 32,
  };

  OpKind op;
  uint8_t mode, dataBytes, indexBytes, dataRank, indexRank, axis, batchDims;
  /// gather_nd's index tuple length; 0 for the other ops.
  uint8_t tupleSize;
  uint8_t flags;
  /// The length of data's last dim, which is the result's rows
  /// (kStaticRowMaxBytes); 0: any length.
  uint16_t rowLength;
  uint8_t unused[4];

  KernelKey() { std::memset(this, 0, sizeof(*this)); }
  bool operator==(const KernelKey &other) const {
    return std::memcmp(this, &other, sizeof(*this)) == 0;
  }
  uint64_t hash() const {
    uint64_t w[2];
    std::memcpy(w, this, sizeof(w));
    uint64_t h = (w[0] ^ (w[1] * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
  }

  /// The kernel's function: the gather op in a destination-passing
  /// function `@kernel(data, indices, result)` over memrefs.
  /// Every field, as text: what a kernel on disk is found by (with the
  /// build and the host; KernelCache::storeKeyOf).
  std::string describe() const {
    return std::string(opName(op)) + " mode " + std::to_string(mode) +
           " data " + std::to_string(dataBytes) + "B rank " +
           std::to_string(dataRank) + " indices " + std::to_string(indexBytes) +
           "B rank " + std::to_string(indexRank) + " axis " +
           std::to_string(axis) + " batch_dims " + std::to_string(batchDims) +
           " tuple " + std::to_string(tupleSize) + " flags " +
           std::to_string(flags) + " row " + std::to_string(rowLength);
  }

  /// The kernel as a module: a function of three memrefs (data and indices
  /// of the key's ranks, in their layouts, of dynamic sizes but rowLength;
  /// the result), which reads the first two as tensors, gathers, and
  /// materializes the result in the third (convert-gather-to-affine
  /// computes it there). Data moves as integers of its width: a gather only
  /// moves bits. The result's rank and static sizes come from the op's
  /// shape rules.
  OwningOpRef<ModuleOp> build(MLIRContext &ctx) const;
};
static_assert(sizeof(KernelKey) == 16, "a key is two words");

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
/// only when neither has them.
class KernelCache {
public:
  static KernelCache &get() {
    static KernelCache *cache = new KernelCache(); // Lives until exit.
    return *cache;
  }

  KernelFn lookup(const KernelKey &key) {
    if (KernelFn kernel = table.find(key))
      return kernel;
    return miss(key);
  }

  /// A kernel of the package that is not a gather's (an embedding bag's):
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
  /// module whose function `kernel` it is, in the shared context, whose
  /// lock is held; without the GIL), lowered by gather-to-llvm for this
  /// host (`parallel`: threads) and compiled. Not kept in memory: the
  /// caller keeps it.
  Entry load(const std::string &description, bool parallel,
             llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build);

  std::atomic<int64_t> compiled{0}, loaded{0}, stored{0}, rejected{0};

private:
  KernelCache() = default;
  KernelFn miss(const KernelKey &key);
  /// The key of a kernel on disk: what made its object (this build, LLVM,
  /// the host CPU, the pipeline) and its source.
  static std::string storeKeyOf(const std::string &description);
  /// Builds the kernel of `key`, lowers it with gather-to-llvm and compiles
  /// it to an object file.
  static std::pair<llvm::SmallVector<char, 0>, uint32_t>
  compile(const KernelKey &key);
  /// `module` lowered with `options` and compiled: the object and its
  /// flags.
  static std::pair<llvm::SmallVector<char, 0>, uint32_t>
  compileModule(ModuleOp module, const GatherToLLVMOptions &options);
  /// What a miss does with the GIL held, before obtain: libomp loaded for
  /// a `parallel` kernel (loadOpenMP; its error a ValueError), and the
  /// kernel store's directory (getKernelStoreDir) returned.
  static std::optional<std::string> beforeObtain(bool parallel);
  /// The kernel of `storeKey` from `dir` (getKernelStoreDir, read with the
  /// GIL held; none: no disk), else from `compile`, linked: its entry and
  /// flags. The caller holds `mu`.
  std::pair<void *, uint32_t> obtain(
      const std::optional<std::string> &dir, const std::string &storeKey,
      llvm::function_ref<std::pair<llvm::SmallVector<char, 0>, uint32_t>()>
          compile);
  KernelLinker &getLinker();

  KernelTable table;
  /// Serializes misses (and so inserts into the table).
  std::mutex mu;
  std::unique_ptr<KernelLinker> linker;
};

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_KERNELCACHE_H
