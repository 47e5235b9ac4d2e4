//===- ResultMemory.h - Memory for large results, reused -------*- C++ -*-===//
//
// glibc serves allocations of 32 MiB and more (its largest mmap threshold)
// from fresh pages every time, and the kernel faults in and zeroes each of
// them while the gather writes the result, a large part of a lookup's time
// (docs/decisions/python-package.md). numpy lets an extension allocate an
// array's data through a memory handler of its own, which the array keeps
// and frees through, so the package allocates such results through this
// one: it maps them with transparent huge pages and keeps the most recently
// freed block for the next result that fits, so a loop that drops each
// result before the next call writes into pages that are already mapped.
// At most one freed block is kept, and only for results between half its
// size and its size.
// Everything else about the array is as numpy makes it (it owns its data;
// resize, pickling and torch.from_numpy work as usual). Kernels that
// compiler.JitModule compiles (embedding bags, block-quantized gathers)
// allocate through the same blocks: their `malloc`, `aligned_alloc` and
// `free` resolve to the functions below, and the arrays that adopt their
// results free through them.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PYTHON_RESULTMEMORY_H
#define GATHER_PYTHON_RESULTMEMORY_H

#include <cstddef>
#include <cstdint>

namespace mlir::gather::python {

/// Results of at least this many bytes are allocated by the handler.
constexpr int64_t kResultMemoryMinBytes = int64_t(32) << 20;

/// The handler, as numpy's PyDataMem_Handler (a capsule named "mem_handler"
/// around it is what PyDataMem_SetHandler takes). Lives until exit.
void *getResultMemoryHandler();

/// The handler's allocation and release as plain functions, for memory that
/// JIT-compiled kernels allocate (their `malloc`, `aligned_alloc` and
/// `free`): results of kResultMemoryMinBytes or more are mapped blocks,
/// reused as the handler reuses them; smaller ones are the C library's.
/// resultMemoryRelease frees either kind.
void *resultMemoryAllocate(size_t size);
void *resultMemoryAlignedAllocate(size_t alignment, size_t size);
void resultMemoryRelease(void *p);

/// How many blocks the handler has mapped and how many allocations took a
/// kept block instead, for tests.
struct ResultMemoryStats {
  int64_t mapped = 0, reused = 0;
};
ResultMemoryStats getResultMemoryStats();

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_RESULTMEMORY_H
