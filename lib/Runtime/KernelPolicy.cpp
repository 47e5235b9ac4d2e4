//===- KernelPolicy.cpp - Which kernel a call on this host gets -----------===//

#include "gather/Runtime/KernelPolicy.h"
#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Runtime/KernelJit.h"
#include "gather/Runtime/OpenMPRuntime.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"

#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::runtime;

//===----------------------------------------------------------------------===//
// The host
//===----------------------------------------------------------------------===//

int64_t mlir::gather::runtime::parallelMinBytesForThreads(int64_t threads) {
  if (threads < 2)
    return std::numeric_limits<int64_t>::max();
  if (threads >
      std::numeric_limits<int64_t>::max() / kParallelMinBytesPerThread)
    return std::numeric_limits<int64_t>::max();
  return kParallelMinBytesPerThread * threads;
}

int64_t mlir::gather::runtime::getHostParallelMinBytes() {
  static const int64_t bytes = [] {
    // libomp's team size (a malformed OMP_NUM_THREADS never reaches
    // libomp: loadOpenMP refuses it first), else one thread per CPU of the
    // process's affinity mask.
    unsigned threads = getOpenMPTeamSize().value_or(
        llvm::hardware_concurrency().compute_thread_count());
    return parallelMinBytesForThreads(threads);
  }();
  return bytes;
}

GatherLoads mlir::gather::runtime::getHostGatherLoadsOption() {
  // "Mitigation: Microcode" makes every gather instruction slow, which the
  // CPU's name does not tell: auto-scalar.
  static const GatherLoads loads = [] {
    auto status = llvm::MemoryBuffer::getFile(
        "/sys/devices/system/cpu/vulnerabilities/gather_data_sampling",
        /*IsText=*/true);
    return status && (*status)->getBuffer().contains("Microcode")
               ? GatherLoads::AutoScalar
               : GatherLoads::Auto;
  }();
  return loads;
}

GatherLoads
mlir::gather::runtime::getHostGatherLoads(std::optional<int64_t> elementBytes,
                                          std::optional<int64_t> axisBytes,
                                          std::optional<int64_t> rowBytes) {
  static const std::string cpu = llvm::sys::getHostCPUName().str();
  return resolveGatherLoads(getHostGatherLoadsOption(), cpu, elementBytes,
                            axisBytes, rowBytes);
}

GatherToLLVMOptions
mlir::gather::runtime::getHostLoweringOptions(bool parallel) {
  const HostTarget &host = HostTarget::get();
  GatherToLLVMOptions options;
  options.parallel = parallel;
  options.parallelMinBytes = getHostParallelMinBytes();
  // The lowering's own rule from target-cpu, with scalar loads where the
  // host's microcode makes gathers slow (which only the host tells).
  options.gatherLoads = getHostGatherLoadsOption();
  options.targetCpu = host.cpu;
  options.vectorBits = host.vectorBits();
  return options;
}

//===----------------------------------------------------------------------===//
// A call
//===----------------------------------------------------------------------===//

bool mlir::gather::runtime::streamsResult(int64_t bytes) {
  static const int64_t minBytes = GatherLoweringOptions().streamingMinBytes;
  return minBytes >= 0 && bytes >= minBytes;
}

bool mlir::gather::runtime::buffersCheckedOut(bool parallel, int64_t indexBytes,
                                              int64_t resultBytes) {
  constexpr int64_t kMinIndexBytes = 16 << 20;
  return !parallel && indexBytes >= kMinIndexBytes &&
         indexBytes / 2 >= resultBytes && !streamsResult(resultBytes);
}

/// The bytes of an array of `shape` and `elementBytes` (saturated).
static int64_t bytesOf(llvm::ArrayRef<int64_t> shape, int64_t elementBytes) {
  int64_t bytes = elementBytes;
  for (int64_t size : shape)
    if (llvm::MulOverflow(bytes, size, bytes))
      return std::numeric_limits<int64_t>::max();
  return bytes;
}

