//===- ParallelThreshold.cpp - When a gather runs on threads ----*- C++ -*-===//

#include "gather/Conversion/GatherToAffine/ParallelThreshold.h"

#include "llvm/Support/Threading.h"

#include <cstdlib>
#include <limits>

using namespace mlir::gather;

int64_t mlir::gather::parallelMinBytesForThreads(int64_t threads) {
  if (threads < 2)
    return std::numeric_limits<int64_t>::max();
  if (threads > std::numeric_limits<int64_t>::max() /
                    kParallelMinBytesPerThread)
    return std::numeric_limits<int64_t>::max();
  return kParallelMinBytesPerThread * threads;
}

std::optional<llvm::SmallVector<unsigned>>
mlir::gather::parseOpenMPThreadCounts(llvm::StringRef value) {
  llvm::SmallVector<llvm::StringRef> items;
  value.split(items, ',');
  llvm::SmallVector<unsigned> counts;
  for (llvm::StringRef item : items)
    if (item.trim().getAsInteger(10, counts.emplace_back()))
      return std::nullopt;
  return counts;
}

int64_t mlir::gather::getHostParallelMinBytes() {
  static const int64_t bytes = [] {
    // libomp's team size: OMP_NUM_THREADS's first count (a malformed value
    // never reaches libomp: the package refuses it first), else one thread
    // per CPU of the process's affinity mask.
    unsigned threads = 0;
    if (const char *value = std::getenv("OMP_NUM_THREADS"))
      if (auto counts = parseOpenMPThreadCounts(value))
        threads = counts->front();
    if (threads == 0)
      threads = llvm::hardware_concurrency().compute_thread_count();
    return parallelMinBytesForThreads(threads);
  }();
  return bytes;
}
