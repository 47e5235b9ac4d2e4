// The driver of sharded-no-communication.mlir: each process passes its
// shard of the split operand (rows or columns rank * size/N on) and compares
// the kernel's result with its slice of the unsharded op's result; the
// mismatches of every process are summed.
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printString(!llvm.ptr)
func.func private @MPI_Comm_size(i32, !llvm.ptr) -> i32
func.func private @columns(tensor<8x?xf32>, tensor<5xi64>) -> tensor<5x?xf32>
func.func private @elements_off_axis(tensor<?x4xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
func.func private @bag_dim(tensor<8x?xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x?xf32>
func.func private @ids_split(tensor<8x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>

llvm.mlir.global internal constant @columns_s("columns\0A\00")
llvm.mlir.global internal constant @elements_off_axis_s("elements_off_axis\0A\00")
llvm.mlir.global internal constant @bag_dim_s("bag_dim\0A\00")
llvm.mlir.global internal constant @ids_split_s("ids_split\0A\00")

/// Rank 0 prints `name` and the number of elements of `got` and `want`
/// that differ on any process.
func.func @report(%name: !llvm.ptr, %got: tensor<?x?xf32>, %want: tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %got, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %got, %c1 : tensor<?x?xf32>
  %count = scf.for %i = %c0 to %rows step %c1 iter_args(%n = %c0) -> index {
    %m = scf.for %j = %c0 to %cols step %c1 iter_args(%k = %n) -> index {
      %a = tensor.extract %got[%i, %j] : tensor<?x?xf32>
      %b = tensor.extract %want[%i, %j] : tensor<?x?xf32>
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
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %rows = arith.divui %c8, %size : index
  %first_row = arith.muli %rank, %rows : index
  %cols = arith.divui %c4, %size : index
  %first_col = arith.muli %rank, %cols : index

  %table = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [10.0, 11.0, 12.0, 13.0], [20.0, 21.0, 22.0, 23.0], [30.0, 31.0, 32.0, 33.0], [40.0, 41.0, 42.0, 43.0], [50.0, 51.0, 52.0, 53.0], [60.0, 61.0, 62.0, 63.0], [70.0, 71.0, 72.0, 73.0]]> : tensor<8x4xf32>
  %table_cols = tensor.extract_slice %table[0, %first_col] [8, %cols] [1, 1] : tensor<8x4xf32> to tensor<8x?xf32>
  %table_rows = tensor.extract_slice %table[%first_row, 0] [%rows, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>

  %ids = arith.constant dense<[0, 3, 9, -1, 6]> : tensor<5xi64>
  %c = func.call @columns(%table_cols, %ids) : (tensor<8x?xf32>, tensor<5xi64>) -> tensor<5x?xf32>
  %c0 = gather.gather %table[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  %c0s = tensor.extract_slice %c0[0, %first_col] [5, %cols] [1, 1] : tensor<5x4xf32> to tensor<5x?xf32>
  %cn = llvm.mlir.addressof @columns_s : !llvm.ptr
  %cc = tensor.cast %c : tensor<5x?xf32> to tensor<?x?xf32>
  %c0c = tensor.cast %c0s : tensor<5x?xf32> to tensor<?x?xf32>
  func.call @report(%cn, %cc, %c0c) : (!llvm.ptr, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  %eids = arith.constant dense<[[0, 1, 2], [3, 3, 3], [-1, 0, 1], [2, 2, 0], [1, 0, 3], [3, 2, 1], [0, 0, 0], [-4, -3, -2]]> : tensor<8x3xi64>
  %eids_rows = tensor.extract_slice %eids[%first_row, 0] [%rows, 3] [1, 1] : tensor<8x3xi64> to tensor<?x3xi64>
  %e = func.call @elements_off_axis(%table_rows, %eids_rows) : (tensor<?x4xf32>, tensor<?x3xi64>) -> tensor<?x3xf32>
  %e0 = gather.gather_elements %table[%eids] {axis = 1 : i64} : (tensor<8x4xf32>, tensor<8x3xi64>) -> tensor<8x3xf32>
  %e0s = tensor.extract_slice %e0[%first_row, 0] [%rows, 3] [1, 1] : tensor<8x3xf32> to tensor<?x3xf32>
  %en = llvm.mlir.addressof @elements_off_axis_s : !llvm.ptr
  %ec = tensor.cast %e : tensor<?x3xf32> to tensor<?x?xf32>
  %e0c = tensor.cast %e0s : tensor<?x3xf32> to tensor<?x?xf32>
  func.call @report(%en, %ec, %e0c) : (!llvm.ptr, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  %bag_ids = arith.constant dense<[1, 3, 7, 2, 4, 6]> : tensor<6xi64>
  %offsets = arith.constant dense<[0, 2]> : tensor<2xi64>
  %b = func.call @bag_dim(%table_cols, %bag_ids, %offsets) : (tensor<8x?xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x?xf32>
  %b0 = gather.embedding_bag %table[%bag_ids] offsets(%offsets) {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  %b0s = tensor.extract_slice %b0[0, %first_col] [2, %cols] [1, 1] : tensor<2x4xf32> to tensor<2x?xf32>
  %bn = llvm.mlir.addressof @bag_dim_s : !llvm.ptr
  %bc = tensor.cast %b : tensor<2x?xf32> to tensor<?x?xf32>
  %b0c = tensor.cast %b0s : tensor<2x?xf32> to tensor<?x?xf32>
  func.call @report(%bn, %bc, %b0c) : (!llvm.ptr, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  %lookups = arith.constant dense<[7, 0, 12, -1, 3, -20, 5, 2]> : tensor<8xi64>
  %lookups_rows = tensor.extract_slice %lookups[%first_row] [%rows] [1] : tensor<8xi64> to tensor<?xi64>
  %i = func.call @ids_split(%table, %lookups_rows) : (tensor<8x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  %i0 = gather.gather %table[%lookups] {axis = 0 : i64, mode = #gather<mode clamp>} : (tensor<8x4xf32>, tensor<8xi64>) -> tensor<8x4xf32>
  %i0s = tensor.extract_slice %i0[%first_row, 0] [%rows, 4] [1, 1] : tensor<8x4xf32> to tensor<?x4xf32>
  %in = llvm.mlir.addressof @ids_split_s : !llvm.ptr
  %ic = tensor.cast %i : tensor<?x4xf32> to tensor<?x?xf32>
  %i0c = tensor.cast %i0s : tensor<?x4xf32> to tensor<?x?xf32>
  func.call @report(%in, %ic, %i0c) : (!llvm.ptr, tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  %fin = mpi.finalize : !mpi.retval
  return
}
