//===- ParallelThreshold.h - When a gather runs on threads ------*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOAFFINE_PARALLELTHRESHOLD_H
#define GATHER_CONVERSION_GATHERTOAFFINE_PARALLELTHRESHOLD_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::gather {

/// A threaded gather gives every thread at least this many bytes of the
/// result: waking sleeping workers costs about what a row copy of 512 KiB
/// takes, and a region waits for its slowest thread.
/// Evidence: docs/decisions/kernel-cost-model.md, "Threads".
inline constexpr int64_t kParallelMinBytesPerThread = 512 << 10;

/// parallel-min-bytes for `threads` threads: kParallelMinBytesPerThread
/// each; below two threads, never (INT64_MAX).
int64_t parallelMinBytesForThreads(int64_t threads);

/// The thread counts an OMP_NUM_THREADS value lists (`2`, `2,1`), or none
/// when an item is not a count (empty, a word, a negative number), which
/// makes libomp abort the process when it starts.
std::optional<llvm::SmallVector<unsigned>>
parseOpenMPThreadCounts(llvm::StringRef value);

/// The team of a (not nested) OpenMP parallel loop as the environment sets
/// it: OMP_NUM_THREADS's first count, capped by OMP_THREAD_LIMIT when that
/// is a positive count; none when OMP_NUM_THREADS is unset, malformed or 0.
std::optional<unsigned> getOpenMPTeamSize();
/// The same from OMP_NUM_THREADS's counts, parsed already.
std::optional<unsigned> getOpenMPTeamSize(llvm::ArrayRef<unsigned> counts);

/// parallel-min-bytes for hosts that compile for themselves (a JIT), with
/// the threads OpenMP starts here: getOpenMPTeamSize, else the CPUs this
/// process may run on. Read once.
int64_t getHostParallelMinBytes();

} // namespace mlir::gather

#endif // GATHER_CONVERSION_GATHERTOAFFINE_PARALLELTHRESHOLD_H
