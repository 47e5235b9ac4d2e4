// The driver of sharded-half.mlir: each process passes its shard of the
// table (rows rank * 8/N on) to the partitioned kernels and compares the
// bits of each result with the unsharded op's on the whole table; the
// mismatches of every process are summed.
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printString(!llvm.ptr)
func.func private @MPI_Comm_size(i32, !llvm.ptr) -> i32
func.func private @rows_f16(tensor<?x2xf16>, tensor<5xi64>) -> tensor<5x2xf16>
func.func private @rows_bf16(tensor<?x2xbf16>, tensor<5xi64>) -> tensor<5x2xbf16>
func.func private @bag_sum_f16(tensor<?x2xf16>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf16>
func.func private @bag_weighted_bf16(tensor<?x2xbf16>, tensor<7xi64>, tensor<3xi64>, tensor<7xbf16>) -> tensor<3x2xbf16>
func.func private @bag_mean_f16(tensor<?x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
func.func private @bag_max_f16(tensor<?x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>

llvm.mlir.global internal constant @rows_f16_s("rows_f16\0A\00")
llvm.mlir.global internal constant @rows_bf16_s("rows_bf16\0A\00")
llvm.mlir.global internal constant @bag_sum_f16_s("bag_sum_f16\0A\00")
llvm.mlir.global internal constant @bag_weighted_bf16_s("bag_weighted_bf16\0A\00")
llvm.mlir.global internal constant @bag_mean_f16_s("bag_mean_f16\0A\00")
llvm.mlir.global internal constant @bag_max_f16_s("bag_max_f16\0A\00")
llvm.mlir.global internal constant @mismatches_s("mismatches\0A\00")

/// Rank 0 prints `name`, `shown` and the number of elements of `got` and
/// `want` (bits) that differ on any process.
func.func @report(%name: !llvm.ptr, %shown: tensor<?x2xf32>, %got: tensor<?x2xi16>, %want: tensor<?x2xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = tensor.dim %got, %c0 : tensor<?x2xi16>
  %count = scf.for %i = %c0 to %rows step %c1 iter_args(%n = %c0) -> index {
    %m = scf.for %j = %c0 to %c2 step %c1 iter_args(%k = %n) -> index {
      %a = tensor.extract %got[%i, %j] : tensor<?x2xi16>
      %b = tensor.extract %want[%i, %j] : tensor<?x2xi16>
      %ne = arith.cmpi ne, %a, %b : i16
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
    %u = tensor.cast %shown : tensor<?x2xf32> to tensor<*xf32>
    func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    %s = llvm.mlir.addressof @mismatches_s : !llvm.ptr
    func.call @printString(%s) : (!llvm.ptr) -> ()
    %v = memref.cast %buf : memref<1xi64> to memref<*xi64>
    func.call @printMemrefI64(%v) : (memref<*xi64>) -> ()
  }
  return
}

func.func @report_f16(%name: !llvm.ptr, %got: tensor<?x2xf16>, %want: tensor<?x2xf16>) {
  %shown = arith.extf %got : tensor<?x2xf16> to tensor<?x2xf32>
  %g = arith.bitcast %got : tensor<?x2xf16> to tensor<?x2xi16>
  %w = arith.bitcast %want : tensor<?x2xf16> to tensor<?x2xi16>
  func.call @report(%name, %shown, %g, %w) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xi16>, tensor<?x2xi16>) -> ()
  return
}

func.func @report_bf16(%name: !llvm.ptr, %got: tensor<?x2xbf16>, %want: tensor<?x2xbf16>) {
  %shown = arith.extf %got : tensor<?x2xbf16> to tensor<?x2xf32>
  %g = arith.bitcast %got : tensor<?x2xbf16> to tensor<?x2xi16>
  %w = arith.bitcast %want : tensor<?x2xbf16> to tensor<?x2xi16>
  func.call @report(%name, %shown, %g, %w) : (!llvm.ptr, tensor<?x2xf32>, tensor<?x2xi16>, tensor<?x2xi16>) -> ()
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

  %table = arith.constant dense<[[2048.0, 0.5], [1.0, 0.25], [1.0, 3.0], [30.0, 31.0], [40.0, 41.0], [1.0, 0.125], [60.0, 61.0], [-0.0, 71.0]]> : tensor<8x2xf16>
  %shard = tensor.extract_slice %table[%first, 0] [%rows, 2] [1, 1] : tensor<8x2xf16> to tensor<?x2xf16>
  %btable = arith.constant dense<[[2048.0, 0.5], [1.0, 0.25], [1.0, 3.0], [30.0, 31.0], [40.0, 41.0], [1.0, 0.125], [60.0, 61.0], [-0.0, 71.0]]> : tensor<8x2xbf16>
  %bshard = tensor.extract_slice %btable[%first, 0] [%rows, 2] [1, 1] : tensor<8x2xbf16> to tensor<?x2xbf16>

  %ids = arith.constant dense<[0, 3, 5, 7, -1]> : tensor<5xi64>
  %r = func.call @rows_f16(%shard, %ids) : (tensor<?x2xf16>, tensor<5xi64>) -> tensor<5x2xf16>
  %r0 = gather.gather %table[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf16>, tensor<5xi64>) -> tensor<5x2xf16>
  %rn = llvm.mlir.addressof @rows_f16_s : !llvm.ptr
  %rc = tensor.cast %r : tensor<5x2xf16> to tensor<?x2xf16>
  %r0c = tensor.cast %r0 : tensor<5x2xf16> to tensor<?x2xf16>
  func.call @report_f16(%rn, %rc, %r0c) : (!llvm.ptr, tensor<?x2xf16>, tensor<?x2xf16>) -> ()

  %q = func.call @rows_bf16(%bshard, %ids) : (tensor<?x2xbf16>, tensor<5xi64>) -> tensor<5x2xbf16>
  %q0 = gather.gather %btable[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xbf16>, tensor<5xi64>) -> tensor<5x2xbf16>
  %qn = llvm.mlir.addressof @rows_bf16_s : !llvm.ptr
  %qc = tensor.cast %q : tensor<5x2xbf16> to tensor<?x2xbf16>
  %q0c = tensor.cast %q0 : tensor<5x2xbf16> to tensor<?x2xbf16>
  func.call @report_bf16(%qn, %qc, %q0c) : (!llvm.ptr, tensor<?x2xbf16>, tensor<?x2xbf16>) -> ()

  // Bags [0, 1, 5], [3] (padding), [2, 4, 6].
  %offsets = arith.constant dense<[0, 3, 4]> : tensor<3xi64>
  %bag_ids = arith.constant dense<[0, 1, 5, 3, 2, 4, 6]> : tensor<7xi64>
  %s = func.call @bag_sum_f16(%shard, %bag_ids, %offsets) : (tensor<?x2xf16>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf16>
  %s0 = gather.embedding_bag %table[%bag_ids] offsets(%offsets) {reduction = #gather<reduction sum>, padding_idx = 3 : i64} : (tensor<8x2xf16>, tensor<7xi64>, tensor<3xi64>) -> tensor<3x2xf16>
  %sn = llvm.mlir.addressof @bag_sum_f16_s : !llvm.ptr
  %sc = tensor.cast %s : tensor<3x2xf16> to tensor<?x2xf16>
  %s0c = tensor.cast %s0 : tensor<3x2xf16> to tensor<?x2xf16>
  func.call @report_f16(%sn, %sc, %s0c) : (!llvm.ptr, tensor<?x2xf16>, tensor<?x2xf16>) -> ()

  %weights = arith.constant dense<[1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 0.5]> : tensor<7xbf16>
  %w = func.call @bag_weighted_bf16(%bshard, %bag_ids, %offsets, %weights) : (tensor<?x2xbf16>, tensor<7xi64>, tensor<3xi64>, tensor<7xbf16>) -> tensor<3x2xbf16>
  %w0 = gather.embedding_bag %btable[%bag_ids] offsets(%offsets) per_sample_weights(%weights) {reduction = #gather<reduction sum>, padding_idx = 3 : i64} : (tensor<8x2xbf16>, tensor<7xi64>, tensor<3xi64>, tensor<7xbf16>) -> tensor<3x2xbf16>
  %wn = llvm.mlir.addressof @bag_weighted_bf16_s : !llvm.ptr
  %wc = tensor.cast %w : tensor<3x2xbf16> to tensor<?x2xbf16>
  %w0c = tensor.cast %w0 : tensor<3x2xbf16> to tensor<?x2xbf16>
  func.call @report_bf16(%wn, %wc, %w0c) : (!llvm.ptr, tensor<?x2xbf16>, tensor<?x2xbf16>) -> ()

  %mean_ids = arith.constant dense<[[3, 4], [1, 9]]> : tensor<2x2xi64>
  %m = func.call @bag_mean_f16(%shard, %mean_ids) : (tensor<?x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
  %m0 = gather.embedding_bag %table[%mean_ids] {reduction = #gather<reduction mean>, mode = #gather<mode fill>} : (tensor<8x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
  %mn = llvm.mlir.addressof @bag_mean_f16_s : !llvm.ptr
  %mc = tensor.cast %m : tensor<2x2xf16> to tensor<?x2xf16>
  %m0c = tensor.cast %m0 : tensor<2x2xf16> to tensor<?x2xf16>
  func.call @report_f16(%mn, %mc, %m0c) : (!llvm.ptr, tensor<?x2xf16>, tensor<?x2xf16>) -> ()

  %negated = arith.negf %table : tensor<8x2xf16>
  %nshard = tensor.extract_slice %negated[%first, 0] [%rows, 2] [1, 1] : tensor<8x2xf16> to tensor<?x2xf16>
  %max_ids = arith.constant dense<[[3, 4], [6, 1]]> : tensor<2x2xi64>
  %x = func.call @bag_max_f16(%nshard, %max_ids) : (tensor<?x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
  %x0 = gather.embedding_bag %negated[%max_ids] {reduction = #gather<reduction max>} : (tensor<8x2xf16>, tensor<2x2xi64>) -> tensor<2x2xf16>
  %xn = llvm.mlir.addressof @bag_max_f16_s : !llvm.ptr
  %xc = tensor.cast %x : tensor<2x2xf16> to tensor<?x2xf16>
  %x0c = tensor.cast %x0 : tensor<2x2xf16> to tensor<?x2xf16>
  func.call @report_f16(%xn, %xc, %x0c) : (!llvm.ptr, tensor<?x2xf16>, tensor<?x2xf16>) -> ()

  %fin = mpi.finalize : !mpi.retval
  return
}
