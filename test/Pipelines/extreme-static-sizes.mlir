// RUN: gather-opt %s --split-input-file --canonicalize -o /dev/null
// RUN: gather-opt %s --split-input-file --gather-shape-inference -o /dev/null
// RUN: gather-opt %s --split-input-file --convert-gather-to-loops -o /dev/null
// RUN: gather-opt %s --split-input-file --convert-gather-to-loops="parallel=true" -o /dev/null
// RUN: gather-opt %s --split-input-file --gather-to-llvm -o /dev/null

// Static sizes at the edges (empty dims, dims whose products overflow
// int64): every pass succeeds or says why, and never crashes. Each case is
// a gather-fuzz finding.

//
// A gather-fuzz finding, fixed (--canonicalize): with constant contiguous indices and a data dim of size 0,
// GatherToExtractSlice (GatherFolding.cpp) builds a tensor.extract_slice that the verifier
// rejects ("offset 1 is out-of-bounds: 0 >= 0"): canonicalize succeeds with invalid IR.
func.func @c(%d: tensor<8x0xf32>)-> tensor<2x0xf32> {
  %i= arith.constant dense<[2, 3]> : tensor<2xi64>  %0 = gather.gather%d[%i] :(tensor<8x0xf32>, tensor<2xi64>) -> tensor<2x0xf32> return%0 : tensor<2x0xf32>
}

// -----

//
// A gather-fuzz finding, fixed (UBSan, KernelCostModel.cpp): the cost model
// multiplied static sizes by the element size to compare them with its byte
// thresholds, which overflows int64 for a row of INT64_MAX elements; byte
// counts now saturate.
func.func @huge_rows(%d: tensor<3x9223372036854775807xf32>, %i: tensor<2xi64>) -> tensor<2x9223372036854775807xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<3x9223372036854775807xf32>, tensor<2xi64>) -> tensor<2x9223372036854775807xf32>
  return %0 : tensor<2x9223372036854775807xf32>
}

// -----

//
// A gather-fuzz finding, fixed (--canonicalize): GatherOp::fold (GatherFolding.cpp) calls
// computeSourcePositions (GatherIndexing.cpp), which sizes a SmallVector by the result's
// element count (2 x 2^31) before any size cap: LLVM ERROR "SmallVector unable to grow", abort.
func.func @slice_wrapped_run(%d: tensor<8x2147483648xf32>) -> tensor<2x2147483648xf32> {
  %i = arith.constant dense<[2147483648, 2147483648]> : tensor<2xi64>
  %0 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<8x2147483648xf32>, tensor<2xi64>) -> tensor<2x2147483648xf32>
  return %0 : tensor<2x2147483648xf32>
}

// -----

//
// A gather-fuzz finding, fixed (--gather-to-llvm, unchecked mode): a dim of INT64_MAX (product past 2^63)
// makes the lowering SEGV inside libMLIR.so (uninstrumented, no symbols). Same family as
// lowering-huge-dims-expand-strided-metadata.mlir: shapes whose element count overflows int64.
func.func @gslics(%d: tensor<5x9223372036854775807x1x2xf32>, %i: tensor<1xi64>) -> tensor<1x9223372036854775807x1x2xf32> {  %0 = gather.gather %d[%i] {m = #gather<mode unchecked>} : (tensor<5x9223372036854775807x1x2xf32>, tensor<1xi64>) -> tensor<1x9223372036854775807x1x2xf32>
  return %0 : tensor<1x9223372036854775807x1x2xf32>
}

// -----

//
// A gather-fuzz finding, fixed (--gather-to-llvm): static dims whose product overflows int64 reach the
// memref lowering; upstream expand-strided-metadata then computes negative sizes
// ("expected sizes to be non-negative, but got -8589934592") and leaves invalid IR. Upstream
// pass, but our verifier/lowering could reject shapes whose element count overflows int64.
func.func @gather_collapses_contiguous_slices(%d: tensor<5x9223372036854775807x4294967296x2xf32>, %i: tensor<4294967296xi64>) -> tensor<4294967296x9223372036854775807x4294967296x2xf32> {
  %0 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5x9223372036854775807x4294967296x2xf32>, tensor<4294967296xi64>) -> tensor<4294967296x9223372036854775807x4294967296x2xf32>
  return %0 : tensor<4294967296x9223372036854775807x4294967296x2xf32>
}

// -----

//
// A gather-fuzz finding, fixed (UBSan): GatherShapes.cpp staticProduct multiplies static
// dims in int64_t without an overflow check; two dims of 2^32 overflow it while
// the verifier runs (at parse time). Reproduce with a sanitizer build:
// Also crashes gather-fuzz (build-fuzz/bin/gather-fuzz THIS_FILE).
func.func @f(%d: tensor<2xf32>, %i: tensor<4294967296x4294967296xi64>) {
  %0 = gather.gather %d[%i] : (tensor<2xf32>, tensor<4294967296x4294967296xi64>) -> tensor<4294967296x4294967296xf32>
  return
}

// -----

// A fill gather of a table with no rows, read by an elementwise consumer:
// the fusion leaves it to its kernel (a fused row slice at the folded
// position 0 of an empty dim did not verify; a gather-fuzz finding).
func.func @fill_empty_table_fused(%t: tensor<0x4xf32>, %ids: tensor<3xi32>, %w: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode fill>} : (tensor<0x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %r = arith.mulf %g, %w : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
