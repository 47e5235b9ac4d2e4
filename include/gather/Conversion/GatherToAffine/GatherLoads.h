//===- GatherLoads.h - How row gathers read data ----------------*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOAFFINE_GATHERLOADS_H
#define GATHER_CONVERSION_GATHERTOAFFINE_GATHERLOADS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::gather {

/// How a row of gather_elements (or of gather along the last axis) reads
/// data: hardware vector gathers, or one scalar load per element, which is
/// faster where gathers are slow (AMD Zen, and Intel cores with the Gather
/// Data Sampling microcode mitigation). `Auto` decides from the target the
/// code is compiled for (the `target-cpu` option), never from the machine
/// that compiles it.
enum class GatherLoads { Auto, Vector, Scalar };

/// Rows gathered from a data axis of at least this many bytes read with
/// scalar loads where vector gathers would be chosen: their reads leave the
/// core's caches, where scalar loads overlapped better (gather_elements of
/// 50 of every 128256 f32 (500 KiB), one thread, Intel Xeon: 9.7-11.4 us
/// against 11.0-12.6 with vector gathers; rows of 32 KiB: the same).
inline constexpr int64_t kScalarLoadsMinAxisBytes = 128 << 10;

/// What `Auto` means for the LLVM CPU name `targetCpu` and, when known, the
/// bytes along the gathered data axis: Scalar on AMD Zen (`znver*`) and for
/// axes of at least kScalarLoadsMinAxisBytes, Vector otherwise (any other
/// CPU and none: a generic target).
GatherLoads resolveGatherLoads(GatherLoads loads, llvm::StringRef targetCpu,
                               std::optional<int64_t> axisBytes = {});

/// The choice for the machine this process runs on, for hosts that compile
/// for themselves (a JIT): Scalar on AMD Zen, when /sys reports the Gather
/// Data Sampling mitigation in microcode and for axes of at least
/// kScalarLoadsMinAxisBytes, else Vector.
GatherLoads getHostGatherLoads(std::optional<int64_t> axisBytes = {});

} // namespace mlir::gather

#endif // GATHER_CONVERSION_GATHERTOAFFINE_GATHERLOADS_H
