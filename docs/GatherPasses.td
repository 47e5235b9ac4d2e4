//===- GatherPasses.td - Every gather pass, for the docs ---*- tablegen -*-===//
//
// Input of `mlir-tblgen -gen-pass-doc` for docs/GatherPasses.md: the
// dialect's transformation passes and the conversions in one page.
//
//===----------------------------------------------------------------------===//

include "gather/Dialect/Gather/Transforms/Passes.td"
include "gather/Conversion/Passes.td"
