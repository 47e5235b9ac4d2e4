// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s

/// Streaming (non-temporal) row stores, forced on for a small result: rows
/// of 67 f32 (268 bytes) into a destination whose rows start at different
/// offsets from a 32-byte boundary (row stride 83 elements, offset 1), so
/// every row has a different masked head, aligned streaming vectors and a
/// masked tail. The elements around the destination keep their -1s.

func.func private @printMemrefF32(memref<*xf32>)

func.func @gather_into(%d: tensor<?x?xf32>, %i: tensor<?xi64>, %o: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  %r = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c67 = arith.constant 67 : index
  %c100 = arith.constant 100.0 : f32
  %data = tensor.generate %c5, %c67 {
  ^bb0(%r: index, %c: index):
    %ri = arith.index_cast %r : index to i64
    %ci = arith.index_cast %c : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %cf = arith.sitofp %ci : i64 to f32
    %v = arith.mulf %rf, %c100 : f32
    %w = arith.addf %v, %cf : f32
    tensor.yield %w : f32
  } : tensor<?x?xf32>
  %idx = arith.constant dense<[4, 0, -1, 2]> : tensor<4xi64>
  %di = tensor.cast %idx : tensor<4xi64> to tensor<?xi64>

  %buf = memref.alloc() : memref<4x83xf32>
  %m1 = arith.constant -1.0 : f32
  linalg.fill ins(%m1 : f32) outs(%buf : memref<4x83xf32>)
  %view = memref.subview %buf[0, 1] [4, 67] [1, 1] : memref<4x83xf32> to memref<4x67xf32, strided<[83, 1], offset: 1>>
  %dyn = memref.cast %view : memref<4x67xf32, strided<[83, 1], offset: 1>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  call @gather_into(%data, %di, %dyn) : (tensor<?x?xf32>, tensor<?xi64>, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> ()

  // CHECK:      {{\[}}[-1,{{ +}}400,{{ +}}401,{{ +}}402,{{.*}},{{ +}}465,{{ +}}466,{{ +}}-1,{{( +-1,)+}}{{ +}}-1],
  // CHECK-NEXT: [-1,{{ +}}0,{{ +}}1,{{ +}}2,{{.*}},{{ +}}65,{{ +}}66,{{ +}}-1,{{( +-1,)+}}{{ +}}-1],
  // CHECK-NEXT: [-1,{{ +}}400,{{ +}}401,{{ +}}402,{{.*}},{{ +}}465,{{ +}}466,{{ +}}-1,{{( +-1,)+}}{{ +}}-1],
  // CHECK-NEXT: [-1,{{ +}}200,{{ +}}201,{{ +}}202,{{.*}},{{ +}}265,{{ +}}266,{{ +}}-1,{{( +-1,)+}}{{ +}}-1]]
  %u = memref.cast %buf : memref<4x83xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
