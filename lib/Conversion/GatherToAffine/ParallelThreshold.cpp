//===- ParallelThreshold.cpp - When a gather runs on threads ----*- C++ -*-===//

#include "gather/Conversion/GatherToAffine/ParallelThreshold.h"

#include "llvm/Support/Threading.h"

#include <algorithm>
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

std::optional<unsigned> mlir::gather::getOpenMPTeamSize() {
  const char *value = std::getenv("OMP_NUM_THREADS");
  if (!value)
    return std::nullopt;
  std::optional<llvm::SmallVector<unsigned>> counts =
      parseOpenMPThreadCounts(value);
  if (!counts)
    return std::nullopt;
  return getOpenMPTeamSize(*counts);
}

std::optional<unsigned>
mlir::gather::getOpenMPTeamSize(llvm::ArrayRef<unsigned> counts) {
  if (counts.empty() || counts.front() == 0)
    return std::nullopt;
  unsigned team = counts.front();
  unsigned limit;
  if (const char *threadLimit = std::getenv("OMP_THREAD_LIMIT"))
    if (!llvm::StringRef(threadLimit).trim().getAsInteger(10, limit) &&
        limit > 0)
      team = std::min(team, limit);
  return team;
}

int64_t mlir::gather::getHostParallelMinBytes() {
  static const int64_t bytes = [] {
    // libomp's team size (a malformed OMP_NUM_THREADS never reaches
    // libomp: the package refuses it first), else one thread per CPU of
    // the process's affinity mask.
    unsigned threads = getOpenMPTeamSize().value_or(
        llvm::hardware_concurrency().compute_thread_count());
    return parallelMinBytesForThreads(threads);
  }();
  return bytes;
}
