//===- LoweringOptions.td - Options the lowerings share ----*- tablegen -*-===//
//
// The one home of the lowering options' names, defaults and descriptions:
// convert-gather-to-loops, gather-dispatch-unranked,
// convert-embedding-bag-to-scf and gather-fuse-elementwise declare theirs
// from these, and the gather-to-llvm pipeline (Pipelines/Passes.td) takes
// them all and forwards them.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_LOWERINGOPTIONS_TD
#define GATHER_CONVERSION_LOWERINGOPTIONS_TD

include "mlir/Pass/PassBase.td"

// Threads, and the result size from which a loop runs on them.
class ParallelOption<string description>
    : Option<"parallel", "parallel", "bool", /*default=*/"false",
             description>;
class ParallelMinBytesOption<string description>
    : Option<"parallelMinBytes", "parallel-min-bytes", "int64_t",
             /*default=*/"8 << 20", description>;

// convert-gather-to-loops's options (GatherLoweringOptions in C++).
defvar GatherLoweringOptionList = [
  Option<"vectorize", "vectorize", "bool", /*default=*/"true",
         "Move contiguous slices with vector operations">,
  Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
         "Bits per vector (lanes = vector-bits / element bits)">,
  ParallelOption<"Run the outermost gather loop on threads (an "
                 "scf.parallel, which gather-to-llvm maps to OpenMP)">,
  ParallelMinBytesOption<
      "With parallel: results (and, for check mode's scan, index arrays) "
      "smaller than this keep a serial loop nest (a run-time test when "
      "sizes are dynamic; 0: threads only, no serial nest)">,
  Option<"streamingMinBytes", "streaming-min-bytes", "int64_t",
         /*default=*/"40 << 20",
         "Results of at least this many bytes write rows of 256 bytes or "
         "more (2048 unless rows start vector-aligned) with non-temporal "
         "stores (-1: never)">,
  Option<"alignedRowMinBytes", "aligned-row-min-bytes", "int64_t",
         /*default=*/"512",
         "Rows copied whole of at least this many bytes store whole vectors "
         "at vector-aligned addresses, after a masked head (-1: never)">,
  Option<"memcpyRowMinBytes", "memcpy-row-min-bytes", "int64_t",
         /*default=*/"4096",
         "Rows copied whole of at least this many bytes, unless streamed, "
         "are copied by a call of the C library's memcpy (-1: never)">,
  Option<"gatherLoads", "gather-loads", "::mlir::gather::GatherLoads",
         /*default=*/"::mlir::gather::GatherLoads::Auto",
         "How rows along the last axis read data",
         [{::llvm::cl::values(
           clEnumValN(::mlir::gather::GatherLoads::Auto, "auto",
                      "scalar on AMD Zen (target-cpu); elsewhere element "
                      "for static data axes of 128 KiB or more whose rows "
                      "read at most one element in 512 (rows of unknown "
                      "length alike), else scalar for elements of fewer "
                      "than 4 bytes, else vector"),
           clEnumValN(::mlir::gather::GatherLoads::Vector, "vector",
                      "vector.gather"),
           clEnumValN(::mlir::gather::GatherLoads::Scalar, "scalar",
                      "one scalar load per lane of a vector of subscripts"),
           clEnumValN(::mlir::gather::GatherLoads::Element, "element",
                      "one element an iteration, all scalar"),
           clEnumValN(::mlir::gather::GatherLoads::AutoScalar, "auto-scalar",
                      "auto, with scalar where it would pick vector (a "
                      "target whose gathers are slow for a reason its CPU "
                      "name does not tell: the Gather Data Sampling "
                      "mitigation)"))}]>,
  Option<"targetCpu", "target-cpu", "std::string", /*default=*/"\"\"",
         "The CPU the code is for, as LLVM names it (znver4, "
         "sapphirerapids, ...; empty: a generic one): what "
         "gather-loads=auto decides from">,
  Option<"validateRows", "validate-rows", "bool", /*default=*/"false",
         "check mode: check each row's indices as it is gathered (the "
         "result may be partly written when an index fails)">,
  Option<"prefetchDistance", "prefetch-distance", "int64_t",
         /*default=*/"0",
         "Prefetch slices of at most 512 bytes this many index positions "
         "ahead (0: never)">,
  Option<"columnBlockMinBytes", "column-block-min-bytes", "int64_t",
         /*default=*/"8 << 20",
         "gather_elements along an axis before the last, of at most 2048 "
         "positions, whose data holds at least this many bytes from that "
         "axis on walks the last dim in blocks of 256 bytes, every position "
         "of the axis in each (-1: never)">,
  Option<"rowPrefetchBytes", "row-prefetch-bytes", "int64_t",
         /*default=*/"1024",
         "Slices that are rows of at least twice this many bytes prefetch "
         "their first this many bytes two index positions ahead (0: "
         "never; prefetch-distance, when set, takes rows of unknown "
         "length)">,
];

// gather-dispatch-unranked's max-rank (max-unranked-rank in gather-to-llvm).
class MaxUnrankedRankOption<string cppName, string argument>
    : Option<cppName, argument, "int64_t", /*default=*/"4",
             "Highest rank of unranked operands that gets a kernel (0 to 8; "
             "higher ranks are a run-time error)">;

// convert-embedding-bag-to-scf's prefetch-distance (bag-prefetch-distance in
// gather-to-llvm).
class BagPrefetchDistanceOption<string cppName, string argument>
    : Option<cppName, argument, "int64_t", /*default=*/"16",
             "Embedding bags: prefetch the rows of the id this many "
             "positions ahead (0: never; the bags' ids are read in order, "
             "their rows anywhere)">;

#endif // GATHER_CONVERSION_LOWERINGOPTIONS_TD
