// The driver of sharded-gathers.mlir's check failure: id 8 of a table of 8
// rows, which no shard holds.
func.func private @MPI_Comm_size(i32, !llvm.ptr) -> i32
func.func private @rows_check(tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>

func.func @main() {
  %init = mpi.init : !mpi.retval
  %comm = mpi.comm_world : !mpi.comm
  // LLVM 22 does not lower mpi.comm_size: MPICH's own call, on
  // MPI_COMM_WORLD (0x44000000 in MPICH's ABI).
  %one = arith.constant 1 : i64
  %cell = llvm.alloca %one x i32 : (i64) -> !llvm.ptr
  %world = arith.constant 1140850688 : i32
  %e1 = func.call @MPI_Comm_size(%world, %cell) : (i32, !llvm.ptr) -> i32
  %size32 = llvm.load %cell : !llvm.ptr -> i32
  %size = arith.index_cast %size32 : i32 to index
  %c8 = arith.constant 8 : index
  %rows = arith.divui %c8, %size : index
  %shard = tensor.empty(%rows) : tensor<?x2xf32>
  %bad = arith.constant dense<[0, 3, 4, 7, -1, 8, -8]> : tensor<7xi64>
  %k = func.call @rows_check(%shard, %bad) : (tensor<?x2xf32>, tensor<7xi64>) -> tensor<7x2xf32>
  %fin = mpi.finalize : !mpi.retval
  return
}
