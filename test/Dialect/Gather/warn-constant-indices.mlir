// RUN: gather-opt %s --gather-warn-constant-indices -split-input-file -verify-diagnostics

/// check mode reports an out-of-range index when the gather runs; the
/// verifier accepts constant ones (the op may never run), and this pass
/// warns about them ahead of time, naming the value, where it is and the
/// valid range.

func.func @gather_constant_index_out_of_range(%d: tensor<5xf32>) {
  %i = arith.constant dense<[1, 10, -20]> : tensor<3xi32>
  // expected-warning @+1 {{'gather.gather' op index 10 at indices[1] is out of range [-5, 4] for data dimension 0 of size 5}}
  %0 = gather.gather %d[%i] : (tensor<5xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_elements_constant_index_out_of_range(%d: tensor<2x3xf32>) {
  %i = arith.constant dense<[[0, 1], [2, -4]]> : tensor<2x2xi64>
  // expected-warning @+1 {{'gather.gather_elements' op index -4 at indices[1, 1] is out of range [-3, 2] for data dimension 1 of size 3}}
  %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return
}

// -----

/// Each tuple component is checked against its own dimension.
func.func @gather_nd_constant_component_out_of_range(%d: tensor<2x3xf32>) {
  %i = arith.constant dense<[[1, 2], [1, 3]]> : tensor<2x2xi64>
  // expected-warning @+1 {{'gather.gather_nd' op index 3 at indices[1, 1] is out of range [-3, 2] for data dimension 1 of size 3}}
  %0 = gather.gather_nd %d[%i] : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  return
}

// -----

/// A splat is checked as one value: 10^10 indices cost nothing.
func.func @gather_splat_index_out_of_range_1e10(%d: tensor<4xf32>) {
  %i = arith.constant dense<7> : tensor<100000x100000xi32>
  // expected-warning @+1 {{'gather.gather' op index 7 at indices[0, 0] is out of range [-4, 3] for data dimension 0 of size 4}}
  %0 = gather.gather %d[%i] : (tensor<4xf32>, tensor<100000x100000xi32>) -> tensor<100000x100000xf32>
  return
}

// -----

/// A splat tuple: component 0 is in range, component 1 is the first bad one.
func.func @gather_nd_splat_component_out_of_range_1e10(%d: tensor<10x2xf32>) {
  %i = arith.constant dense<5> : tensor<100000x100000x2xi32>
  // expected-warning @+1 {{'gather.gather_nd' op index 5 at indices[0, 0, 1] is out of range [-2, 1] for data dimension 1 of size 2}}
  %0 = gather.gather_nd %d[%i] : (tensor<10x2xf32>, tensor<100000x100000x2xi32>) -> tensor<100000x100000xf32>
  return
}

// -----

/// 2^62 x 4 splat indices: their count wraps to 0 in 64 bits.
func.func @gather_splat_index_out_of_range_overflowing_count(%d: tensor<4x2xi8>) {
  %i = arith.constant dense<9> : tensor<4611686018427387904x4xi32>
  // expected-warning @+1 {{'gather.gather' op index 9 at indices[0, 0] is out of range [-4, 3] for data dimension 0 of size 4}}
  %0 = gather.gather %d[%i] : (tensor<4x2xi8>, tensor<4611686018427387904x4xi32>) -> tensor<4611686018427387904x4x2xi8>
  return
}

// -----

/// Behind a cast and in a branch that may never run: valid IR, a warning.
func.func @constant_behind_cast_in_branch(%c: i1, %d: tensor<4xf32>, %e: tensor<1xf32>) -> tensor<1xf32> {
  %r = scf.if %c -> (tensor<1xf32>) {
    %k = arith.constant dense<[7]> : tensor<1xi64>
    %i = tensor.cast %k : tensor<1xi64> to tensor<1xi64>
    // expected-warning @+1 {{'gather.gather' op index 7 at indices[0] is out of range [-4, 3] for data dimension 0 of size 4 (an error if it runs)}}
    %g = gather.gather %d[%i] : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
    scf.yield %g : tensor<1xf32>
  } else {
    scf.yield %e : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

/// Only check mode makes an out-of-range index an error: no warning here.
func.func @other_modes_no_warning(%d: tensor<4xf32>) -> (tensor<1xf32>, tensor<1xf32>) {
  %k = arith.constant dense<[7]> : tensor<1xi64>
  %f = gather.gather %d[%k] {mode = #gather<mode fill>} : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
  %w = gather.gather %d[%k] {mode = #gather<mode wrap>} : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %f, %w : tensor<1xf32>, tensor<1xf32>
}
