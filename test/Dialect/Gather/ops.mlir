// RUN: gather-opt %s | FileCheck %s
// RUN: gather-opt %s | gather-opt | FileCheck %s
// RUN: gather-opt %s --mlir-print-op-generic | gather-opt | FileCheck %s

// The textual forms of docs/Semantics.md, printed back with defaults elided.

// CHECK-LABEL: func.func @semantics_forms
func.func @semantics_forms(%data: tensor<2x5xf32>, %idx: tensor<2x3xi32>,
                           %d2: tensor<2x2xi32>, %i2: tensor<2x2xi64>,
                           %d3: tensor<2x2xf32>)
    -> (tensor<2x3xf32>, tensor<2x2xi32>, tensor<2xf32>) {
  // CHECK: gather.gather %{{.*}}[%{{.*}}] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %a = gather.gather %data[%idx] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  // CHECK: gather.gather_elements %{{.*}}[%{{.*}}] : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %b = gather.gather_elements %d2[%i2] {axis = 0 : i64} : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  // CHECK: gather.gather_nd %{{.*}}[%{{.*}}] : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  %c = gather.gather_nd %d3[%i2] {batch_dims = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  return %a, %b, %c : tensor<2x3xf32>, tensor<2x2xi32>, tensor<2xf32>
}

