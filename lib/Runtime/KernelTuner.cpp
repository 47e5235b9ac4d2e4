//===- KernelTuner.cpp - Kernel choices measured on the host --------------===//
//
// A record on disk is a kernel store entry (KernelStore.h) whose key is
// KernelCache::getStoreKey("choice " + the class) and whose payload is text:
//
//   chosen <loads> <columnBlocks>
//   <loads> <columnBlocks> <seconds>      (one line a candidate)
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/KernelTuner.h"
#include "gather/Conversion/GatherToLoops/GatherLoads.h"
#include "gather/Runtime/KernelCache.h"
#include "gather/Runtime/KernelStore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>

using namespace mlir::gather::runtime;

bool mlir::gather::runtime::isTuningEnabled() {
  const char *value = std::getenv("GATHER_MLIR_TUNE");
  return !value ||
         (std::strcmp(value, "0") != 0 && std::strcmp(value, "off") != 0);
}

std::string KernelVariant::describe() const {
  std::string blocks = columnBlocks == KernelKey::Always  ? "column blocks"
                       : columnBlocks == KernelKey::Never ? "rows"
                                                          : "";
  if (!loads)
    return blocks.empty() ? "threshold" : blocks;
  std::string rowLoads =
      stringifyGatherLoads(static_cast<GatherLoads>(loads)).str();
  return blocks.empty() ? rowLoads : rowLoads + ", " + blocks;
}

std::string TuningClass::describe() const {
  return key.describe() + " axis 2^" + std::to_string(axisLog2) + "B row 2^" +
         std::to_string(rowLog2) + "B data 2^" + std::to_string(dataLog2) +
         "B result 2^" + std::to_string(resultLog2) + "B";
}

//===----------------------------------------------------------------------===//
// Measuring
//===----------------------------------------------------------------------===//

/// One run of `kernel`: its seconds, or its error.
static double timeRun(KernelFn kernel, bool openMP, void *data, void *indices,
                      void *result, KernelErrorRecord &error) {
  KernelCall call(/*threaded=*/false, openMP);
  auto start = std::chrono::steady_clock::now();
  kernel(data, indices, result);
  auto end = std::chrono::steady_clock::now();
  error = call.take();
  return std::chrono::duration<double>(end - start).count();
}

std::optional<size_t> mlir::gather::runtime::nextCandidateToObtain(
    llvm::ArrayRef<KernelKey> candidates) {
  KernelCache &cache = KernelCache::get();
  for (size_t k = 0; k < candidates.size(); ++k)
    if (!cache.find(candidates[k]))
      return k;
  return std::nullopt;
}

Measurement
mlir::gather::runtime::measureKernels(llvm::ArrayRef<KernelFn> kernels,
                                      bool openMP, void *data, void *indices,
                                      void *result) {
  Measurement m;
  size_t n = kernels.size();
  // One untimed run of each warms the caches, the result's pages and the
  // kernel's code.
  double warm = 0;
  for (size_t k = 0; k < n; ++k) {
    double t = timeRun(kernels[k], openMP, data, indices, result, m.error);
    if (m.error.kind != KernelErrorRecord::None ||
        (k == 0 && t > kTuneMaxRunSeconds))
      return m;
    warm += t;
  }
  int64_t rounds = std::clamp<int64_t>(
      static_cast<int64_t>(kTuneBudgetSeconds / (warm + 1e-9)), 1, 5);
  m.seconds.assign(n, std::numeric_limits<double>::infinity());
  for (int64_t r = 0; r < rounds; ++r) {
    for (size_t j = 0; j < n; ++j) {
      size_t k = (j + r) % n;
      double t = timeRun(kernels[k], openMP, data, indices, result, m.error);
      if (m.error.kind != KernelErrorRecord::None) {
        m.seconds.clear();
        return m;
      }
      m.seconds[k] = std::min(m.seconds[k], t);
    }
  }
  size_t fastest =
      std::min_element(m.seconds.begin(), m.seconds.end()) - m.seconds.begin();
  m.chosen =
      m.seconds[fastest] < m.seconds[0] * (1 - kTuneMinGain) ? fastest : 0;
  return m;
}

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

