// RUN: gather-opt %s -verify-diagnostics -o /dev/null
//
// A gather-fuzz finding, fixed (UBSan, verifier at parse time): gather_nd's shape rule (GatherShapes.cpp:260)
// tests b + k > r with k = the index tuple length, the last dim of indices; k = INT64_MAX overflows.
// expected-error @+1 {{index tuples of length 9223372036854775807 after 1 batch dimensions need data of rank >= 1 + 9223372036854775807, but data has rank 4}}
func.func @nd_b(%d: tensor<9223372036854775807x3x4x8xf32>, %i: tensor<9223372036854775807x5x9223372036854775807xi32>) -> tensor<0xf32> {gather.gather_nd %d[%i] {batch_dims = 1 } : (tensor<9223372036854775807x3x4x8xf32>,tensor<9223372036854775807x5x9223372036854775807xi32>) -> tensor<0x8xf32>}

