//===- GatherPasses.td - Every gather pass, for the docs ---*- tablegen -*-===//
//
// Input of `mlir-tblgen -gen-pass-doc` for docs/GatherPasses.md: the
// dialect's transformation passes, the passes on upstream ops the pipeline
// needs, the conversions and the gather-to-llvm pipeline in one page.
//
//===----------------------------------------------------------------------===//

include "gather/Dialect/Gather/Transforms/Passes.td"
include "gather/Transforms/Passes.td"
include "gather/Conversion/Passes.td"
include "gather/Pipelines/Passes.td"