/// Sets `key`'s measured fields, and streaming stores as they go with its
/// loads: a result of `resultBytes` streams from streaming-min-bytes on,
/// unless its rows read one element an iteration, which never stream.
/// Without streaming, the kernel has no streaming copies to compile.
static void setVariant(KernelKey &key, KernelVariant variant,
                       int64_t resultBytes) {
  variant.applyTo(key);
  bool streaming =
      static_cast<GatherLoads>(variant.loads) != GatherLoads::Element &&
      streamsResult(resultBytes);
  key.flags = (key.flags & ~KernelKey::Streaming) |
              (streaming ? KernelKey::Streaming : 0);
}

static KernelVariant loadsVariant(GatherLoads loads) {
  return {static_cast<uint8_t>(loads), KernelKey::Threshold};
}

static KernelVariant blocksVariant(bool blocks) {
  return {0, blocks ? KernelKey::Always : KernelKey::Never};
}

/// Rows gathered one element an iteration are a candidate only from a data
/// axis of this many bytes: shorter axes stay in the core's caches, where
/// such rows lose to either vector form
/// (docs/decisions/kernel-cost-model.md, "How rows read data").
static constexpr int64_t kElementCandidateMinAxisBytes = 32 << 10;

/// The loads a call measures, `model` (the cost model's) first: vector
/// gathers where the host has them (on x86, AVX2; elsewhere they are
/// measured too), scalar loads a lane, and one element an iteration along
/// an axis of `axisBytes` of at least kElementCandidateMinAxisBytes.
static llvm::SmallVector<GatherLoads, kMaxCandidates>
candidateLoads(GatherLoads model, int64_t axisBytes) {
  static_assert(kMaxCandidates >= 3, "a class has up to three loads");
  const HostTarget &host = HostTarget::get();
  bool x86 = llvm::StringRef(host.triple).starts_with("x86_64");
  llvm::SmallVector<GatherLoads, kMaxCandidates> loads{model};
  for (GatherLoads other :
       {GatherLoads::Scalar, GatherLoads::Vector, GatherLoads::Element}) {
    if (other == model ||
        (other == GatherLoads::Vector && x86 &&
         !llvm::StringRef(host.features).contains("+avx2")) ||
        (other == GatherLoads::Element &&
         axisBytes < kElementCandidateMinAxisBytes))
      continue;
    loads.push_back(other);
  }
  return loads;
}

