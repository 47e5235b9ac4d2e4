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
/// result: waking sleeping workers costs tens of microseconds (20-60 on a
/// 2-vCPU VM), a row copy of 512 KiB about as much. Intel Xeon, 2 idle
/// cores, threaded/serial: results of 1 MiB 1.5-1.9x faster (row gathers,
/// gather_elements, the column gather), 512 KiB 0.6-1.6x, 256 KiB
/// 0.3-0.6x; with a busy process on the other core, 1-4 MiB 0.89-0.99x.
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
