//===- GatherLoads.h - How row gathers read data ----------------*- C++ -*-===//

#ifndef GATHER_CONVERSION_GATHERTOAFFINE_GATHERLOADS_H
#define GATHER_CONVERSION_GATHERTOAFFINE_GATHERLOADS_H

#include "llvm/ADT/StringRef.h"

namespace mlir::gather {

/// How a row of gather_elements (or of gather along the last axis) reads
/// data: hardware vector gathers, or one scalar load per element, which is
/// faster where gathers are slow (AMD Zen, and Intel cores with the Gather
/// Data Sampling microcode mitigation). `Auto` decides from the target the
/// code is compiled for (the `target-cpu` option), never from the machine
/// that compiles it.
enum class GatherLoads { Auto, Vector, Scalar };

/// What `Auto` means for the LLVM CPU name `targetCpu`: Scalar on AMD Zen
/// (`znver*`), Vector for any other CPU and for none (a generic target).
GatherLoads resolveGatherLoads(GatherLoads loads, llvm::StringRef targetCpu);

/// The choice for the machine this process runs on, for hosts that compile
/// for themselves (a JIT): Scalar on AMD Zen and when /sys reports the Gather
/// Data Sampling mitigation in microcode, else Vector.
GatherLoads getHostGatherLoads();

} // namespace mlir::gather

#endif // GATHER_CONVERSION_GATHERTOAFFINE_GATHERLOADS_H