GatherKernelChoice
mlir::gather::runtime::chooseGatherKernel(const GatherCall &call) {
  const GatherShape &shape = *call.shape;
  int64_t itemBytes = call.dataElementBytes;
  int64_t resultBytes = bytesOf(call.resultShape, itemBytes);
  int64_t indexBytes = bytesOf(call.indices.getShape(), call.indexElementBytes);
  int64_t dataRank = call.data.getRank();
  int64_t indexRank = call.indices.getRank();
  GatherKernelChoice choice;
  // Threads for results of at least the host's parallel-min-bytes: a
  // parallel kernel runs threads only, a smaller result gets a serial
  // kernel, which compiles in about half the time.
  bool parallel = resultBytes >= getHostParallelMinBytes();
  // Rows gathered along the last axis from C-contiguous operands.
  bool rows = shape.readsRowsAlongLastAxis(dataRank, indexRank) &&
              call.dataContiguous && call.indicesContiguous;
  // gather_elements along an axis before the last from C-contiguous data;
  // with C-contiguous indices too, its result rows read across the data
  // rows of the axis.
  bool elementsOffAxis = call.op == OpKind::Elements &&
                         shape.axis < dataRank - 1 && call.dataContiguous;
  bool acrossRows = elementsOffAxis && call.indicesContiguous;
  // The gathered axis's size (gather and gather_elements; 0 for
  // gather_nd).
  int64_t axisSize =
      call.op != OpKind::ND ? call.data.getDimSize(shape.axis) : 0;
  choice.bufferResult = call.op == OpKind::Elements &&
                        call.mode == GatherMode::check &&
                        call.intoCallerResult && rows &&
                        buffersCheckedOut(parallel, indexBytes, resultBytes);
  // How rows read data: the cost model's choice for the axis's length
  // (along the last axis) and the rows' (the result's last dim); 0 for
  // kernels without such rows (strided operands read one element at a time
  // anyway).
  GatherLoads loads =
      rows || acrossRows
          ? getHostGatherLoads(
                itemBytes,
                rows ? std::optional<int64_t>(axisSize * itemBytes)
                     : std::nullopt,
                call.resultShape.back() * itemBytes)
          : GatherLoads::Auto;
  // Row validation only changes check-mode gather_elements kernels; other
  // kernels keep one key for both kinds of result.
  bool ownResult = !call.intoCallerResult || choice.bufferResult;
  bool validateRows = ownResult && call.op == OpKind::Elements &&
                      call.mode == GatherMode::check;
  KernelKey &key = choice.key;
  key.op = call.op;
  key.mode = static_cast<uint8_t>(call.mode);
  key.dataBytes = call.dataElementBytes;
  key.indexBytes = call.indexElementBytes;
  key.dataRank = dataRank;
  key.indexRank = indexRank;
  key.axis = shape.axis;
  key.batchDims = shape.batchDims;
  key.tupleSize = call.op == OpKind::ND ? shape.tupleSize : 0;
  // Short rows of data copied whole get a kernel for their length, in
  // results large enough to pay for its compile (kStaticRowMaxBytes).
  if (shape.readsDataRows(dataRank) && call.dataContiguous &&
      resultBytes >= kStaticRowMinResultBytes &&
      call.resultShape.back() * itemBytes <= kStaticRowMaxBytes)
    key.rowLength = call.resultShape.back();
  // Short last dims likewise, whatever reads them. A gather's one short
  // vector of indices, shared by every row before the axis, is static at
  // any size: its subscripts are resolved once, not once a row.
  int64_t indexLast = indexRank ? call.indices.getShape().back() : 0;
  bool sharedIndices = call.op == OpKind::Gather && indexRank == 1 &&
                       shape.batchDims == 0 && shape.axis > 0;
  if (call.op != OpKind::ND &&
      (sharedIndices || resultBytes >= kStaticRowMinResultBytes) &&
      indexLast > 0 && indexLast <= kStaticDimMaxLength)
    key.indexRowLength = indexLast;
  if (resultBytes >= kStaticRowMinResultBytes) {
    int64_t dataLast = dataRank ? call.data.getShape().back() : 0;
    if (!key.rowLength && dataLast > 0 && dataLast <= kStaticDimMaxLength)
      key.rowLength = dataLast;
    // A short gathered axis before the last: its subscripts fold.
    if (shape.axis < dataRank - 1 && axisSize > 0 &&
        axisSize <= kStaticDimMaxLength)
      key.axisLength = axisSize;
  }
  key.flags |= (parallel ? KernelKey::Parallel : 0) |
               (validateRows ? KernelKey::ValidateRows : 0) |
               (call.dataContiguous ? 0 : KernelKey::StridedData) |
               (call.indicesContiguous ? 0 : KernelKey::StridedIndices) |
               (call.unsignedIndices ? KernelKey::UnsignedIndices : 0);
  setVariant(key, loadsVariant(loads), resultBytes);
  // gather_elements along an axis before the last that may walk column
  // blocks (KernelPlanner::columnBlocks: C-contiguous data, an axis of at
  // most kColumnBlockMaxPositions positions), and where the lowering's
  // threshold would put this call.
  bool blocks = elementsOffAxis && axisSize <= kColumnBlockMaxPositions;
  static const int64_t blockMinBytes =
      GatherLoweringOptions().columnBlockMinBytes;
  bool blocksByModel = blocks && blockMinBytes >= 0 &&
                       bytesOf(call.data.getShape().drop_front(shape.axis),
                               itemBytes) >= blockMinBytes;
  int64_t dataBytes = bytesOf(call.data.getShape(), itemBytes);
  if (!(rows || acrossRows || blocks) || resultBytes < kTuneMinResultBytes ||
      axisSize == 0 || dataBytes == 0 || !isTuningEnabled())
    return choice;
  // Large calls: the variant measured for the call's class, else the
  // candidates to measure, the cost model's first.
  TuningClass tuning;
  tuning.key = key;
  setVariant(tuning.key, KernelVariant(), 0);
  tuning.axisLog2 = llvm::Log2_64(axisSize * itemBytes);
  tuning.rowLog2 = llvm::Log2_64(call.resultShape.back() * itemBytes);
  tuning.dataLog2 = llvm::Log2_64(dataBytes);
  tuning.resultLog2 = llvm::Log2_64(resultBytes);
  choice.tuning = tuning;
  llvm::SmallVector<KernelVariant, kMaxCandidates> variants;
  if (rows) {
    for (GatherLoads candidate : candidateLoads(loads, axisSize * itemBytes))
      variants.push_back(loadsVariant(candidate));
  } else if (acrossRows) {
    // The cost model's loads and blocks, the other vector form's loads,
    // then the cost model's loads with the other blocks (or, where there
    // are no blocks, one element an iteration).
    auto variant = [&](GatherLoads rowLoads, bool withBlocks) {
      KernelVariant v = loadsVariant(rowLoads);
      if (blocks)
        v.columnBlocks = blocksVariant(withBlocks).columnBlocks;
      return v;
    };
    for (GatherLoads candidate : candidateLoads(loads, /*axisBytes=*/0))
      variants.push_back(variant(candidate, blocksByModel));
    KernelVariant last = blocks ? variant(loads, !blocksByModel)
                                : variant(GatherLoads::Element, false);
    if (variants.size() < kMaxCandidates && !llvm::is_contained(variants, last))
      variants.push_back(last);
  } else {
    variants = {blocksVariant(blocksByModel), blocksVariant(!blocksByModel)};
  }
  // A record is taken only when it chose one of these candidates (a record
  // from disk could name anything); else the class measures again and
  // replaces it.
  choice.record = KernelTuner::get().find(tuning);
  if (choice.record && !llvm::is_contained(variants, choice.record->chosen))
    choice.record.reset();
  setVariant(key, choice.record ? choice.record->chosen : variants[0],
             resultBytes);
  if (!choice.record)
    for (KernelVariant variant : variants) {
      KernelKey candidate = key;
      setVariant(candidate, variant, resultBytes);
      choice.candidates.push_back(candidate);
    }
  return choice;
}

