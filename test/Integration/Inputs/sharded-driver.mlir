// The driver of sharded-gathers.mlir: each process passes its shard of the
// table (rows rank * 8/N on) to the partitioned kernels, compares the result
// with the unsharded op on the whole table, and the mismatches of every
// process are summed.
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printString(!llvm.ptr)
func.func private @rows_wrap(tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
func.func private @rows_fill(tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
func.func private @rows_clamp(tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
func.func private @MPI_Comm_size(i32, !llvm.ptr) -> i32
func.func private @rows_check(tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
func.func private @bag_sum(tensor<?x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
func.func private @bag_mean(tensor<?x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
func.func private @bag_max(tensor<?x2xf32>, tensor<4x3xi64>) -> tensor<4x2xf32>

llvm.mlir.global internal constant @rows_wrap_s("rows_wrap\0A\00")
llvm.mlir.global internal constant @rows_fill_s("rows_fill\0A\00")
llvm.mlir.global internal constant @rows_clamp_s("rows_clamp\0A\00")
llvm.mlir.global internal constant @rows_check_s("rows_check\0A\00")
llvm.mlir.global internal constant @bag_sum_s("bag_sum\0A\00")
llvm.mlir.global internal constant @bag_mean_s("bag_mean\0A\00")
llvm.mlir.global internal constant @bag_max_s("bag_max\0A\00")
llvm.mlir.global internal constant @mismatches_s("mismatches\0A\00")

/// Rank 0 prints `name`, `got` and the mismatches of every process.
func.func @report(%name: !llvm.ptr, %got: tensor<?x2xf32>, %want: tensor<?x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = tensor.dim %got, %c0 : tensor<?x2xf32>
  %count = scf.for %i = %c0 to %rows step %c1 iter_args(%n = %c0) -> index {
    %m = scf.for %j = %c0 to %c2 step %c1 iter_args(%k = %n) -> index {
      %a = tensor.extract %got[%i, %j] : tensor<?x2xf32>
      %b = tensor.extract %want[%i, %j] : tensor<?x2xf32>
      %ne = arith.cmpf une, %a, %b : f32
      %inc = arith.select %ne, %c1, %c0 : index
      %k2 = arith.addi %k, %inc : index
      scf.yield %k2 : index
    }
    scf.yield %m : index
  }
  %buf = memref.alloc() : memref<1xi64>
  %count64 = arith.index_cast %count : index to i64
  memref.store %count64, %buf[%c0] : memref<1xi64>
  %comm = mpi.comm_world : !mpi.comm
  mpi.allreduce(%buf, %buf, MPI_SUM, %comm) : memref<1xi64>, memref<1xi64>
  %e, %rank = mpi.comm_rank(%comm) : !mpi.retval, i32
  %zero = arith.constant 0 : i32
  %first = arith.cmpi eq, %rank, %zero : i32
  scf.if %first {
    func.call @printString(%name) : (!llvm.ptr) -> ()
    %u = tensor.cast %got : tensor<?x2xf32> to tensor<*xf32>
    func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %s = llvm.mlir.addressof @mismatches_s : !llvm.ptr
    func.call @printString(%s) : (!llvm.ptr) -> ()
    %v = memref.cast %buf : memref<1xi64> to memref<*xi64>
    func.call @printMemrefI64(%v) : (memref<*xi64>) -> ()
  }
  return
}

func.func @main() {
  %init = mpi.init : !mpi.retval
  %comm = mpi.comm_world : !mpi.comm
  %e0, %rank32 = mpi.comm_rank(%comm) : !mpi.retval, i32
  // LLVM 22 does not lower mpi.comm_size: MPICH's own call, on
  // MPI_COMM_WORLD (0x44000000 in MPICH's ABI).
  %one = arith.constant 1 : i64
  %cell = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %world = arith.constant 1140850688 : i32
  %e1 = func.call @MPI_Comm_size(%world, %cell) : (i32, !llvm.ptr) -> i32
  %size32 = llvm.load %cell : !llvm.ptr -> i32
  %rank = arith.index_cast %rank32 : i32 to index
  %size = arith.index_cast %size32 : i32 to index
  %c8 = arith.constant 8 : index
  %rows = arith.divui %c8, %size : index
  %first = arith.muli %rank, %rows : index

  %table = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0], [40.0, 41.0], [50.0, 51.0], [60.0, 61.0], [70.0, 71.0]]> : tensor<8x2xf32>
  %shard = tensor.extract_slice %table[%first, 0] [%rows, 2] [1, 1] : tensor<8x2xf32> to tensor<?x2xf32>
  %ids = arith.constant dense<[0, 3, 4, 7, -1, 9, -9]> : tensor<7xi64>
  %good = arith.constant dense<[0, 3, 4, 7, -1, 5, -8]> : tensor<7xi64>

  %w = func.call @rows_wrap(%shard, %ids) : (tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %w0 = gather.gather %table[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %wn = llvm.mlir.addressof @rows_wrap_s : !llvm.ptr
  %wc = tensor.cast %w : tensor<7x2xf32> to tensor<?x2xf32>
  %w0c = tensor.cast %w0 : tensor<7x2xf32> to tensor<?x2xf32>
  func.call @report(%wn, %wc, %w0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  %f = func.call @rows_fill(%shard, %ids) : (tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %f0 = gather.gather %table[%ids] {axis = 0 : i64, mode = #gather<mode fill>} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %fn = llvm.mlir.addressof @rows_fill_s : !llvm.ptr
  %fc = tensor.cast %f : tensor<7x2xf32> to tensor<?x2xf32>
  %f0c = tensor.cast %f0 : tensor<7x2xf32> to tensor<?x2xf32>
  func.call @report(%fn, %fc, %f0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  %c = func.call @rows_clamp(%shard, %ids) : (tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %c0 = gather.gather %table[%ids] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %cn = llvm.mlir.addressof @rows_clamp_s : !llvm.ptr
  %cc = tensor.cast %c : tensor<7x2xf32> to tensor<?x2xf32>
  %c0c = tensor.cast %c0 : tensor<7x2xf32> to tensor<?x2xf32>
  func.call @report(%cn, %cc, %c0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  %k = func.call @rows_check(%shard, %good) : (tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %k0 = gather.gather %table[%good] {axis = 0 : i64} : (tensor<8x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %kn = llvm.mlir.addressof @rows_check_s : !llvm.ptr
  %kc = tensor.cast %k : tensor<7x2xf32> to tensor<?x2xf32>
  %k0c = tensor.cast %k0 : tensor<7x2xf32> to tensor<?x2xf32>
  func.call @report(%kn, %kc, %k0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  // Bags [0, 3, 4) with padding_idx 3 skipped, [4, 4) empty, [4, 7) wrapped.
  %offsets = arith.constant dense<[0, 3, 3]> : tensor<3xi64>
  %bag_ids = arith.constant dense<[1, 3, 7, 11, 2, 4, -10]> : tensor<7xi64>
  %b = func.call @bag_sum(%shard, %bag_ids, %offsets) : (tensor<?x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %b0 = gather.embedding_bag %table[%bag_ids] offsets(%offsets) {reduction = #gather<reduction sum>, padding_idx = 3 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %bn = llvm.mlir.addressof @bag_sum_s : !llvm.ptr
  %bc = tensor.cast %b : tensor<3x2xf32> to tensor<?x2xf32>
  %b0c = tensor.cast %b0 : tensor<3x2xf32> to tensor<?x2xf32>
  func.call @report(%bn, %bc, %b0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  // Mean, fill: bags [1, 3 (padding), 7], empty, [2, 4, 9 (a zero row), -2].
  %mean_ids = arith.constant dense<[1, 3, 7, 2, 4, 9, -2]> : tensor<7xi64>
  %m = func.call @bag_mean(%shard, %mean_ids, %offsets) : (tensor<?x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %m0 = gather.embedding_bag %table[%mean_ids] offsets(%offsets) {reduction = #gather<reduction mean>, padding_idx = 3 : i64, mode = #gather<mode fill>} : (tensor<8x2xf32>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf32>
  %mn = llvm.mlir.addressof @bag_mean_s : !llvm.ptr
  %mc = tensor.cast %m : tensor<3x2xf32> to tensor<?x2xf32>
  %m0c = tensor.cast %m0 : tensor<3x2xf32> to tensor<?x2xf32>
  func.call @report(%mn, %mc, %m0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  // Max, fill, padding_idx 0, on a table of negative values: a process
  // must not see zeros for the rows another process holds.
  %negated = arith.constant dense<[[-0.0, -1.0], [-10.0, -11.0], [-20.0, -21.0], [-30.0, -31.0], [-40.0, -41.0], [-50.0, -51.0], [-60.0, -61.0], [-70.0, -71.0]]> : tensor<8x2xf32>
  %nshard = tensor.extract_slice %negated[%first, 0] [%rows, 2] [1, 1] : tensor<8x2xf32> to tensor<?x2xf32>
  %max_ids = arith.constant dense<[[1, 0, 7], [0, 0, 0], [5, 12, -3], [2, 6, -1]]> : tensor<4x3xi64>
  %x = func.call @bag_max(%nshard, %max_ids) : (tensor<?x2xf32>, tensor<4x3xi64>) -> tensor<4x2xf32>
  %x0 = gather.embedding_bag %negated[%max_ids] {reduction = #gather<reduction max>, padding_idx = 0 : i64, mode = #gather<mode fill>} : (tensor<8x2xf32>, tensor<4x3xi64>) -> tensor<4x2xf32>
  %xn = llvm.mlir.addressof @bag_max_s : !llvm.ptr
  %xc = tensor.cast %x : tensor<4x2xf32> to tensor<?x2xf32>
  %x0c = tensor.cast %x0 : tensor<4x2xf32> to tensor<?x2xf32>
  func.call @report(%xn, %xc, %x0c) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xf32>) -> ()

  %fin = mpi.finalize : !mpi.retval
  return
}
