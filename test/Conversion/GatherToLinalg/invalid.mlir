// RUN: gather-opt %s --convert-gather-to-linalg -split-input-file -verify-diagnostics

func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  // expected-error @below {{convert-gather-to-linalg needs ranked operands (refine them with gather-shape-inference, or lower with gather-to-llvm, which dispatches on run-time ranks)}}
  %r = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