bool mlir::gather::runtime::reducesOnThreads(int64_t values) {
  return values * 4 >= getHostParallelMinBytes();
}

GatherToLLVMOptions
mlir::gather::runtime::getKernelLoweringOptions(const KernelKey &key) {
  // gather-to-llvm for this host, threads and row validation as the key
  // says.
  GatherToLLVMOptions options =
      getHostLoweringOptions((key.flags & KernelKey::Parallel) != 0);
  options.validateRows = (key.flags & KernelKey::ValidateRows) != 0;
  // A parallel key is only chosen for results of at least the lowering's
  // parallel-min-bytes, so its kernel is all threaded loops: without the
  // serial nest beside them a new parallel kernel compiles faster
  // (docs/decisions/compile-time.md).
  if (options.parallel)
    options.parallelMinBytes = 0;
  if (!(key.flags & KernelKey::Streaming))
    options.streamingMinBytes = -1;
  if (key.loads)
    options.gatherLoads = static_cast<GatherLoads>(key.loads);
  if (key.columnBlocks == KernelKey::Always)
    options.columnBlockMinBytes = 0;
  if (key.columnBlocks == KernelKey::Never)
    options.columnBlockMinBytes = -1;
  return options;
}

GatherToLLVMOptions
mlir::gather::runtime::getKernelLoweringOptions(bool parallel) {
  GatherToLLVMOptions options = getHostLoweringOptions(parallel);
  // As a parallel gather key: every loop that may run on threads does,
  // whatever OMP_NUM_THREADS says (the kernel's description does not name
  // it).
  if (parallel)
    options.parallelMinBytes = 0;
  return options;
}
