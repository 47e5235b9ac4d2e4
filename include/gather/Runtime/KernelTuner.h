//===- KernelTuner.h - Kernel choices measured on the host ------*- C++ -*-===//
//
// Some choices of a kernel have no answer that holds on every CPU: how rows
// gathered along the last axis read data (vector gathers, one scalar load a
// lane, one element an iteration) depends on the core's gathers, its caches
// and how far the rows spread; whether gather_elements along an axis before
// the last walks column blocks, on the caches and the TLB. The host's cost
// model (KernelPolicy.h) guesses; a class of calls compiles the other
// candidates one a call, then a call measures them all on its own operands and
// keeps the fastest, in memory and on disk beside the kernels (keyed by this
// build and the host CPU), so later calls and later processes run it without
// measuring again.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELTUNER_H
#define GATHER_RUNTIME_KERNELTUNER_H

#include "gather/Runtime/KernelCall.h"
#include "gather/Runtime/KernelKey.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace mlir::gather::runtime {

/// Calls whose results have fewer bytes are not measured: they run in
/// microseconds, and measuring would compile a kernel for each candidate.
inline constexpr int64_t kTuneMinResultBytes = 256 << 10;

/// A measurement runs each candidate in as many rounds (one to five) as
/// fit in about this long...
inline constexpr double kTuneBudgetSeconds = 0.05;

/// ...and takes place only on a call whose one run (the cost model's
/// kernel's warm-up) takes at most this long: a longer call keeps the cost
/// model's choice, and a later or smaller call of its class measures. A
/// measurement is made once a host, so it may cost a few runs of a long call.
inline constexpr double kTuneMaxRunSeconds = 0.2;

/// A candidate replaces the cost model's choice only when it is faster by
/// at least this fraction: the model's choice is the prior, and this host's
/// timings vary by a few percent between runs.
inline constexpr double kTuneMinGain = 0.05;

/// A class has at most this many candidates, so its measured choice is
/// made by its call number kMaxCandidates + 1 (nextCandidateToObtain).
inline constexpr size_t kMaxCandidates = 3;

/// Whether calls measure their choices: unless GATHER_MLIR_TUNE is `0` or
/// `off` (then the cost model decides every call). Read at each call that
/// would measure.
bool isTuningEnabled();

/// What a measured choice holds for: the key of the call's kernel with its
/// measured fields at 0, and the call's sizes in powers of two (the bytes of
/// the gathered data axis, of a result row, of data and of the result).
struct TuningClass {
  KernelKey key;
  uint8_t axisLog2 = 0, rowLog2 = 0, dataLog2 = 0, resultLog2 = 0;

  bool operator==(const TuningClass &other) const {
    return std::memcmp(this, &other, sizeof(*this)) == 0;
  }
  std::string describe() const;
};
static_assert(sizeof(TuningClass) == 20, "a class is plain bytes");

/// A kernel's measured fields (KernelKey::loads, KernelKey::columnBlocks).
/// A class measures one of them, or both for gather_elements along an axis
/// before the last; a field not measured stays 0.
struct KernelVariant {
  uint8_t loads = 0, columnBlocks = 0;

  bool operator==(const KernelVariant &other) const {
    return loads == other.loads && columnBlocks == other.columnBlocks;
  }
  static KernelVariant of(const KernelKey &key) {
    return {key.loads, key.columnBlocks};
  }
  void applyTo(KernelKey &key) const {
    key.loads = loads;
    key.columnBlocks = columnBlocks;
  }
  /// `vector`, `scalar` or `element` (gather-loads' values), then
  /// `column blocks` or `rows` when set; `threshold` when neither is set.
  std::string describe() const;
};

/// What a measurement chose, and each candidate's best time in seconds.
struct TuningRecord {
  KernelVariant chosen;
  llvm::SmallVector<std::pair<KernelVariant, double>, kMaxCandidates> seconds;
};

/// One call's measurement: the first error a kernel reported (which stops
/// it: nothing is chosen), else each candidate's best time and the chosen
/// one's index. Empty `seconds`: not measured (the cost model's warm-up
/// run took longer than kTuneMaxRunSeconds); the call's result is written
/// either way.
struct Measurement {
  KernelErrorRecord error;
  llvm::SmallVector<double, kMaxCandidates> seconds;
  size_t chosen = 0;
};

/// Which of a class's `candidates` (the cost model's first) a call
/// obtains, compiled or read from disk, before it runs the cost model's:
/// the first not in memory (KernelCache::find). None: all are, and the call
/// measures them. So each call compiles at most one kernel: a class's first
/// call compiles the cost model's, as without measuring, and the call after
/// the last candidate's measures; calls made once never pay for candidates.
std::optional<size_t>
nextCandidateToObtain(llvm::ArrayRef<KernelKey> candidates);

/// Runs `kernels` (the cost model's choice first) on one call's memref
/// descriptors: each once, untimed, to warm the caches, the result's pages
/// and its code (the first's run stops it when it takes longer than
/// kTuneMaxRunSeconds), then every one in turn, in rounds that start each
/// at another kernel, as many as kTuneBudgetSeconds allows (one to five);
/// keeps each one's fastest run. The chosen one is the fastest, unless the
/// first is within kTuneMinGain of it. Every run writes the same result, so the
/// call's is there when this returns. `openMP`: the kernels may run on libomp's
/// threads (KernelCall).
Measurement measureKernels(llvm::ArrayRef<KernelFn> kernels, bool openMP,
                           void *data, void *indices, void *result);

/// The choices measured on this host: in memory, and on disk in the kernel
/// store (KernelStore.h), keyed as kernels are by this build and the host
/// (KernelCache::getStoreKey), so they are measured again after a rebuild
/// or on another CPU.
class KernelTuner {
public:
  static KernelTuner &get();

  /// The record of `tuning`: in memory, else read from the kernel store
  /// (getKernelStoreDir) and kept; none if it was never measured here.
  std::optional<TuningRecord> find(const TuningClass &tuning);

  /// Claims the measurement of `tuning` for the calling thread: false if
  /// another thread measures it now (the caller runs the cost model's
  /// kernel instead: two measurements at once would skew each other's
  /// times). The claim ends with record or release.
  bool claim(const TuningClass &tuning);
  void release(const TuningClass &tuning);

  /// Keeps what `measurement` of `candidates` (measureKernels) chose for
  /// `tuning`, in memory and in the kernel store, and ends the claim;
  /// a measurement without seconds (none was made) only ends it.
  void record(const TuningClass &tuning, llvm::ArrayRef<KernelKey> candidates,
              const Measurement &measurement);

  /// Classes measured, and records read from disk, since the process
  /// started.
  std::atomic<int64_t> measured{0}, loaded{0};

private:
  KernelTuner() = default;
  struct Hash {
    size_t operator()(const TuningClass &c) const;
  };
  std::mutex mu;
  /// Records by class; none: not on disk either (read once).
  std::unordered_map<TuningClass, std::optional<TuningRecord>, Hash> records;
  /// The classes being measured now.
  std::unordered_set<TuningClass, Hash> claimed;
};

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELTUNER_H
