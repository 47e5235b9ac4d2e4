//===- Passes.td - Passes on upstream ops the pipeline needs -*- tablegen -*-===//
//
// Passes that work on upstream ops only (OpenMP, linalg, tensors, math,
// masked memory, MPI buffers): steps of gather-to-llvm that are not about
// the gather ops.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TRANSFORMS_PASSES_TD
#define GATHER_TRANSFORMS_PASSES_TD

include "gather/Conversion/LoweringOptions.td"
include "mlir/Pass/PassBase.td"

def GatherOpenMPSchedule : Pass<"gather-openmp-schedule"> {
  let summary = "One barrier a parallel region";
  let description = [{
    Loops keep the static schedule upstream's `convert-scf-to-openmp` gives
    them (one contiguous block of iterations a thread), embedding bags
    included: handing out chunks costs a dispatch each, which measured
    slower for bags on the hosts this project was tuned on.

    A worksharing loop that ends its `omp.parallel` region (no reductions)
    gets `nowait`: the region's end waits for the team, and the loop's own
    barrier was a second wait, in which a thread that arrives first spins,
    then sleeps (the Python package's `KMP_BLOCKTIME=100us`), until the last
    wakes it. The measurements of both choices are in
    docs/decisions/kernel-cost-model.md ("OpenMP schedule").
  }];
}

def GatherEmitCInterface : Pass<"gather-emit-c-interface", "ModuleOp"> {
  let summary = "Give every public function definition a C-callable wrapper";
  let description = [{
    Sets `llvm.emit_c_interface` on each public `func.func` with a body, so
    that `convert-func-to-llvm` also emits `_mlir_ciface_<name>`, which takes
    every memref as a pointer to a `StridedMemRefType` descriptor: the stable
    ABI a C or C++ program links against.
  }];
}

def GatherNoAliasMemRefArgs : Pass<"gather-noalias-memref-args", "ModuleOp"> {
  let summary = "Carry `llvm.noalias` of memref arguments to their data "
                "pointers and the accesses through them";
  let description = [{
    Upstream's `convert-func-to-llvm` expands a memref argument into its
    descriptor's fields and drops the argument's attributes, so
    `{llvm.noalias}` on a memref reaches only the `_mlir_ciface_` wrapper's
    descriptor pointer, never the pointer the loops load through: LLVM must
    assume that a store into the result may change the data or the
    indices, reloads them after each store and cannot vectorize across it.

    `gather-to-llvm` runs this pass twice. Before the conversion of
    functions, it records on each `func.func` where the aligned pointer of
    every ranked memref argument marked `llvm.noalias` lands in the
    converted signature (`gather.noalias_pointers`, with the signature's
    length). At the end, the `llvm.func` of that length (not the wrapper,
    whose memrefs are one pointer each) gets `llvm.noalias` on those
    pointers, and every load, store and memory intrinsic that goes through
    one of them (or a `getelementptr` of it) gets the pointer's alias scope,
    and the others' as `noalias_scopes`. The tags, unlike the attribute,
    stay on the accesses when LLVM outlines a parallel region into a
    function of its own. An access through any other pointer keeps no tag.

    The kernels the Python package compiles mark their memrefs so: they
    are the buffers of `restrict` tensors, which share no memory.

    ```mlir
    func.func @k(%d: memref<?xf32> {llvm.noalias},
                 %o: memref<?xf32> {llvm.noalias}, %i: index) {
      %v = memref.load %d[%i] : memref<?xf32>
      memref.store %v, %o[%i] : memref<?xf32>
      return
    }
    // becomes llvm.func @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.noalias},
    // %arg2: i64, %arg3: i64, %arg4: i64, %arg5: !llvm.ptr,
    // %arg6: !llvm.ptr {llvm.noalias}, ...); the load through %arg1 carries
    // {alias_scopes = [#d], noalias_scopes = [#o]}, the store the reverse.
    ```
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

def GatherCopyToMemmove : Pass<"gather-copy-to-memmove"> {
  let summary = "Copies between contiguous buffers outside loops as one "
                "memmove";
  let description = [{
    A `linalg.copy` on buffers that no loop holds, between two contiguous
    buffers (an identity layout, or one dim of stride 1 at any offset) of
    one element type of whole bytes in the default memory space, becomes
    one `llvm.intr.memmove` of the elements' bytes from the buffers' aligned
    pointers and offsets. The C library's memmove copies a buffer larger
    than the caches with stores that go past them, where the loop of
    `convert-linalg-to-loops` reads each line of the destination before it
    writes it. Copies in loops (the tiles of `gather-parallelize-linalg`,
    which run on threads) are left to `convert-linalg-to-loops`.

    `gather-to-llvm` runs it after `gather-flatten-linalg` and
    `gather-parallelize-linalg`: a scatter's copy of `dest` into a new
    array, made on one thread.

    ```mlir
    linalg.copy ins(%s : memref<?xf32>) outs(%d : memref<?xf32>)
    // becomes (the addresses: aligned pointer + offset * 4)
    "llvm.intr.memmove"(%dp, %sp, %bytes) <{isVolatile = false}>
        : (!llvm.ptr, !llvm.ptr, i64) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GatherFlattenLinalg : Pass<"gather-flatten-linalg"> {
  let summary = "Elementwise linalg ops on contiguous buffers as flat loops";
  let description = [{
    A `linalg.copy`, or a `linalg.generic` whose loops are all `parallel`
    and whose operands are all indexed by the identity, on buffers: its
    innermost dims that every operand holds contiguously (an identity
    layout; a strided one whose strides say so) become one dim, through
    upstream's `linalg::populateCollapseDimensions` and `memref.collapse_shape`.
    A copy of 37621x2 elements is then one loop of 75242 that LLVM
    vectorizes, not 37621 loops of two, and `gather-parallelize-linalg`
    splits all of it among threads, not only its outermost dim.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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

def GatherPreciseMath : Pass<"gather-precise-math", "ModuleOp"> {
  let summary = "math.expm1 and math.log1p as libm calls, which keep the "
                "digits of small arguments";
  let description = [{
    Upstream's `convert-math-to-llvm` lowers `math.expm1` to `exp(x) - 1`
    and (by default) `math.log1p` to `log(1 + x)`, which lose every digit
    of an `x` near 0: `log1p(1e-7)` in f32 gives 1.19e-7, in f16 `expm1` of
    1e-4 gives 0. This pass applies upstream's `convert-math-to-libm`
    patterns to those two ops only: calls of libm's `expm1`/`log1p` (f32,
    f64; f16 and bf16 through f32; vectors a lane at a time). Other element
    types, and every other math op, are left as they are. `gather-to-llvm`
    runs it before `convert-math-to-llvm`, which lowers the rest.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def GatherExpandBFloat16 : Pass<"gather-expand-bf16"> {
  let summary = "Conversions to and from bf16 as integer operations";
  let description = [{
    `arith.truncf` to bf16 (from f32, or from f64 rounded to odd in f32
    first, so that the result is rounded once) and `arith.extf` from bf16
    to f32 become integer operations on the bits, with upstream's
    `arith-expand` patterns for f32: round to nearest even, NaN to the
    quiet NaN 0x7FC0. Without AVX-512 BF16, LLVM lowers these truncations
    to calls of `__truncsfbf2` and `__truncdfbf2` (a lane at a time for
    vectors), which libgcc before GCC 13 does not define, so a kernel with
    one fails to link there. `gather-to-llvm` runs upstream's
    `arith-emulate-unsupported-floats` (bf16 arithmetic in f32) and then
    this pass, after the math lowerings.

    ```mlir
    %b = arith.truncf %x : vector<8xf32> to vector<8xbf16>
    // becomes: bitcast to vector<8xi32>, add the rounding bias, shift right
    // by 16, select 0x7FC0 for NaN lanes, truncate to i16, bitcast to bf16.
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GatherLegalizeMaskedMemory : Pass<"gather-legalize-masked-memory"> {
  let summary = "Masked loads, stores, gathers and scatters of bf16 and f16 "
                "vectors as i16 ones";
  let description = [{
    LLVM's masked memory intrinsics (`llvm.intr.masked.load`, `.store`,
    `.gather`, `.scatter`, `.expandload`, `.compressstore`) on vectors of
    bf16 or f16 become the same intrinsics on vectors of i16, with
    `llvm.bitcast`s around them: they move the same bits. X86's instruction
    selection cannot lower some of the bf16 ones (a masked store of a
    `vector<64xbf16>` whose constant mask sets 33 lanes aborts LLVM 22 on
    hosts with AVX-512 BF16), and the lowerings emit them for the last,
    partial vector of a row. `gather-to-llvm` runs it once all is in the LLVM
    dialect.

    ```mlir
    llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32}
        : vector<64xbf16>, vector<64xi1> into !llvm.ptr
    // becomes
    %i = llvm.bitcast %v : vector<64xbf16> to vector<64xi16>
    llvm.intr.masked.store %i, %p, %m {alignment = 2 : i32}
        : vector<64xi16>, vector<64xi1> into !llvm.ptr
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def GatherMPIReduceInPlace : Pass<"gather-mpi-reduce-in-place"> {
  let summary = "All-reduce a partial result in its own buffer";
  let description = [{
    `convert-shard-to-mpi` copies the buffer an all-reduce reduces into a
    new one and reduces that copy in place. When the copied buffer is an
    allocation of the same block that nothing uses after the copy (a
    partitioned gather's local result), this pass reduces it in place
    instead: the new buffer and the copy are removed (for a 16 MiB result,
    the copy and the page faults of a fresh buffer cost as much as the
    gather). The copied buffer's other users must come before the copy and
    only read or write it (no views, calls or returns of it).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // GATHER_TRANSFORMS_PASSES_TD
