// RUN: gather-opt %s --one-shot-bufferize --split-input-file -verify-diagnostics

/// A buffer needs a known rank: bufferization fails with a diagnostic, never
/// a crash.
func.func @unranked_result(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  // expected-error @+2 {{'gather.gather' op cannot bufferize: the result rank is not known}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// Static sizes that count past int64 elements (no memory holds them): the
/// kernels' collapsed dims could not be typed, so bufferizing refuses.
func.func @uncountable_gather(%d: tensor<10x2xf32>, %i: tensor<4611686018427387904x4611686018427387904x2xi32>) -> tensor<4611686018427387904x4611686018427387904xf32> {
  // expected-error @+2 {{'gather.gather_nd' op cannot bufferize: its static sizes count past int64 elements}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = gather.gather_nd %d[%i] {mode = #gather<mode clamp>} : (tensor<10x2xf32>, tensor<4611686018427387904x4611686018427387904x2xi32>) -> tensor<4611686018427387904x4611686018427387904xf32>
  return %0 : tensor<4611686018427387904x4611686018427387904xf32>
}

// -----

func.func @uncountable_scatter(%d: tensor<4611686018427387904x4611686018427387904xf32>, %i: tensor<1xi64>, %u: tensor<4611686018427387904x1xf32>) -> tensor<4611686018427387904x4611686018427387904xf32> {
  // expected-error @+2 {{'gather.scatter' op cannot bufferize: its static sizes count past int64 elements}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = gather.scatter %d[%i], %u {axis = 1 : i64} : (tensor<4611686018427387904x4611686018427387904xf32>, tensor<1xi64>, tensor<4611686018427387904x1xf32>) -> tensor<4611686018427387904x4611686018427387904xf32>
  return %0 : tensor<4611686018427387904x4611686018427387904xf32>
}
