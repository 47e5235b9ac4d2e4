//===- KernelPolicy.h - Which kernel a call on this host gets ---*- C++ -*-===//
//
// Every choice a host that compiles for itself makes about a kernel, in one
// place: the host's (threads from how many OpenMP starts here, how rows read
// data on this CPU) and the call's (threads, streaming stores, row
// validation, a kernel for a short row's length). chooseGatherKernel turns a
// call into the key of its kernel; getKernelLoweringOptions turns a key into
// the gather-to-llvm options it is compiled with. The lowering's own choices
// inside a kernel are the cost model's (KernelCostModel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELPOLICY_H
#define GATHER_RUNTIME_KERNELPOLICY_H

#include "gather/Conversion/GatherToLoops/GatherLoads.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Runtime/KernelKey.h"
#include "gather/Runtime/KernelTuner.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace mlir::gather::runtime {

//===----------------------------------------------------------------------===//
// The host
//===----------------------------------------------------------------------===//

/// A threaded gather gives every thread at least this many bytes of the
/// result: waking sleeping workers costs about what a row copy of 512 KiB
/// takes, and a region waits for its slowest thread.
/// Evidence: docs/decisions/kernel-cost-model.md, "Threads".
inline constexpr int64_t kParallelMinBytesPerThread = 512 << 10;

/// parallel-min-bytes for `threads` threads: kParallelMinBytesPerThread
/// each; below two threads, never (INT64_MAX).
int64_t parallelMinBytesForThreads(int64_t threads);

/// parallel-min-bytes for hosts that compile for themselves (a JIT), with
/// the threads OpenMP starts here: getOpenMPTeamSize, else the CPUs this
/// process may run on. Read once.
int64_t getHostParallelMinBytes();

/// The `gather-loads` value for code compiled for the machine this process
/// runs on (a JIT, whose `target-cpu` names it): `AutoScalar` when /sys
/// reports the Gather Data Sampling mitigation in microcode, else `Auto`.
/// Read once.
GatherLoads getHostGatherLoadsOption();

/// What that value resolves to here (resolveGatherLoads with the host's CPU
/// name; never an `Auto`): Scalar on AMD Zen; elsewhere Element as
/// resolveGatherLoads says, else Scalar under the mitigation or for
/// elements of fewer than four bytes, else Vector.
GatherLoads getHostGatherLoads(std::optional<int64_t> elementBytes = {},
                               std::optional<int64_t> axisBytes = {},
                               std::optional<int64_t> rowBytes = {});

/// gather-to-llvm's options for code that runs here: the lowering's
/// choices are this CPU's (the JIT compiles for the machine it runs on),
/// with threads when `parallel` (from getHostParallelMinBytes on).
GatherToLLVMOptions getHostLoweringOptions(bool parallel);

//===----------------------------------------------------------------------===//
// A call
//===----------------------------------------------------------------------===//

/// Results whose rows are short rows of data (GatherShape::readsDataRows,
/// from C-contiguous data, at most this many bytes a row)...
inline constexpr int64_t kStaticRowMaxBytes = 256;
/// ...and that have at least this many bytes get a kernel for their row
/// length: its row copy is a few whole vectors instead of a loop of a
/// run-time trip count and a masked tail. Smaller results would compile a
/// kernel for each row length to save a few microseconds.
/// Evidence: docs/decisions/kernel-cost-model.md, "Kernels for short row
/// lengths".
inline constexpr int64_t kStaticRowMinResultBytes = 16 << 10;

/// Results of at least kStaticRowMinResultBytes whose data or indices end
/// in a dim of at most this many elements, or whose data's gathered axis
/// has at most this many, get a kernel for that length: the loops over it
/// unroll, and along a gathered axis of a few elements the mode's
/// subscripts fold. A gather's one vector of at most this many indices,
/// shared by every row before its axis, gets one at any size: its
/// subscripts are then resolved once, not once a row. Evidence:
/// docs/decisions/kernel-cost-model.md, "Kernels for short last dims".
inline constexpr int64_t kStaticDimMaxLength = 16;

