//===- GatherLoads.h - How row gathers read data ----------------*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOLOOPS_GATHERLOADS_H
#define GATHER_CONVERSION_GATHERTOLOOPS_GATHERLOADS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::gather {

/// How a row of gather_elements (or of gather along the last axis) reads
/// data: hardware vector gathers; one scalar load per lane of a vector of
/// subscripts, which is faster where gathers are slow (AMD Zen, and Intel
/// cores with the Gather Data Sampling microcode mitigation); or one element
/// an iteration (index, subscript, load and store each scalar), whose reads
/// overlap best where they leave an Intel core's caches. `Auto` decides from
/// the target the code is compiled for (the `target-cpu` option), never from
/// the machine that compiles it; `AutoScalar` is `Auto` on a target whose
/// gathers are slow for a reason its CPU name does not tell (the Gather
/// Data Sampling mitigation in microcode): scalar loads where `Auto` would
/// pick vector gathers.
enum class GatherLoads { Auto, Vector, Scalar, Element, AutoScalar };

/// Rows gathered from a data axis of at least this many bytes read one
/// element an iteration when they are sparse (kElementLoadsMaxDensity), on
/// any CPU but AMD Zen: their reads leave the core's caches, where
/// independent scalar chains overlap best; below this, rows stay in the
/// caches and lose. On AMD Zen one scalar load a lane is always better.
/// Evidence: docs/decisions/kernel-cost-model.md, "How rows read data".
inline constexpr int64_t kElementLoadsMinAxisBytes = 128 << 10;

/// ... and only rows that read at most one element in this many of the
/// axis: denser rows reuse the lines they read, and vector gathers win
/// (the same page).
inline constexpr int64_t kElementLoadsMaxDensity = 512;

/// Vector gathers of elements narrower than this many bytes have no
/// instruction (x86's gather 32- and 64-bit elements): LLVM splits them
/// into a load and a branch a lane, and one scalar load a lane wins.
/// Evidence: docs/decisions/kernel-cost-model.md, "How rows read data".
inline constexpr int64_t kVectorGatherMinElementBytes = 4;

/// What `Auto` means for the LLVM CPU name `targetCpu` and, when known, the
/// bytes of a data element, the bytes along the gathered data axis and the
/// bytes a row reads (its elements'; unknown: any): Scalar on AMD Zen
/// (`znver*`); on any other CPU and none (a generic target), Element for
/// axes of at least kElementLoadsMinAxisBytes whose rows read at most one
/// element in kElementLoadsMaxDensity, else Scalar for elements narrower
/// than kVectorGatherMinElementBytes, else Vector. `AutoScalar`: Scalar
/// where `Auto` gives Vector.
GatherLoads resolveGatherLoads(GatherLoads loads, llvm::StringRef targetCpu,
                               std::optional<int64_t> elementBytes = {},
                               std::optional<int64_t> axisBytes = {},
                               std::optional<int64_t> rowBytes = {});

/// The option's spelling of `loads` (`vector`, `scalar`, ...), as
/// `gather-loads` takes it.
llvm::StringRef stringifyGatherLoads(GatherLoads loads);

// The host's value and what it resolves to for a JIT are the runtime's host
// policy (gather/Runtime/KernelPolicy.h).

} // namespace mlir::gather

#endif // GATHER_CONVERSION_GATHERTOLOOPS_GATHERLOADS_H