// CHECK-LABEL: func.func @all_modes
func.func @all_modes(%d: tensor<5xi32>, %i: tensor<3xi64>, %ni: tensor<3x1xi64>) {
  // CHECK: gather.gather %{{.*}}[%{{.*}}] : (tensor<5xi32>, tensor<3xi64>)
  %0 = gather.gather %d[%i] {mode = #gather<mode check>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  // CHECK: mode = #gather<mode fill>
  %1 = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  // CHECK: mode = #gather<mode clamp>
  %2 = gather.gather %d[%i] {mode = #gather<mode clamp>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  // CHECK: mode = #gather<mode wrap>
  %3 = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  // CHECK: mode = #gather<mode unchecked>
  %4 = gather.gather %d[%i] {mode = #gather<mode unchecked>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  // CHECK: gather.gather_elements {{.*}}mode = #gather<mode wrap>
  %5 = gather.gather_elements %d[%i] {mode = #gather<mode wrap>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  // CHECK: gather.gather_nd {{.*}}mode = #gather<mode clamp>
  %6 = gather.gather_nd %d[%ni] {mode = #gather<mode clamp>} : (tensor<5xi32>, tensor<3x1xi64>) -> tensor<3xi32>
  return
}

// CHECK-LABEL: func.func @all_index_types
func.func @all_index_types(%d: tensor<4x3xf32>, %i8: tensor<2xi8>, %i16: tensor<2xi16>,
                           %i32: tensor<2xi32>, %i64: tensor<2xi64>, %ix: tensor<2xindex>) {
  // CHECK: (tensor<4x3xf32>, tensor<2xi8>) -> tensor<2x3xf32>
  %0 = gather.gather %d[%i8] : (tensor<4x3xf32>, tensor<2xi8>) -> tensor<2x3xf32>
  // CHECK: (tensor<4x3xf32>, tensor<2xi16>) -> tensor<2x3xf32>
  %1 = gather.gather %d[%i16] : (tensor<4x3xf32>, tensor<2xi16>) -> tensor<2x3xf32>
  // CHECK: (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %2 = gather.gather %d[%i32] : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  // CHECK: (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %3 = gather.gather %d[%i64] : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  // CHECK: (tensor<4x3xf32>, tensor<2xindex>) -> tensor<2x3xf32>
  %4 = gather.gather %d[%ix] : (tensor<4x3xf32>, tensor<2xindex>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @all_data_types
func.func @all_data_types(%i: tensor<2xi32>, %b: tensor<4xi1>, %i4: tensor<4xi4>,
                          %h: tensor<4xf16>, %bf: tensor<4xbf16>, %f: tensor<4xf32>,
                          %d: tensor<4xf64>, %c: tensor<4xcomplex<f32>>,
                          %z: tensor<4xcomplex<f64>>, %w: tensor<4xi128>) {
  // CHECK: -> tensor<2xi1>
  %0 = gather.gather %b[%i] : (tensor<4xi1>, tensor<2xi32>) -> tensor<2xi1>
  // CHECK: -> tensor<2xi4>
  %1 = gather.gather %i4[%i] : (tensor<4xi4>, tensor<2xi32>) -> tensor<2xi4>
  // CHECK: -> tensor<2xf16>
  %2 = gather.gather %h[%i] : (tensor<4xf16>, tensor<2xi32>) -> tensor<2xf16>
  // CHECK: -> tensor<2xbf16>
  %3 = gather.gather %bf[%i] : (tensor<4xbf16>, tensor<2xi32>) -> tensor<2xbf16>
  // CHECK: -> tensor<2xf32>
  %4 = gather.gather %f[%i] : (tensor<4xf32>, tensor<2xi32>) -> tensor<2xf32>
  // CHECK: -> tensor<2xf64>
  %5 = gather.gather %d[%i] : (tensor<4xf64>, tensor<2xi32>) -> tensor<2xf64>
  // CHECK: -> tensor<2xcomplex<f32>>
  %6 = gather.gather %c[%i] : (tensor<4xcomplex<f32>>, tensor<2xi32>) -> tensor<2xcomplex<f32>>
  // CHECK: -> tensor<2xcomplex<f64>>
  %7 = gather.gather %z[%i] : (tensor<4xcomplex<f64>>, tensor<2xi32>) -> tensor<2xcomplex<f64>>
  // CHECK: -> tensor<2xi128>
  %8 = gather.gather %w[%i] : (tensor<4xi128>, tensor<2xi32>) -> tensor<2xi128>
  return
}

/// The seed examples' types: ONNX Gather (axis 0 and 1), OpenVINO Gather-8
/// examples 1-7 and its XML example, GatherElements-6 examples 1-3 and XML,
/// torch.gather, tf.keras.backend.gather.
// CHECK-LABEL: func.func @seed_example_types
func.func @seed_example_types(
    %onnx_d: tensor<3x2xf32>, %onnx_i: tensor<2x2xi64>,
    %onnx_d1: tensor<3x3xf32>, %onnx_i1: tensor<1x2xi64>,
    %ov_d1: tensor<5xi32>, %ov_i1: tensor<3xi32>,
    %ov_d2: tensor<2x5xi32>, %ov_i2: tensor<2x3xi32>,
    %ov_d3: tensor<2x2x5xi32>, %ov_i3: tensor<2x2x3xi32>,
    %ov_d4: tensor<2x1x5x4xi32>,
    %ov_dx: tensor<2x64x128xf32>, %ov_ix: tensor<2x32x21xi32>,
    %ge_d: tensor<2x2xi32>, %ge_i: tensor<2x2xi32>, %ge_i2: tensor<2x3xi32>,
    %ge_d3: tensor<3x3xi32>, %ge_i3: tensor<2x3xi32>,
    %ge_dx: tensor<3x7x5xf32>, %ge_ix: tensor<3x10x5xi32>,
    %tf_d: tensor<2x3xf32>, %tf_i: tensor<3xi32>) {
  // CHECK: (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  %0 = gather.gather %onnx_d[%onnx_i] : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  // CHECK: (tensor<3x3xf32>, tensor<1x2xi64>) -> tensor<3x1x2xf32>
  %1 = gather.gather %onnx_d1[%onnx_i1] {axis = 1 : i64} : (tensor<3x3xf32>, tensor<1x2xi64>) -> tensor<3x1x2xf32>
  // CHECK: (tensor<5xi32>, tensor<3xi32>) -> tensor<3xi32>
  %2 = gather.gather %ov_d1[%ov_i1] : (tensor<5xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = gather.gather %ov_d2[%ov_i2] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: {axis = 2 : i64, batch_dims = 2 : i64} : (tensor<2x2x5xi32>, tensor<2x2x3xi32>) -> tensor<2x2x3xi32>
  %4 = gather.gather %ov_d3[%ov_i3] {axis = 2 : i64, batch_dims = 2 : i64} : (tensor<2x2x5xi32>, tensor<2x2x3xi32>) -> tensor<2x2x3xi32>
  // CHECK: {axis = 2 : i64, batch_dims = 1 : i64} : (tensor<2x1x5x4xi32>, tensor<2x3xi32>) -> tensor<2x1x3x4xi32>
  %5 = gather.gather %ov_d4[%ov_i2] {axis = 2 : i64, batch_dims = 1 : i64} : (tensor<2x1x5x4xi32>, tensor<2x3xi32>) -> tensor<2x1x3x4xi32>
  // CHECK: {axis = 1 : i64, batch_dims = -1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %6 = gather.gather %ov_d2[%ov_i2] {axis = 1 : i64, batch_dims = -1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x64x128xf32>, tensor<2x32x21xi32>) -> tensor<2x32x21x128xf32>
  %7 = gather.gather %ov_dx[%ov_ix] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x64x128xf32>, tensor<2x32x21xi32>) -> tensor<2x32x21x128xf32>
  // CHECK: (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %8 = gather.gather_elements %ge_d[%ge_i] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: {axis = 1 : i64} : (tensor<2x2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %9 = gather.gather_elements %ge_d[%ge_i2] {axis = 1 : i64} : (tensor<2x2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: (tensor<3x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %10 = gather.gather_elements %ge_d3[%ge_i3] : (tensor<3x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: {axis = 1 : i64} : (tensor<3x7x5xf32>, tensor<3x10x5xi32>) -> tensor<3x10x5xf32>
  %11 = gather.gather_elements %ge_dx[%ge_ix] {axis = 1 : i64} : (tensor<3x7x5xf32>, tensor<3x10x5xi32>) -> tensor<3x10x5xf32>
  // CHECK: {axis = -1 : i64} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %12 = gather.gather_elements %ge_d[%ge_i] {axis = -1 : i64} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  // CHECK: (tensor<2x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>
  %13 = gather.gather %tf_d[%tf_i] : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>
  return
}

/// The ONNX GatherND examples' types (batch_dims 0 and 1, full and partial
/// tuples).
// CHECK-LABEL: func.func @gather_nd_onnx_example_types
func.func @gather_nd_onnx_example_types(%d2: tensor<2x2xi32>, %i1: tensor<2x2xi64>,
    %i2: tensor<2x1xi64>, %d3: tensor<2x2x2xi32>, %i3: tensor<2x1x2xi64>,
    %i4: tensor<2x1x1xi64>, %i5: tensor<2x1xi64>) {
  // CHECK: (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2xi32>
  %0 = gather.gather_nd %d2[%i1] : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2xi32>
  // CHECK: (tensor<2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  %1 = gather.gather_nd %d2[%i2] : (tensor<2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  // CHECK: (tensor<2x2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %2 = gather.gather_nd %d3[%i1] : (tensor<2x2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  // CHECK: (tensor<2x2x2xi32>, tensor<2x1x2xi64>) -> tensor<2x1x2xi32>
  %3 = gather.gather_nd %d3[%i3] : (tensor<2x2x2xi32>, tensor<2x1x2xi64>) -> tensor<2x1x2xi32>
  // CHECK: {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  %4 = gather.gather_nd %d3[%i5] {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return
}

// CHECK-LABEL: func.func @scalar_indices
func.func @scalar_indices(%d: tensor<4x3xf32>, %i: tensor<i64>) -> tensor<3xf32> {
  // CHECK: (tensor<4x3xf32>, tensor<i64>) -> tensor<3xf32>
  %0 = gather.gather %d[%i] : (tensor<4x3xf32>, tensor<i64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @dynamic_dims
func.func @dynamic_dims(%d: tensor<?x4xf32>, %i: tensor<?xi32>, %d2: tensor<?x?xf32>,
                        %i2: tensor<?x?xi64>, %i3: tensor<?x2xi64>) {
  // CHECK: (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
  %0 = gather.gather %d[%i] : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x4xf32>
  // CHECK: {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  %1 = gather.gather %d[%i] {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x?xf32>
  // CHECK: (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  %2 = gather.gather_elements %d2[%i2] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  // CHECK: (tensor<?x?xf32>, tensor<?x2xi64>) -> tensor<?xf32>
  %3 = gather.gather_nd %d2[%i3] : (tensor<?x?xf32>, tensor<?x2xi64>) -> tensor<?xf32>
  /// A static result dimension refines a dynamic source dimension.
  // CHECK: (tensor<?x4xf32>, tensor<?xi32>) -> tensor<3x4xf32>
  %4 = gather.gather %d[%i] : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @unranked
func.func @unranked(%d: tensor<*xf32>, %i: tensor<*xi64>, %r: tensor<3x4xf32>, %ri: tensor<3x2xi64>) {
  // CHECK: (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  %0 = gather.gather %d[%i] {axis = 1 : i64} : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  // CHECK: (tensor<*xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  %1 = gather.gather_elements %d[%ri] : (tensor<*xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // CHECK: (tensor<3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  %2 = gather.gather_nd %r[%i] : (tensor<3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func.func @zero_size
func.func @zero_size(%d: tensor<0x3xf32>, %i: tensor<0xi32>, %e: tensor<4x0xf32>, %j: tensor<2xi32>) {
  /// An empty axis is fine when there is no index to look it up with.
  // CHECK: (tensor<0x3xf32>, tensor<0xi32>) -> tensor<0x3xf32>
  %0 = gather.gather %d[%i] : (tensor<0x3xf32>, tensor<0xi32>) -> tensor<0x3xf32>
  /// ... and in fill mode whatever the indices.
  // CHECK: (tensor<0x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %1 = gather.gather %d[%j] {mode = #gather<mode fill>} : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  // CHECK: (tensor<4x0xf32>, tensor<2xi32>) -> tensor<2x0xf32>
  %2 = gather.gather %e[%j] : (tensor<4x0xf32>, tensor<2xi32>) -> tensor<2x0xf32>
  return
}
