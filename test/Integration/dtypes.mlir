// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="vectorize=false" | %run_main | FileCheck %s

// Every data type of docs/Semantics.md through the vector path (rows of 37: full
// vectors and a masked tail for every lane count) and the scalar path, and
// every index type.

func.func private @printMemrefI16(tensor<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefI64(tensor<*xi64>)
func.func private @printMemrefF16(tensor<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefBF16(tensor<*xbf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF64(tensor<*xf64>)
func.func private @printMemrefC32(tensor<*xcomplex<f32>>)
func.func private @printMemrefC64(tensor<*xcomplex<f64>>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %idx = arith.constant dense<[2, -1, 0]> : tensor<3xi32>
  %row = arith.constant dense<[1, 0]> : tensor<2xi64>

  // i1, read back element by element.
  // CHECK: 1
  // CHECK-NEXT: 0
  // CHECK-NEXT: 0
  %b = arith.constant dense<[false, true, true, false]> : tensor<4xi1>
  %rb = gather.gather %b[%idx] : (tensor<4xi1>, tensor<3xi32>) -> tensor<3xi1>
  %b0 = tensor.extract %rb[%c0] : tensor<3xi1>
  %b1 = tensor.extract %rb[%c1] : tensor<3xi1>
  %b2 = tensor.extract %rb[%c2] : tensor<3xi1>
  vector.print %b0 : i1
  vector.print %b1 : i1
  vector.print %b2 : i1

  // i8 rows of 37 (32 lanes + 5): the first lane, the last of the full
  // vector, the first and last of the masked tail, of both result rows.
  // CHECK-NEXT: 37
  // CHECK-NEXT: 68
  // CHECK-NEXT: 69
  // CHECK-NEXT: 73
  // CHECK-NEXT: 0
  // CHECK-NEXT: 31
  // CHECK-NEXT: 32
  // CHECK-NEXT: 36
  %i8 = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36],
                              [37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73]]> : tensor<2x37xi8>
  %r8 = gather.gather %i8[%row] : (tensor<2x37xi8>, tensor<2xi64>) -> tensor<2x37xi8>
  %c31 = arith.constant 31 : index
  %c32 = arith.constant 32 : index
  %c36 = arith.constant 36 : index
  scf.for %r = %c0 to %c2 step %c1 {
    %x0 = tensor.extract %r8[%r, %c0] : tensor<2x37xi8>
    %x31 = tensor.extract %r8[%r, %c31] : tensor<2x37xi8>
    %x32 = tensor.extract %r8[%r, %c32] : tensor<2x37xi8>
    %x36 = tensor.extract %r8[%r, %c36] : tensor<2x37xi8>
    vector.print %x0 : i8
    vector.print %x31 : i8
    vector.print %x32 : i8
    vector.print %x36 : i8
  }

  // i16 with i8 indices.
  // CHECK: [3,  -4,  1]
  %i16 = arith.constant dense<[1, 2, 3, -4]> : tensor<4xi16>
  %j8 = arith.constant dense<[2, -1, 0]> : tensor<3xi8>
  %r16 = gather.gather %i16[%j8] : (tensor<4xi16>, tensor<3xi8>) -> tensor<3xi16>
  %u16 = tensor.cast %r16 : tensor<3xi16> to tensor<*xi16>
  call @printMemrefI16(%u16) : (tensor<*xi16>) -> ()

  // i32 with i16 indices.
  // CHECK: [30,  40,  10]
  %i32 = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %j16 = arith.constant dense<[2, -1, 0]> : tensor<3xi16>
  %r32 = gather.gather %i32[%j16] : (tensor<4xi32>, tensor<3xi16>) -> tensor<3xi32>
  %u32 = tensor.cast %r32 : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%u32) : (tensor<*xi32>) -> ()

  // i64 with index indices, values beyond 32 bits.
  // CHECK: [8589934592,  -1,  4294967296]
  %i64 = arith.constant dense<[4294967296, 7, 8589934592, -1]> : tensor<4xi64>
  %jx = arith.constant dense<[2, -1, 0]> : tensor<3xindex>
  %r64 = gather.gather %i64[%jx] : (tensor<4xi64>, tensor<3xindex>) -> tensor<3xi64>
  %u64 = tensor.cast %r64 : tensor<3xi64> to tensor<*xi64>
  call @printMemrefI64(%u64) : (tensor<*xi64>) -> ()

  // f16 and bf16.
  // CHECK: [2.5,  -3,  0.5]
  %h = arith.constant dense<[0.5, 1.5, 2.5, -3.0]> : tensor<4xf16>
  %rh = gather.gather %h[%idx] : (tensor<4xf16>, tensor<3xi32>) -> tensor<3xf16>
  %uh = tensor.cast %rh : tensor<3xf16> to tensor<*xf16>
  call @printMemrefF16(%uh) : (tensor<*xf16>) -> ()
  // CHECK: [2.5,  -3,  0.5]
  %bf = arith.constant dense<[0.5, 1.5, 2.5, -3.0]> : tensor<4xbf16>
  %rbf = gather.gather %bf[%idx] : (tensor<4xbf16>, tensor<3xi32>) -> tensor<3xbf16>
  %ubf = tensor.cast %rbf : tensor<3xbf16> to tensor<*xbf16>
  call @printMemrefBF16(%ubf) : (tensor<*xbf16>) -> ()

  // f32 rows of 37 (8 lanes + 5), gathered by i64 indices.
  // CHECK: [36.5,   37.5,   38.5,   39.5,   40.5,   41.5,   42.5,   43.5,   44.5,   45.5,   46.5,   47.5,   48.5,   49.5,   50.5,   51.5,   52.5,   53.5,   54.5,   55.5,   56.5,   57.5,   58.5,   59.5,   60.5,   61.5,   62.5,   63.5,   64.5,   65.5,   66.5,   67.5,   68.5,   69.5,   70.5,   71.5,   72.5],
  %f32 = arith.constant dense<[[-0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5, 35.5],
                               [36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5, 49.5, 50.5, 51.5, 52.5, 53.5, 54.5, 55.5, 56.5, 57.5, 58.5, 59.5, 60.5, 61.5, 62.5, 63.5, 64.5, 65.5, 66.5, 67.5, 68.5, 69.5, 70.5, 71.5, 72.5]]> : tensor<2x37xf32>
  %rf = gather.gather %f32[%row] : (tensor<2x37xf32>, tensor<2xi64>) -> tensor<2x37xf32>
  %uf = tensor.cast %rf : tensor<2x37xf32> to tensor<*xf32>
  call @printMemrefF32(%uf) : (tensor<*xf32>) -> ()

  // f64.
  // CHECK: [3.25,  -4.75,  1.25]
  %f64 = arith.constant dense<[1.25, 2.25, 3.25, -4.75]> : tensor<4xf64>
  %rd = gather.gather %f64[%idx] : (tensor<4xf64>, tensor<3xi32>) -> tensor<3xf64>
  %ud = tensor.cast %rd : tensor<3xf64> to tensor<*xf64>
  call @printMemrefF64(%ud) : (tensor<*xf64>) -> ()

  // complex<f32> and complex<f64>, with fill mode writing complex zeros.
  // CHECK: [(3,-3),  (0,0),  (1,-1)]
  %c = arith.constant dense<[(1.0, -1.0), (2.0, -2.0), (3.0, -3.0), (4.0, -4.0)]> : tensor<4xcomplex<f32>>
  %ci = arith.constant dense<[2, 9, 0]> : tensor<3xi32>
  %rc = gather.gather %c[%ci] {mode = #gather<mode fill>} : (tensor<4xcomplex<f32>>, tensor<3xi32>) -> tensor<3xcomplex<f32>>
  %uc = tensor.cast %rc : tensor<3xcomplex<f32>> to tensor<*xcomplex<f32>>
  call @printMemrefC32(%uc) : (tensor<*xcomplex<f32>>) -> ()
  // CHECK: [(3.5,-3.5),  (4.5,-4.5),  (1.5,-1.5)]
  %z = arith.constant dense<[(1.5, -1.5), (2.5, -2.5), (3.5, -3.5), (4.5, -4.5)]> : tensor<4xcomplex<f64>>
  %rz = gather.gather %z[%idx] : (tensor<4xcomplex<f64>>, tensor<3xi32>) -> tensor<3xcomplex<f64>>
  %uz = tensor.cast %rz : tensor<3xcomplex<f64>> to tensor<*xcomplex<f64>>
  call @printMemrefC64(%uz) : (tensor<*xcomplex<f64>>) -> ()
  return
}
