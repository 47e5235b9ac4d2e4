//===- Passes.td - Gather dialect transformation passes ----*- tablegen -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
#define GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD

include "gather/Conversion/LoweringOptions.td"
include "mlir/Pass/PassBase.td"

def GatherEmitCInterface : Pass<"gather-emit-c-interface", "ModuleOp"> {
  let summary = "Give every public function definition a C-callable wrapper";
  let description = [{
    Sets `llvm.emit_c_interface` on each public `func.func` with a body, so
    that `convert-func-to-llvm` also emits `_mlir_ciface_<name>`, which takes
    every memref as a pointer to a `StridedMemRefType` descriptor: the stable
    ABI a C or C++ program links against.
  }];
}

def GatherOpenMPSchedule : Pass<"gather-openmp-schedule"> {
  let summary = "One barrier a parallel region";
  let description = [{
    Loops keep the static schedule upstream's `convert-scf-to-openmp` gives
    them (one contiguous block of iterations a thread), embedding bags
    included: handing out chunks costs a dispatch each, which made guided
    bags 4-10% slower on AMD EPYC (Zen 5) and dynamic ones of 16 bags 30%
    slower, against 4-6% faster guided bags on an Intel Xeon
    (docs/Design.md).

    A worksharing loop that ends its `omp.parallel` region (no reductions)
    gets `nowait`: the region's end waits for the team, and the loop's own
    barrier was a second wait, in which a thread that arrives first spins,
    then sleeps (the Python package's `KMP_BLOCKTIME=100us`), until the last
    wakes it
    (Intel Xeon, two threads, interleaved: DLRM bags with per-sample
    weights 427-453 us against 443-478; a recsys gather of 4096 Zipf ids,
    1 MiB, 74-80 against 84-90; of 65536 ids 489-495 against 494-511).
  }];
}

def GatherParallelizeLinalg : Pass<"gather-parallelize-linalg"> {
  let summary = "Run large linalg ops on buffers as parallel loops";
  let description = [{
    A linalg op on buffers that no loop holds, whose outermost loop is
    `parallel` and indexes every init (so that its iterations write apart),
    whose body only computes (elementwise ops, the broadcasts
    and transposes of `linalg.generic`, fills, copies), and which writes at
    least `parallel-min-bytes` bytes becomes upstream's loop nest
    (`linalg::linalgOpToLoops`) with its outermost `scf.for` an
    `scf.parallel`, which `convert-scf-to-openmp` runs on threads: one
    block of outer iterations a thread, the inner loops serial (the
    vectorizable ones). A result whose size is known only at run time gets
    both, chosen by its size. The rest are left to `convert-linalg-to-loops`.

    `gather-to-llvm{parallel=true}` runs it before `convert-linalg-to-loops`
    with its own `parallel-min-bytes`: elementwise ops that
    `gather-fuse-elementwise` did not fuse into a gather's loop (or all of
    them, with `fuse-elementwise=false`) run on threads as the gathers do.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    ParallelMinBytesOption<"Linalg ops writing fewer bytes stay serial">,
  ];
}

def GatherEliminateEmptyTensors
    : Pass<"gather-eliminate-empty-tensors"> {
  let summary = "Compute a result in its destination along every path";
  let description = [{
    Upstream's `eliminate-empty-tensors` replaces one `tensor.empty` use
    on the way to a `bufferization.materialize_in_destination` with the
    destination. A result made on several paths of one `tensor.empty` (the
    branches of an `scf.if`: a computation, and zeros filled when a run-time
    check fails) keeps its other uses, so bufferization allocates a buffer,
    computes the result in it and copies it into the destination. This pass
    replaces the `tensor.empty` itself when every one of its uses is on the
    way to one `materialize_in_destination` (restrict, writable, into a
    buffer that dominates it) through `scf.if`, `scf.forall`,
    destination-style ops and `tensor.cast`: each path then writes the
    destination. `gather-to-llvm` runs it before upstream's pass.

    ```mlir
    %e = tensor.empty(%n) : tensor<?xf32>
    %r = scf.if %ok -> (tensor<?xf32>) {
      %c = linalg.generic ... outs(%e : tensor<?xf32>) -> tensor<?xf32>
      scf.yield %c : tensor<?xf32>
    } else {
      %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
      scf.yield %z : tensor<?xf32>
    }
    bufferization.materialize_in_destination %r in restrict writable %out
        : (tensor<?xf32>, memref<?xf32>) -> ()
    // %e becomes bufferization.to_tensor %out restrict writable.
    ```
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::tensor::TensorDialect"];
}

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

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_TD