KernelTuner &KernelTuner::get() {
  static KernelTuner *tuner = new KernelTuner;
  return *tuner;
}

size_t KernelTuner::Hash::operator()(const TuningClass &c) const {
  uint32_t sizes;
  std::memcpy(&sizes, &c.axisLog2, sizeof(sizes));
  return c.key.hash() ^ (sizes * 0x9e3779b97f4a7c15ULL);
}

static std::string storeKeyOf(const TuningClass &tuning) {
  return KernelCache::getStoreKey("choice " + tuning.describe());
}

/// A variant from its two numbers (`<loads> <columnBlocks>`), the rest of
/// `text` left in it; none if they are not bytes.
static std::optional<KernelVariant> parseVariant(llvm::StringRef &text) {
  unsigned loads, blocks;
  if (text.consumeInteger(10, loads) || loads > 255 ||
      !text.consume_front(" ") || text.consumeInteger(10, blocks) ||
      blocks > 255)
    return std::nullopt;
  return KernelVariant{static_cast<uint8_t>(loads),
                       static_cast<uint8_t>(blocks)};
}

/// A record from its payload; none if it is malformed.
static std::optional<TuningRecord> parseRecord(llvm::StringRef text) {
  TuningRecord record;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty() || !lines[0].consume_front("chosen "))
    return std::nullopt;
  std::optional<KernelVariant> chosen = parseVariant(lines[0]);
  if (!chosen || !lines[0].empty())
    return std::nullopt;
  record.chosen = *chosen;
  for (llvm::StringRef line : llvm::drop_begin(lines)) {
    std::optional<KernelVariant> variant = parseVariant(line);
    double seconds;
    if (!variant || !line.consume_front(" ") || line.getAsDouble(seconds))
      return std::nullopt;
    record.seconds.push_back({*variant, seconds});
  }
  return record;
}

std::optional<TuningRecord> KernelTuner::find(const TuningClass &tuning) {
  std::lock_guard<std::mutex> lock(mu);
  auto it = records.find(tuning);
  if (it != records.end())
    return it->second;
  std::optional<TuningRecord> record;
  if (std::optional<std::string> dir = getKernelStoreDir()) {
    StoredKernel entry;
    if (readStoredKernel(*dir, storeKeyOf(tuning), entry) ==
        StoreReadResult::Found)
      record = parseRecord(entry.object->getBuffer());
    if (record)
      ++loaded;
  }
  records.emplace(tuning, record);
  return record;
}

bool KernelTuner::claim(const TuningClass &tuning) {
  std::lock_guard<std::mutex> lock(mu);
  return claimed.insert(tuning).second;
}

void KernelTuner::release(const TuningClass &tuning) {
  std::lock_guard<std::mutex> lock(mu);
  claimed.erase(tuning);
}

void KernelTuner::record(const TuningClass &tuning,
                         llvm::ArrayRef<KernelKey> candidates,
                         const Measurement &measurement) {
  if (measurement.seconds.size() != candidates.size() ||
      measurement.chosen >= candidates.size()) {
    release(tuning);
    return;
  }
  TuningRecord record;
  record.chosen = KernelVariant::of(candidates[measurement.chosen]);
  for (auto [candidate, seconds] : llvm::zip(candidates, measurement.seconds))
    record.seconds.push_back({KernelVariant::of(candidate), seconds});
  std::string text;
  llvm::raw_string_ostream os(text);
  auto print = [&](const KernelVariant &v) {
    os << unsigned(v.loads) << " " << unsigned(v.columnBlocks);
  };
  os << "chosen ";
  print(record.chosen);
  os << "\n";
  for (const auto &[variant, seconds] : record.seconds) {
    print(variant);
    os << " " << llvm::format("%.9g", seconds) << "\n";
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    records[tuning] = record;
    claimed.erase(tuning);
    ++measured;
  }
  if (std::optional<std::string> dir = getKernelStoreDir())
    writeStoredKernel(*dir, storeKeyOf(tuning), /*flags=*/0,
                      llvm::ArrayRef<char>(text.data(), text.size()));
}
