//===- GatherLoads.cpp - How row gathers read data --------------*- C++ -*-===//

#include "gather/Conversion/GatherToAffine/GatherLoads.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir::gather;

/// `cpu`'s choice, or Element for sparse rows of a long axis.
static GatherLoads forAxis(GatherLoads cpu, std::optional<int64_t> axisBytes,
                           std::optional<int64_t> rowBytes) {
  if (axisBytes && *axisBytes >= kElementLoadsMinAxisBytes &&
      (!rowBytes || *rowBytes <= *axisBytes / kElementLoadsMaxDensity))
    return GatherLoads::Element;
  return cpu;
}

GatherLoads mlir::gather::resolveGatherLoads(
    GatherLoads loads, llvm::StringRef targetCpu,
    std::optional<int64_t> axisBytes, std::optional<int64_t> rowBytes) {
  if (loads == GatherLoads::AutoScalar)
    return forAxis(GatherLoads::Scalar, axisBytes, rowBytes);
  if (loads != GatherLoads::Auto)
    return loads;
  return forAxis(targetCpu.starts_with("znver") ? GatherLoads::Scalar
                                                : GatherLoads::Vector,
                 axisBytes, rowBytes);
}

GatherLoads
mlir::gather::getHostGatherLoads(std::optional<int64_t> axisBytes,
                                 std::optional<int64_t> rowBytes) {
  static const GatherLoads host = [] {
    if (llvm::sys::getHostCPUName().starts_with("znver"))
      return GatherLoads::Scalar;
    // "Mitigation: Microcode" makes every gather instruction slow.
    auto status = llvm::MemoryBuffer::getFile(
        "/sys/devices/system/cpu/vulnerabilities/gather_data_sampling",
        /*IsText=*/true);
    if (status && (*status)->getBuffer().contains("Microcode"))
      return GatherLoads::Scalar;
    return GatherLoads::Vector;
  }();
  return forAxis(host, axisBytes, rowBytes);
}