/// Whether a result of `bytes` is written with streaming stores: from the
/// lowering's streaming-min-bytes on (rows permitting).
bool streamsResult(int64_t bytes);

/// Whether a check-mode gather_elements along the last axis into a caller's
/// result computes into a result of its own and copies it over, rather than
/// scanning every index before it writes the caller's (which stays
/// untouched on failure either way): where the scan is serial, reads at
/// least twice the result's bytes and more than the last-level cache keeps,
/// and the result is not streamed (the copy would read it back from
/// memory). Evidence: docs/decisions/kernel-cost-model.md, "The check scan
/// on threads".
bool buffersCheckedOut(bool parallel, int64_t indexBytes, int64_t resultBytes);

/// A gather, gather_elements or gather_nd a host is about to run.
struct GatherCall {
  OpKind op = OpKind::Gather;
  /// The mode the kernel runs.
  GatherMode mode = GatherMode::check;
  /// The operands' shapes and element sizes in bytes; whether they are
  /// C-contiguous (else strided).
  ShapeView data, indices;
  int64_t dataElementBytes = 0, indexElementBytes = 0;
  bool dataContiguous = true, indicesContiguous = true;
  /// The indices are unsigned integers (of fewer than 8 bytes).
  bool unsignedIndices = false;
  /// What the op's shape rules make of them (inferGatherShape & co.) and
  /// the result's shape (GatherShape::getStaticShape).
  const GatherShape *shape = nullptr;
  llvm::ArrayRef<int64_t> resultShape;
  /// The kernel would write into an array the caller keeps (an `out`
  /// that overlaps no operand); else into memory of the call's own, which
  /// no one sees when the call fails.
  bool intoCallerResult = false;

  GatherCall(ShapeView data, ShapeView indices)
      : data(data), indices(indices) {}
};

/// The kernel a call gets.
struct GatherKernelChoice {
  KernelKey key;
  /// The call computes into a result of its own and copies it into the
  /// caller's (buffersCheckedOut); only set for intoCallerResult calls.
  bool bufferResult = false;
  /// The class of calls whose kernel choices are measured (into results
  /// of at least kTuneMinResultBytes: rows gathered along the last axis,
  /// their loads; gather_elements before the last axis, column blocks), if
  /// the call is of one and tuning is on (isTuningEnabled).
  std::optional<TuningClass> tuning;
  /// Its measurement on this host, which `key` follows; none yet: the
  /// cost model's choice, and the call measures `candidates`.
  std::optional<TuningRecord> record;
  /// The keys to measure, the cost model's first (empty unless the call
  /// measures).
  llvm::SmallVector<KernelKey, kMaxCandidates> candidates;
};

/// The kernel for `call` on this host: its key (threads, streaming stores,
/// row validation, how rows read data, a short row's length) and whether
/// the result goes through a buffer of the call's own. How rows read data
/// is the measured choice for the call's class (KernelTuner), else the
/// cost model's (getHostGatherLoads).
GatherKernelChoice chooseGatherKernel(const GatherCall &call);

/// Whether an embedding bag's kernel that reduces or produces `values` f32
/// values runs on threads: their bytes against the host's threshold for
/// gathers (getHostParallelMinBytes).
bool reducesOnThreads(int64_t values);

/// gather-to-llvm's options for the kernel of `key` on this host: threads,
/// row validation and streaming as its flags say, `gather-loads` as its
/// loads.
GatherToLLVMOptions getKernelLoweringOptions(const KernelKey &key);

/// The same for a kernel that is not a gather's (KernelCache::load), lowered
/// with threads when `parallel`.
GatherToLLVMOptions getKernelLoweringOptions(bool parallel);

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELPOLICY_H
