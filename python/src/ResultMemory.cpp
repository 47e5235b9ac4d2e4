//===- ResultMemory.cpp - Memory for large results, reused ----------------===//

#include "ResultMemory.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/ndarraytypes.h>

#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

using namespace mlir::gather::python;

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

/// Blocks this handler mapped, by address, with their mapped size; the kept
/// block; counts. Guarded by `mu`.
struct Blocks {
  std::mutex mu;
  std::unordered_map<void *, size_t> live;
  void *kept = nullptr;
  size_t keptSize = 0;
  ResultMemoryStats stats;
};

/// Lives until exit, like the arrays. A fork waits until no other thread
/// holds `mu` (kernels allocate through it inside parallel regions), so the
/// child inherits it unlocked and its records whole.
Blocks &blocks() {
  static Blocks *b = [] {
    auto *fresh = new Blocks();
    pthread_atfork([] { blocks().mu.lock(); }, [] { blocks().mu.unlock(); },
                   [] { blocks().mu.unlock(); });
    return fresh;
  }();
  return *b;
}

void *mapBlock(size_t size) {
  size_t mapped = (size + kHugePage - 1) / kHugePage * kHugePage;
  void *p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return nullptr;
  // As numpy does for its own large arrays: fewer, larger page faults.
  madvise(p, mapped, MADV_HUGEPAGE);
  Blocks &b = blocks();
  std::lock_guard<std::mutex> lock(b.mu);
  b.live.emplace(p, mapped);
  ++b.stats.mapped;
  return p;
}

void *allocate(void *, size_t size) {
  if (size < static_cast<size_t>(kResultMemoryMinBytes))
    return std::malloc(std::max<size_t>(size, 1));
  Blocks &b = blocks();
  {
    std::lock_guard<std::mutex> lock(b.mu);
    if (b.kept && size <= b.keptSize && b.keptSize / 2 <= size) {
      void *p = b.kept;
      b.kept = nullptr;
      ++b.stats.reused;
      return p;
    }
  }
  return mapBlock(size);
}

void release(void *, void *p, size_t) {
  if (!p)
    return;
  Blocks &b = blocks();
  void *unmap = nullptr;
  size_t unmapSize = 0;
  {
    std::lock_guard<std::mutex> lock(b.mu);
    auto it = b.live.find(p);
    if (it == b.live.end()) {
      std::free(p); // A small block (a resized array).
      return;
    }
    // Keep the most recently freed block; unmap the one it replaces.
    unmap = b.kept;
    unmapSize = b.keptSize;
    b.kept = p;
    b.keptSize = it->second;
    if (unmap)
      b.live.erase(unmap);
  }
  if (unmap)
    munmap(unmap, unmapSize);
}

void *allocateZeroed(void *ctx, size_t n, size_t elementSize) {
  if (elementSize && n > SIZE_MAX / elementSize)
    return nullptr;
  size_t size = n * elementSize;
  if (size < static_cast<size_t>(kResultMemoryMinBytes))
    return std::calloc(std::max<size_t>(n, 1),
                       std::max<size_t>(elementSize, 1));
  void *p = allocate(ctx, size);
  if (p)
    std::memset(p, 0, size);
  return p;
}

/// The size of a block this handler gave out, or 0 for a malloc'ed one.
size_t mappedSize(void *p) {
  Blocks &b = blocks();
  std::lock_guard<std::mutex> lock(b.mu);
  auto it = b.live.find(p);
  return it == b.live.end() ? 0 : it->second;
}

void *reallocate(void *ctx, void *p, size_t size) {
  if (!p)
    return allocate(ctx, size);
  size_t old = mappedSize(p);
  if (!old && size < static_cast<size_t>(kResultMemoryMinBytes))
    return std::realloc(p, std::max<size_t>(size, 1));
  if (old && size <= old)
    return p; // The mapping is large enough.
  void *q = allocate(ctx, size);
  if (!q)
    return nullptr; // p stays valid, as realloc promises.
  size_t held = old ? old : malloc_usable_size(p);
  std::memcpy(q, p, std::min(held, size));
  release(ctx, p, 0);
  return q;
}

PyDataMem_Handler makeHandler() {
  PyDataMem_Handler h{};
  std::strncpy(h.name, "gather_mlir_result_memory", sizeof(h.name) - 1);
  h.version = 1;
  h.allocator = {nullptr, allocate, allocateZeroed, reallocate, release};
  return h;
}

} // namespace

void *mlir::gather::python::getResultMemoryHandler() {
  static PyDataMem_Handler handler = makeHandler();
  return &handler;
}

void *mlir::gather::python::resultMemoryAllocate(size_t size) {
  return allocate(nullptr, size);
}

void *mlir::gather::python::resultMemoryAlignedAllocate(size_t alignment,
                                                        size_t size) {
  // Mapped blocks start on a page.
  if (size >= static_cast<size_t>(kResultMemoryMinBytes) && alignment <= 4096)
    return allocate(nullptr, size);
  // aligned_alloc wants a size that is a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, std::max(rounded, alignment));
}

void mlir::gather::python::resultMemoryRelease(void *p) {
  release(nullptr, p, 0);
}

ResultMemoryStats mlir::gather::python::getResultMemoryStats() {
  Blocks &b = blocks();
  std::lock_guard<std::mutex> lock(b.mu);
  return b.stats;
}
