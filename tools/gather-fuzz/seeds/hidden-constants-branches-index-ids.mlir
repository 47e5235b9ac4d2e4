// Shapes an outside campaign reached first: `index` ids (threaded check
// scans size them), constants behind casts and slices (folding exposes them
// to the kernels), gathers inside scf.if (a constant out of range in a
// branch that may never run).

func.func @index_ids(%d: tensor<4xf32>, %i: tensor<2x3xindex>) -> tensor<2x3xf32> {
  %r = gather.gather %d[%i] : (tensor<4xf32>, tensor<2x3xindex>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @index_ids_elements(%d: tensor<4x8xf32>, %i: tensor<4x5xindex>) -> tensor<4x5xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<4x8xf32>, tensor<4x5xindex>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

func.func @constant_behind_cast() -> tensor<i64> {
  %d = arith.constant dense<[0, -11]> : tensor<2xi64>
  %d2 = tensor.cast %d : tensor<2xi64> to tensor<?xi64>
  %i = arith.constant dense<1000000> : tensor<index>
  %r = gather.gather %d2[%i] {mode = #gather<mode unchecked>} : (tensor<?xi64>, tensor<index>) -> tensor<i64>
  return %r : tensor<i64>
}

// -----

func.func @constant_behind_slice() -> tensor<2x3xf32> {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %s = tensor.extract_slice %d[1, 0] [2, 3] [1, 1] : tensor<3x3xf32> to tensor<2x3xf32>
  %k = arith.constant dense<[[0, 5], [9, 1]]> : tensor<2x2xi32>
  %ks = tensor.extract_slice %k[0, 0] [2, 1] [1, 1] : tensor<2x2xi32> to tensor<2xi32>
  %r = gather.gather %s[%ks] {mode = #gather<mode unchecked>} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

func.func @constant_in_branch(%c: i1, %d: tensor<4xf32>, %e: tensor<1xf32>) -> tensor<1xf32> {
  %r = scf.if %c -> (tensor<1xf32>) {
    %k = arith.constant dense<[7]> : tensor<1xi64>
    %i = tensor.cast %k : tensor<1xi64> to tensor<1xi64>
    %g = gather.gather %d[%i] : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
    scf.yield %g : tensor<1xf32>
  } else {
    scf.yield %e : tensor<1xf32>
  }
  return %r : tensor<1xf32>
}

// -----

func.func @nd_in_branch(%c: i1, %d: tensor<?x4xf32>, %i: tensor<3x2xindex>, %e: tensor<3xf32>) -> tensor<3xf32> {
  %r = scf.if %c -> (tensor<3xf32>) {
    %g = gather.gather_nd %d[%i] {mode = #gather<mode clamp>} : (tensor<?x4xf32>, tensor<3x2xindex>) -> tensor<3xf32>
    scf.yield %g : tensor<3xf32>
  } else {
    scf.yield %e : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
