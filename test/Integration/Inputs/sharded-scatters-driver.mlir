// The driver of sharded-scatters.mlir: each process passes its shard of
// the split operands (rows rank * rows/N on) and compares the kernel's
// result with its slice of the unsharded op's; the mismatches of every
// process are summed.
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printString(!llvm.ptr)
func.func private @MPI_Comm_size(i32, !llvm.ptr) -> i32
func.func private @rows_owned(tensor<?x4xf32>, tensor<6xi64>, tensor<6x4xf32>) -> tensor<?x4xf32>
func.func private @updates_split(tensor<8x4xf32>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<8x4xf32>

llvm.mlir.global internal constant @rows_owned_s("rows_owned\0A\00")
llvm.mlir.global internal constant @updates_split_s("updates_split\0A\00")
llvm.mlir.global internal constant @mismatches_s("mismatches\0A\00")

/// Rank 0 prints `name`, the first row of its `got`, and the number of
/// elements of `got` and `want` whose bits differ on any process.
func.func @report(%name: !llvm.ptr, %got: tensor<?x4xf32>, %want: tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %rows = tensor.dim %got, %c0 : tensor<?x4xf32>
  %count = scf.for %i = %c0 to %rows step %c1 iter_args(%n = %c0) -> index {
    %m = scf.for %j = %c0 to %c4 step %c1 iter_args(%k = %n) -> index {
      %a = tensor.extract %got[%i, %j] : tensor<?x4xf32>
      %b = tensor.extract %want[%i, %j] : tensor<?x4xf32>
      %ab = arith.bitcast %a : f32 to i32
      %bb = arith.bitcast %b : f32 to i32
      %ne = arith.cmpi ne, %ab, %bb : i32
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
    %row = tensor.extract_slice %got[0, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<1x4xf32>
    %rowm = bufferization.to_buffer %row : tensor<1x4xf32> to memref<1x4xf32>
    %rowu = memref.cast %rowm : memref<1x4xf32> to memref<*xf32>
    func.call @printMemrefF32(%rowu) : (memref<*xf32>) -> ()
    %mn = llvm.mlir.addressof @mismatches_s : !llvm.ptr
    func.call @printString(%mn) : (!llvm.ptr) -> ()
    %v = memref.cast %buf : memref<1xi64> to memref<*xi64>
    func.call @printMemrefI64(%v) : (memref<*xi64>) -> ()
  }
  return
}

func.func @main() {
  %init = mpi.init : !mpi.retval
  %comm = mpi.comm_world : !mpi.comm
  %err0, %rank32 = mpi.comm_rank(%comm) : !mpi.retval, i32
  // LLVM 22 does not lower mpi.comm_size: MPICH's own call, on
  // MPI_COMM_WORLD (0x44000000 in MPICH's ABI).
  %one = arith.constant 1 : i64
  %cell = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %world = arith.constant 1140850688 : i32
  %err1 = func.call @MPI_Comm_size(%world, %cell) : (i32, !llvm.ptr) -> i32
  %size32 = llvm.load %cell : !llvm.ptr -> i32
  %rank = arith.index_cast %rank32 : i32 to index
  %size = arith.index_cast %size32 : i32 to index
  %c8 = arith.constant 8 : index
  %rows = arith.divui %c8, %size : index
  %first_row = arith.muli %rank, %rows : index

  // rows_owned: row 0 gets the updates of ids 8 (wraps to 0) and -8 (0).
  %grad = arith.constant dense<0.0> : tensor<8x4xf32>
  %ids = arith.constant dense<[8, 3, -8, 7, 3, 5]> : tensor<6xi64>
  %u = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [7.0, 7.0, 7.0, 7.0], [1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0]]> : tensor<6x4xf32>
  %grad_rows = tensor.extract_slice %grad[%first_row, 0] [%rows, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %r = func.call @rows_owned(%grad_rows, %ids, %u) : (tensor<?x4xf32>, tensor<6xi64>, tensor<6x4xf32>) -> tensor<?x4xf32>
  %r0 = gather.scatter %grad[%ids], %u {mode = #gather<mode wrap>, reduction = #gather<combine add>} : (tensor<8x4xf32>, tensor<6xi64>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %r0s = tensor.extract_slice %r0[%first_row, 0] [%rows, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %rn = llvm.mlir.addressof @rows_owned_s : !llvm.ptr
  func.call @report(%rn, %r, %r0s) : (!llvm.ptr, tensor<?x4xf32>, tensor<?x4xf32>) -> ()

  // updates_split: row 0 sums 1e8, 1, -1e8 in this order, which rounds to
  // 0 in f32 (any other order gives 1).
  %uids = arith.constant dense<[0, 2, 0, 5, 2, 0, 7, 1]> : tensor<8xi64>
  %uu = arith.constant dense<[[1.0e8, 1.0e8, 1.0e8, 1.0e8], [0.1, 0.2, 0.3, 0.4], [1.0, 1.0, 1.0, 1.0], [2.5, 2.5, 2.5, 2.5], [0.7, 0.7, 0.7, 0.7], [-1.0e8, -1.0e8, -1.0e8, -1.0e8], [3.0, 3.0, 3.0, 3.0], [0.3, 0.3, 0.3, 0.3]]> : tensor<8x4xf32>
  %uids_rows = tensor.extract_slice %uids[%first_row] [%rows] [1] : tensor<8xi64> to tensor<?xi64>
  %uu_rows = tensor.extract_slice %uu[%first_row, 0] [%rows, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %s = func.call @updates_split(%grad, %uids_rows, %uu_rows) : (tensor<8x4xf32>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<8x4xf32>
  %s0 = gather.scatter %grad[%uids], %uu {reduction = #gather<combine add>} : (tensor<8x4xf32>, tensor<8xi64>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %sn = llvm.mlir.addressof @updates_split_s : !llvm.ptr
  %sc = tensor.cast %s : tensor<8x4xf32> to tensor<?x4xf32>
  %s0c = tensor.cast %s0 : tensor<8x4xf32> to tensor<?x4xf32>
  func.call @report(%sn, %sc, %s0c) : (!llvm.ptr, tensor<?x4xf32>, tensor<?x4xf32>) -> ()
  %fin = mpi.finalize : !mpi.retval
  return
}
