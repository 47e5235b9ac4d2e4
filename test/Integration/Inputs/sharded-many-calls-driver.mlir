// The driver of sharded-many-calls.mlir: calls the kernel of the 2x2 grid
// 2100 times on this process's rows of the table, the kernel of the 1-D
// grid (which splits nothing) once, and sums element [1, 1] of the results.
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @split_2x2(tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
func.func private @split_1d(tensor<2x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>

func.func @main() {
  %init = mpi.init : !mpi.retval
  %comm = mpi.comm_world : !mpi.comm
  %e, %rank32 = mpi.comm_rank(%comm) : !mpi.retval, i32
  %rank = arith.index_cast %rank32 : i32 to index
  %table = arith.constant dense<[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0], [30.0, 31.0], [40.0, 41.0], [50.0, 51.0], [60.0, 61.0], [70.0, 71.0]]> : tensor<8x2xf32>
  // Grid 2x2, rows split along axis 0: process (i, j) = rank (2i + j)
  // holds rows [4i, 4i + 4). Grid of 4: rows [2 rank, 2 rank + 2).
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %i = arith.divui %rank, %c2 : index
  %first2 = arith.muli %i, %c4 : index
  %shard2 = tensor.extract_slice %table[%first2, 0] [4, 2] [1, 1] : tensor<8x2xf32> to tensor<4x2xf32>
  %first1 = arith.muli %rank, %c2 : index
  %shard1 = tensor.extract_slice %table[%first1, 0] [2, 2] [1, 1] : tensor<8x2xf32> to tensor<2x2xf32>
  %ids = arith.constant dense<[7, 3, 0]> : tensor<3xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %calls = arith.constant 2100 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %k = %c0 to %calls step %c1 iter_args(%a = %zero) -> (f32) {
    %r2 = func.call @split_2x2(%shard2, %ids) : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
    %x = tensor.extract %r2[%c1, %c1] : tensor<3x2xf32>
    %a2 = arith.addf %a, %x : f32
    scf.yield %a2 : f32
  }
  %r1 = func.call @split_1d(%shard1, %ids) : (tensor<2x2xf32>, tensor<3xi64>) -> tensor<3x2xf32>
  %y = tensor.extract %r1[%c1, %c1] : tensor<3x2xf32>
  %first = arith.cmpi eq, %rank, %c0 : index
  scf.if %first {
    %out = tensor.from_elements %sum, %y : tensor<2xf32>
    %u = tensor.cast %out : tensor<2xf32> to tensor<*xf32>
    func.call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  }
  %fin = mpi.finalize : !mpi.retval
  return
}
