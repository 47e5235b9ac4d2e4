// RUN: gather-opt %s --convert-tensor-to-gather --split-input-file -verify-diagnostics
// RUN: gather-opt %s --convert-tensor-to-gather="mode=fill" --split-input-file | FileCheck %s --check-prefix=FILL

/// A gather-fuzz finding: coordinates into a dim that is statically empty
/// are all out of range; in check mode that is a diagnostic (the rewrite
/// used to abort in the gather_nd builder), in fill mode the result is 0.
// FILL-LABEL: func.func @empty_gathered_dim
// FILL: gather.gather_nd %{{.*}} {mode = #gather<mode fill>}
func.func @empty_gathered_dim(%data: tensor<0x5x?xf32>, %idx: tensor<2x3x2xindex>) -> tensor<2x3x1x5x1xf32> {
  // expected-error @+1 {{'tensor.gather' op cannot be raised to gather.gather_nd: data dimension 0 has size 0, so none of the 6 indices is valid in mode 'check' (use 'fill')}}
  %r = tensor.gather %data[%idx] gather_dims([0, 2]) : (tensor<0x5x?xf32>, tensor<2x3x2xindex>) -> tensor<2x3x1x5x1xf32>
  return %r : tensor<2x3x1x5x1xf32>
}
