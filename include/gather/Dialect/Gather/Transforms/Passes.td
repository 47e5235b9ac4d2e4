//===- Passes.td - Gather dialect transformation passes ----*- tablegen -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
#define GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD

include "gather/Conversion/LoweringOptions.td"
include "mlir/Pass/PassBase.td"

def GatherShapeInference : Pass<"gather-shape-inference", "ModuleOp"> {
  let summary = "Refine tensor result types through gather ops and every op "
                "with InferTypeOpInterface";
  let description = [{
    Walks each function in order and gives every op that implements
    `InferTypeOpInterface` (the gather ops; upstream ops such as arith's
    elementwise ops, tensor.insert_slice, ...) the most static result type
    that its current type and its inferred type both allow, so a chain of
    any length is refined in one run. `tensor.cast`s that only erase shape
    information are folded into the gather ops that consume them.

    A refined value is handed to each user that still verifies with it;
    any other user (a call, a region terminator, an op that requires equal
    types, a `func.return` unless signatures are refined) gets a
    `tensor.cast` back to the old type, so the IR stays valid.

    With `refine-function-signatures`, function results take the refined
    types of what they return and call sites follow, iterating until no
    signature changes.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
  let options = [
    Option<"refineFunctionSignatures", "refine-function-signatures", "bool",
           /*default=*/"false",
           "Also refine function result types (and update call sites)">,
  ];
}

def GatherWarnConstantIndices
    : Pass<"gather-warn-constant-indices"> {
  let summary = "Warn about constant indices that check mode rejects when "
                "the gather runs";
  let description = [{
    An out-of-range index in `check` mode is a run-time error, reported if,
    and only if, the gather runs: the op may sit in a branch that never runs,
    so the verifier (which checks only what an op carries) accepts it. This
    pass warns about each `check`-mode gather whose indices are a constant
    (seen through `tensor.cast`) with a value that is certainly out of range
    of a data dimension of static size, naming the op, the value, its
    position and the valid range. It changes nothing; `gather-to-llvm` runs
    it first.

    ```mlir
    %i = arith.constant dense<[1, 10]> : tensor<2xi32>
    // warning: 'gather.gather' op index 10 at indices[1] is out of range
    // [-5, 4] for data dimension 0 of size 5 (an error if it runs)
    %0 = gather.gather %d[%i] : (tensor<5xf32>, tensor<2xi32>) -> tensor<2xf32>
    ```
  }];
}

def GatherShardPartition : Pass<"gather-shard-partition", "ModuleOp"> {
  let summary = "Propagate shardings and partition every function with a "
                "body";
  let description = [{
    Runs upstream's `sharding-propagation` and then `shard-partition` on each
    `func.func` of the module that has a body. Upstream's `shard-partition`
    rejects a function declaration ("only one block is supported"), and a
    module that calls a library (`printMemrefF32`, a host's callback)
    declares one; this pass leaves declarations alone. With the gather ops'
    `ShardingInterface` models, a gather whose table is split along the
    gathered dim becomes a local `fill` gather of shifted ids plus a
    `shard.all_reduce`; see docs/Sharding.md. Between the two, the
    annotations around each gather op must agree with the op's loops (a
    dim the op pairs with another split alike, a grid axis on one loop
    only, one grid): LLVM 22's `shard-partition` crashes on annotations
    that do not, and this pass reports the op instead.

    ```mlir
    shard.grid @grid(shape = 2)
    func.func private @printMemrefF32(tensor<*xf32>)
    func.func @lookup(%table: tensor<8x4xf32>, %ids: tensor<5xi64>)
        -> tensor<5x4xf32> {
      %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
      %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
      %r = gather.gather %t[%ids] {axis = 0 : i64}
          : (tensor<8x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
      return %r : tensor<5x4xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::shard::ShardDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect"
  ];
}

// A module pass: the fused loops call the run-time error hooks, which it
// declares in the module (function passes run on threads, and two of them
// declaring a hook at once made a module with two declarations).
def GatherFuseElementwise : Pass<"gather-fuse-elementwise",
                                 "::mlir::ModuleOp"> {
  let summary = "Compute elementwise consumers of gathers in the gathers' "
                "loop, from the table rows themselves";
  let description = [{
    An elementwise linalg op on tensors (an elementwise `linalg.generic` or
    `linalg.map`, or what `convert-elementwise-to-linalg` makes of arith and
    math ops on tensors, casts included) that reads `gather.gather` results
    is tiled by one index position with upstream's
    `scf::tileConsumerAndFuseProducersUsingSCF`, and the gathers that only it
    reads are fused into that loop through their `TilingInterface`. Each
    fused gather then reads one index: it becomes the index under the op's
    mode and a `tensor.extract_slice` of data there (a view), or zeros when
    the mode gives none; `check`, `clamp` and `wrap` call
    `gather_mlir_index_error` for an index that is an error, and nothing is
    read out of bounds in any mode. So the consumer computes each result row
    from the table row itself: the gathered values are never written to
    memory in between. Sibling gathers with the same ids (a quantized table's
    values, scales and zero points) fuse into one loop:

    ```mlir
    %q = gather.gather %table[%ids] : (tensor<50000x1024xi8>, tensor<16384xi64>) -> tensor<16384x1024xi8>
    %s = gather.gather %scale[%ids] : (tensor<50000xf32>, tensor<16384xi64>) -> tensor<16384xf32>
    %r = linalg.generic ... ins(%q, %s) ... { sitofp, mulf }
    ```
    becomes one `scf.for` over the 16384 ids whose body reads `%ids[i]`,
    slices row `%table[id]` and `%scale[id]`, and runs the generic on them.

    The fused gathers that may report (`check`; `clamp` and `wrap` along
    an axis that may be empty) are checked by a serial scan of their indices
    before the loop, over the loops their indices run along, which reports
    the first bad one in row-major order (without a `check` gather, the
    scan reads the first index only: along an empty axis any index is an
    error, along the others none); the tiles then call no hook. So
    a loop of the consumer that is empty at run time does not skip the
    indices of a gather that does not run along it (the unfused gather
    checks them all). When the scan cannot follow them (a reporting gather
    keeps its kernel in the loop, two index dims past the batch dims; or
    the reporting gathers' indices run along different loops, as in an
    outer product of two checked gathers, whose scan would be as long as
    the loop), each tile reports its own indices and the loop stays serial.

    With `parallel`, results of at least `parallel-min-bytes` bytes get an
    `scf.forall` instead (threads through `scf-forall-to-parallel` and
    OpenMP), unless the loop stays serial as above.

    `gather.gather_elements` and `gather.gather_nd` are not fused (their
    kernels read elements and tuples from anywhere along the gathered dims).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    ParallelOption<"Fused loops over large results as scf.forall">,
    ParallelMinBytesOption<
        "With parallel: results smaller than this keep a serial loop">,
  ];
}

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
