//===- GatherLoads.cpp - How row gathers read data --------------*- C++ -*-===//

#include "gather/Conversion/GatherToLoops/GatherLoads.h"

#include "llvm/ADT/StringRef.h"

using namespace mlir::gather;

/// AMD Zen reads every row best with one scalar load per lane: its vector
/// gathers are slow, and so, unlike on Intel, is one element an iteration
/// along long axes (GatherLoads.h).
static bool isZen(llvm::StringRef cpu) { return cpu.starts_with("znver"); }

/// `cpu`'s choice, or Element for sparse rows of a long axis.
static GatherLoads forAxis(GatherLoads cpu, std::optional<int64_t> axisBytes,
                           std::optional<int64_t> rowBytes) {
  if (axisBytes && *axisBytes >= kElementLoadsMinAxisBytes &&
      (!rowBytes || *rowBytes <= *axisBytes / kElementLoadsMaxDensity))
    return GatherLoads::Element;
  return cpu;
}

GatherLoads
mlir::gather::resolveGatherLoads(GatherLoads loads, llvm::StringRef targetCpu,
                                 std::optional<int64_t> elementBytes,
                                 std::optional<int64_t> axisBytes,
                                 std::optional<int64_t> rowBytes) {
  if (loads != GatherLoads::Auto && loads != GatherLoads::AutoScalar)
    return loads;
  if (isZen(targetCpu))
    return GatherLoads::Scalar;
  bool narrow = elementBytes && *elementBytes < kVectorGatherMinElementBytes;
  return forAxis(loads == GatherLoads::AutoScalar || narrow
                     ? GatherLoads::Scalar
                     : GatherLoads::Vector,
                 axisBytes, rowBytes);
}

llvm::StringRef mlir::gather::stringifyGatherLoads(GatherLoads loads) {
  switch (loads) {
  case GatherLoads::Auto:
    return "auto";
  case GatherLoads::Vector:
    return "vector";
  case GatherLoads::Scalar:
    return "scalar";
  case GatherLoads::Element:
    return "element";
  case GatherLoads::AutoScalar:
    return "auto-scalar";
  }
  return "auto";
}
