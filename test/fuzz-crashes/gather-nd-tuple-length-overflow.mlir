// gather-fuzz finding (UBSan, verifier at parse time): gather_nd's shape rule (GatherShapes.cpp:260)
// tests b + k > r with k = the index tuple length, the last dim of indices; k = INT64_MAX overflows.
// Reproduce: build-fuzz/bin/gather-fuzz THIS_FILE, or build-asan/bin/gather-opt THIS_FILE.
// signature: GatherShapes.cpp:260:9: runtime error: signed integer overflow
func.func @nd_b(%d: tensor<9223372036854775807x3x4x8xf32>, %i: tensor<9223372036854775807x5x9223372036854775807xi32>) -> tensor<0xf32> {gather.gather_nd %d[%i] {batch_dims = 1 } : (tensor<9223372036854775807x3x4x8xf32>,tensor<9223372036854775807x5x9223372036854775807xi32>) -> tensor<0x8xf32>}

