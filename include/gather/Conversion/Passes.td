//===- Passes.td - GatherMLIR conversion passes ------------*- tablegen -*-===//

#ifndef GATHER_CONVERSION_PASSES_TD
#define GATHER_CONVERSION_PASSES_TD

include "gather/Conversion/LoweringOptions.td"

def ConvertGatherToLoops : Pass<"convert-gather-to-loops", "ModuleOp"> {
  let summary = "Lower gather ops to loop nests (affine, scf, vector, memref)";
  let description = [{
    Rewrites every `gather.gather`, `gather.gather_elements` and
    `gather.gather_nd` on ranked tensors into a loop nest on memrefs
    (`gather.embedding_bag` becomes loops on tensors, as
    `convert-embedding-bag-to-scf` lowers it):

    * the operands become `bufferization.to_buffer` (read only) and the
      result a fresh `memref.alloc` wrapped in `bufferization.to_tensor`,
      which One-Shot Bufferize folds away;
    * loops are `affine.for` (falling back to `scf.for` where a bound is not
      a valid affine symbol); index reads and result writes are
      `affine.load`/`affine.store`, the data reads, whose subscript depends
      on an index value, `memref.load`;
    * each index is read as i64, normalized, and handled by the op's mode;
      indices that are a widening of narrower integers (`arith.extsi`,
      `arith.extui`, `arith.index_cast` or `arith.index_castui` on tensors,
      or the elementwise `linalg.generic` that
      `convert-elementwise-to-linalg` makes of one) are read narrow and
      extended as the cast says, so the wide ones are never written (the
      widening is erased when nothing else reads it);
      `check` validates every index (a vector at a time) before any data is
      read and calls `gather_mlir_index_error` instead of gathering;
    * in every mode but `unchecked`, the shape rules that the verifier could
      not check because a dim is dynamic (equal batch dims; gather_elements'
      indices no larger than data off the axis) are checked first, at run
      time, and a mismatch calls `gather_mlir_shape_error`;
    * with `vectorize`, the contiguous trailing slice of gather and
      gather_nd (collapsed to one row when contiguous) moves with
      `vector.load`/`vector.store` plus a masked tail, and gather and
      gather_elements along the last axis turn a vector of indices into
      in-bounds subscripts at once (`check` and `unchecked` clamp them too,
      which changes no accepted index) and read with `vector.gather` or one
      scalar load per lane, per `gather-loads` (`auto` decides from
      `target-cpu` and static axis sizes, never from the machine that
      compiles); `gather-loads=element` (auto's choice, but on AMD Zen, for
      static axes of 128 KiB or more whose static rows read at most one
      element in 512 of it) reads, resolves, loads and stores one element an iteration
      instead;
    * rows of 256 bytes or more (2048 unless every row starts
      vector-aligned) of a result of at least `streaming-min-bytes` bytes
      (tested once at run time when sizes are dynamic) are written with
      non-temporal vector stores that skip the cache: a masked head up to
      the first vector-aligned element, aligned
      `vector.store {nontemporal = true}`, a masked tail; an `llvm.fence`
      follows the loops;
    * with `validate-rows`, `check` gather_elements along the last axis
      checks each row's indices as it gathers the row (the clamped
      subscripts read nothing out of bounds), instead of all indices first;
      a row with a bad index is checked again to report the first (threads
      too: each records the first outermost position with a bad row, and
      that slab is checked again; a single row, which threads take in
      pieces, is checked first); the result may then be partly written
      when an index error is reported;
    * with `prefetch-distance` > 0, slices of at most 512 bytes (gather_nd
      tuples, short rows) are prefetched (`memref.prefetch`) that many index
      positions ahead along the innermost loop, at the clamped index;
    * slices whose rows (their last, contiguous dim) hold at least twice
      `row-prefetch-bytes` have their first `row-prefetch-bytes` prefetched,
      a line every 64 bytes, two index positions ahead (rows of unknown
      length test it at run time, unless `prefetch-distance` is set);
    * with `parallel`, the outermost loop over result slices is an
      `scf.parallel` (each iteration writes its own part of the result; a
      result that is one row gathered along the last axis, such as a 1-D
      gather, is split into pieces of 4096 elements) for
      results of at least `parallel-min-bytes` bytes; smaller ones keep a
      serial nest (both are emitted when sizes are dynamic, chosen by one
      test at run time; `parallel-min-bytes=0` emits the threaded nest
      only); `check` mode scans an index array of at least
      that many bytes on threads too (a slab of outermost positions each;
      the first slab with a bad index is scanned again to report it);
    * a result stored by `bufferization.materialize_in_destination` into a
      memref is computed in that memref;
    * gathers on unranked data or indices are left to
      `gather-dispatch-unranked` (a diagnostic names it when one is left);
    * nothing is folded: constant gathers are `--canonicalize`'s to fold.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::complex::ComplexDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = GatherLoweringOptionList;
}

def GatherDispatchUnranked : Pass<"gather-dispatch-unranked", "ModuleOp"> {
  let summary = "Dispatch gathers on unranked tensors on their run-time ranks";
  let description = [{
    A loop nest needs ranks. Every `gather.gather`, `gather.gather_elements`
    and `gather.gather_nd` whose data or indices is unranked becomes an
    `scf.index_switch` on the operands' run-time ranks (`tensor.rank`), with
    one case per rank pair up to `max-rank` that the op's shape rules accept
    with its attributes (and, for gather_nd with unranked indices, an inner
    switch on the index tuple length). Each case casts the operands to
    ranked dynamic tensors and holds a ranked copy of the op, which the
    lowerings then turn into kernels with the run-time shape checks of
    dynamic dims. Ranks past `max-rank` call `gather_mlir_shape_error` with
    rule `RANK_LIMIT`, ranks the rules reject with rule `RANKS`, and yield an
    empty result. Gathers on ranked operands are left as they are.

    With `max-rank=2` (keys: data rank * 3 + indices rank):

    ```mlir
    %r = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
    // becomes
    %rank = tensor.rank %d : tensor<*xf32>
    %r = scf.index_switch %key -> tensor<*xf32>
    case 4 { ... gather.gather ... : (tensor<?xf32>, tensor<3xi32>) -> tensor<3xf32> ... }
    case 7 { ... : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<3x?xf32> ... }
    default { call @gather_mlir_shape_error(...) ... }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [MaxUnrankedRankOption<"maxRank", "max-rank">];
}

def GatherDefineErrorHandlers
    : Pass<"gather-define-error-handlers", "ModuleOp"> {
  let summary = "Give the run-time error hooks weak default definitions";
  let description = [{
    Lowered gathers call `gather_mlir_index_error` and
    `gather_mlir_shape_error` (see `include/gather-c/Runtime.h`) when they
    cannot run. This pass, on a module in the LLVM dialect, turns each
    external `llvm.func` declaration of a hook into a weak definition that
    prints the error message on stderr and exits with status 1, so that the
    lowered module runs under `mlir-runner` and links into a program with no
    library of ours. A host that defines a hook itself (a strong definition)
    takes precedence at link time.

    Threads of a threaded loop may fail at once: the first caller of either
    hook claims the module's flag (`gather_mlir_error_reported`, an atomic
    exchange) and reports; a later one waits in `pause()` for its exit (two
    threads in `exit()` deadlock). The flag is the module's own: kernels of
    two modules loaded apart each have theirs.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertGatherMPIToLLVM : Pass<"convert-gather-mpi-to-llvm", "ModuleOp"> {
  let summary = "Lower a partitioned module's MPI calls to the LLVM dialect";
  let description = [{
    The last step of a sharded module (one that `shard-partition` made and
    `convert-shard-to-mpi` turned into `mpi` ops): lowers the `mpi` ops to
    calls of MPICH's ABI (`MPI_Allreduce`, `MPI_Comm_rank`, ...) with
    upstream's MPI-to-LLVM patterns, then erases what no LLVM tool reads
    any more: the `shard.grid` symbols, and the `dlti.map` entry naming the
    MPI implementation when this pass added it (a module that names none
    gets `"MPI:Implementation" = "MPICH"`). A module that names Open MPI is
    rejected: LLVM 22's lowering for Open MPI truncates the communicator
    that `MPI_Comm_split` returns to 32 bits and names the reduction
    operators `ompi_mpi_sum` (Open MPI exports `ompi_mpi_op_sum`), so its
    programs crash in `MPI_Allreduce`. So is a buffer of an element type
    that LLVM 22 names no MPI datatype for (f16, bf16, i1, complex, ...):
    its call would abort at run time. A module without `mpi` ops only loses
    the grids that nothing refers to (those of a partition whose splits
    need no communication).

    `convert-shard-to-mpi` splits a communicator for every collective and
    LLVM 22 never frees it, so a kernel called 2048 times exhausts MPICH's
    communicators and aborts. This pass lets all-reduces on a split of
    constant color (every process of the parent, as for a grid reduced
    along all its axes) use the parent communicator, with no split, and
    frees any other split after its last use in its block (`MPI_Comm_free`).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::DLTIDialect"];
}

def ConvertTensorToGather : Pass<"convert-tensor-to-gather"> {
  let summary = "Raise upstream tensor.gather into gather ops";
  let description = [{
    Rewrites every upstream `tensor.gather` (which MLIR cannot bufferize or
    lower, llvm-project#119805) into a `gather.gather_nd`:

    * data is first permuted with `linalg.transpose` so that the
      `gather_dims` lead, in order (no transpose when they already do);
    * the `gather.gather_nd` (batch_dims 0) then gives the rank-reduced
      result, `indices.shape[:-1]` followed by the dimensions not gathered;
    * a result that keeps the gathered dims as unit dims (not rank-reduced)
      is a `tensor.expand_shape` of it;
    * coordinates of type i8, i16, i32, i64 or `index` are used as they are;
      other integer widths up to 64 are sign-extended to i64 (`arith.extsi`);
    * `unique` is a promise about the coordinates that changes nothing here.

    Out-of-range coordinates are undefined for `tensor.gather`; the gather
    ops get the `mode` option, `check` by default, so that they are caught.
    `unchecked` trusts them as upstream does.

    Example (gather_dims = [1]):

    ```mlir
    %r = tensor.gather %data[%idx] gather_dims([1])
        : (tensor<4x5xf32>, tensor<3x1xindex>) -> tensor<3x4xf32>
    ```
    becomes a `linalg.transpose` of `%data` to `tensor<5x4xf32>` and
    `gather.gather_nd` of it at `%idx`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gather::GatherDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"mode", "mode", "::mlir::gather::GatherMode",
           /*default=*/"::mlir::gather::GatherMode::check",
           "What an out-of-range coordinate does (undefined upstream)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::gather::GatherMode::check, "check",
                        "run-time error (default)"),
             clEnumValN(::mlir::gather::GatherMode::fill, "fill",
                        "the slice is zero"),
             clEnumValN(::mlir::gather::GatherMode::clamp, "clamp",
                        "clamp to the dimension"),
             clEnumValN(::mlir::gather::GatherMode::wrap, "wrap",
                        "Python modulo"),
             clEnumValN(::mlir::gather::GatherMode::unchecked, "unchecked",
                        "undefined, as upstream"))}]>,
  ];
}

def ConvertGatherToLinalg : Pass<"convert-gather-to-linalg"> {
  let summary = "Lower gather ops to upstream linalg, tensor, arith and cf";
  let description = [{
    Lowers `gather.gather`, `gather.gather_elements` and `gather.gather_nd`
    on ranked tensors to upstream ops only, for pipelines that know no
    other dialect (IREE, torch-mlir); the output compiles with stock
    `mlir-opt`:

    * one `linalg.generic` over the result shape (into a `tensor.empty`
      sized by GatherShape) whose body reads the index values with
      `tensor.extract`, widens them to i64, applies the mode in arith and
      reads `data` with `tensor.extract`;
    * modes: negative values count from the end (`i < 0 ? i + s : i`);
      `clamp` clamps to `[0, s-1]`; `wrap` is Python modulo; `fill` reads
      inside an `scf.if` only when every component is in range and yields 0
      otherwise; `unchecked` trusts the index;
    * `check`: the indices first pass through a `linalg.generic` over their
      own shape that `cf.assert`s each value in range (message naming the
      op, the data dimension and its range) and yields it; the gather reads
      these checked indices, so no data is read before all are validated;
    * `clamp` and `wrap` `cf.assert` that a dimension indexed is not empty
      when there are indices;
    * in every mode but `unchecked`, the shape rules that the verifier could
      not check because a dim is dynamic (equal batch dims; gather_elements'
      `indices.shape[d] <= data.shape[d]` off the axis; static result dims)
      are `cf.assert`ed first.

    `gather.embedding_bag` becomes one `linalg.generic` over the result
    (into a `tensor.empty`) whose body walks the element's bag with an
    `scf.for`, reading ids and table values with `tensor.extract` and
    `vector.transfer_read` (a quantized table: the byte that holds the
    value, dequantized): O(ids x dim) work, in a form that IREE forms
    dispatches from. Its run-time rules are `cf.assert`ed first: the
    offsets' (and, in `check` mode, the ids') in a `linalg.generic` that
    asserts each value and yields it to the bags, so that no loop over them
    runs outside a linalg op.

    The scatters become `convert-scatter-to-scf`'s loops on tensors, with
    `cf.assert` for its run-time hooks.

    Unranked operands are an error (use `gather-shape-inference` or the
    `gather-to-llvm` pipeline, which dispatches on run-time ranks).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
    "::mlir::complex::ComplexDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
}

// A module pass: it declares the run-time error hooks in the module.
def ConvertEmbeddingBagToSCF : Pass<"convert-embedding-bag-to-scf",
                                    "::mlir::ModuleOp"> {
  let summary = "Lower gather.embedding_bag to loops over bags and ids";
  let description = [{
    Lowers `gather.embedding_bag` on ranked tensors to an `scf.forall` over
    the bags (threads once the pipeline maps it to OpenMP) whose body walks
    the bag's ids with an `scf.for` per chunk of the result row (4096 bits
    of the accumulator: vectors that stay in registers across the bag),
    reading each row's chunk with `vector.transfer_read` (rows of f16/bf16
    tables accumulate in f32; quantized rows are dequantized as they are
    read): O(ids x dim) work. Unless the mode is `unchecked`, the run-time
    rules (offsets start at 0, never decrease and end within the ids;
    dynamic dims of per_sample_weights and the result) are checked first
    and, in `check` mode, each bag records whether it holds an id out of
    range (whose row it does not read); a failure calls
    `gather_mlir_shape_error`
    or `gather_mlir_index_error` (`gather-c/Runtime.h`) and the result is
    zeros. `gather-to-llvm` runs it; `convert-gather-to-linalg` lowers
    embedding bags to one `linalg.generic` instead, with `cf.assert` for
    the hooks.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    BagPrefetchDistanceOption<"prefetchDistance", "prefetch-distance">
  ];
}

// A module pass for the same reason as the embedding bags' (it declares
// the run-time hooks).
def ConvertScatterToSCF : Pass<"convert-scatter-to-scf", "::mlir::ModuleOp"> {
  let summary = "Lower the scatter ops to loops over updates, on tensors";
  let description = [{
    Lowers `gather.scatter`, `gather.scatter_elements` and
    `gather.scatter_nd` on ranked tensors to upstream ops. Unless the mode
    is `unchecked`, the shape rules that the verifier could not check
    (dynamic dims: the matching gather's rules between dest and indices,
    updates' dims against the gather's result) and then the indices (in
    range for `check`; along a dimension that is not empty for `clamp` and
    `wrap`) are checked first, by a scan that finds the first bad one; a
    failure calls `gather_mlir_shape_error` or `gather_mlir_index_error`
    (`gather-c/Runtime.h`) and the result is `dest`: nothing is written.
    Then one `scf.for` nest over `updates`, in row-major order, combines
    each update into the element of `dest` its gather reads, with
    `tensor.extract` and `tensor.insert` carried by the loops (in place
    once bufferized): duplicate indices combine in that loop's order, so
    the result is deterministic. A `gather.scatter`'s dims before its axis
    (past the batch dims) are walked in tiles of rows that hold about
    32 KiB of updates, each index position resolved once a tile; every
    element still gets its updates in that order. f16 and bf16 `add` and `mul` combine in an
    f32 copy of `dest` (two `linalg.generic` conversions), rounded once per
    element. `gather-to-llvm` runs it; `convert-gather-to-linalg` lowers
    the scatters the same way with `cf.assert` for the hooks.

    With `parallel`, scatters of at least `parallel-min-bytes` of updates
    run on threads: an `scf.forall` over ranges of the outermost dest dim
    that a loop over updates walks at its own positions (not where an
    index says; as many ranges as `omp_get_max_threads()`), each applying,
    in the sequential order, the updates that land in its range. No two
    threads write an element, so the result is the sequential loop's at
    any thread count. A scatter without such a dim (a 1-D dest) runs on one
    thread: each thread would read every index to find its updates.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    ParallelOption<"Scatters on threads, each owning a range of dest's rows">,
    ParallelMinBytesOption<
        "With parallel: scatters of fewer bytes of updates run on one thread "
        "(a run-time test)">
  ];
}

#endif // GATHER_CONVERSION_PASSES_TD
