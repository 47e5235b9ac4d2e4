// RUN: gather-opt %s -split-input-file -verify-diagnostics

// The scatters take their gather's rules on (dest, indices); updates has the
// gather's result shape.

func.func @scatter_axis_too_large(%d: tensor<2x5xf32>, %i: tensor<3xi32>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{'gather.scatter' op axis 2 is out of range [-2, 1] for data of rank 2}}
  %0 = gather.scatter %d[%i], %u {axis = 2 : i64} : (tensor<2x5xf32>, tensor<3xi32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @scatter_updates_rank(%d: tensor<2x5xf32>, %i: tensor<3xi32>, %u: tensor<6xf32>) {
  // expected-error @+1 {{'gather.scatter' op updates must have rank 2 (the gather's result for dest and indices), but has rank 1}}
  %0 = gather.scatter %d[%i], %u {axis = 1 : i64} : (tensor<2x5xf32>, tensor<3xi32>, tensor<6xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @scatter_updates_dim(%d: tensor<2x5xf32>, %i: tensor<3xi32>, %u: tensor<2x4xf32>) {
  // expected-error @+1 {{'gather.scatter' op updates dimension 1 has size 4, but dest and indices give 3}}
  %0 = gather.scatter %d[%i], %u {axis = 1 : i64} : (tensor<2x5xf32>, tensor<3xi32>, tensor<2x4xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @scatter_updates_element_type(%d: tensor<5xf32>, %i: tensor<3xi32>, %u: tensor<3xf16>) {
  // expected-error @+1 {{'gather.scatter' op updates element type 'f16' must match the dest element type 'f32'}}
  %0 = gather.scatter %d[%i], %u : (tensor<5xf32>, tensor<3xi32>, tensor<3xf16>) -> tensor<5xf32>
  return
}

// -----

func.func @scatter_result_type(%d: tensor<5xf32>, %i: tensor<3xi32>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'gather.scatter' op failed to verify that all of {dest, result} have same type}}
  %0 = gather.scatter %d[%i], %u : (tensor<5xf32>, tensor<3xi32>, tensor<3xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @scatter_max_complex(%d: tensor<5xcomplex<f32>>, %i: tensor<3xi32>, %u: tensor<3xcomplex<f32>>) {
  // expected-error @+1 {{'gather.scatter' op reduction max is not defined on complex numbers ('complex<f32>')}}
  %0 = gather.scatter %d[%i], %u {reduction = #gather<combine max>} : (tensor<5xcomplex<f32>>, tensor<3xi32>, tensor<3xcomplex<f32>>) -> tensor<5xcomplex<f32>>
  return
}

// -----

func.func @scatter_unknown_combine(%d: tensor<5xf32>, %i: tensor<3xi32>, %u: tensor<3xf32>) {
  // expected-error @+1 {{unknown scatter combine 'sum', expected one of: none, add, mul, max, min}}
  %0 = gather.scatter %d[%i], %u {reduction = #gather<combine sum>} : (tensor<5xf32>, tensor<3xi32>, tensor<3xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @scatter_batch_dims_mismatch(%d: tensor<2x5xf32>, %i: tensor<3x4xi32>, %u: tensor<3x4xf32>) {
  // expected-error @+1 {{'gather.scatter' op}}
  %0 = gather.scatter %d[%i], %u {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xf32>, tensor<3x4xi32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @scatter_elements_rank(%d: tensor<3x3xf32>, %i: tensor<3xi64>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'gather.scatter_elements' op}}
  %0 = gather.scatter_elements %d[%i], %u : (tensor<3x3xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_elements_updates_shape(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>, %u: tensor<3x3xf32>) {
  // expected-error @+1 {{'gather.scatter_elements' op updates dimension 0 has size 3, but dest and indices give 2}}
  %0 = gather.scatter_elements %d[%i], %u : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @scatter_nd_tuple_too_long(%d: tensor<4x4xf32>, %i: tensor<3x3xi64>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'gather.scatter_nd' op}}
  %0 = gather.scatter_nd %d[%i], %u : (tensor<4x4xf32>, tensor<3x3xi64>, tensor<3xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @scatter_unranked(%d: tensor<*xf32>, %i: tensor<3xi64>, %u: tensor<3xf32>) {
  // expected-error @+1 {{'gather.scatter' op operand #0 must be ranked tensor}}
  %0 = gather.scatter %d[%i], %u : (tensor<*xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<*xf32>
  return
}
