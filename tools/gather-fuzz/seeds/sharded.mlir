// Sharded modules: tables of f16 split along the gathered dim (their
// all-reduce has no MPI sum), splits that need no communication (the grid
// must still go), and extra annotations on the ids and the result (which
// upstream's shard-partition crashed on).
shard.grid @grid(shape = 2)
func.func @rows_f16(%table: tensor<8x4xf16>, %ids: tensor<6xi64>) -> tensor<6x4xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf16>
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x4xf16>, tensor<6xi64>) -> tensor<6x4xf16>
  return %r : tensor<6x4xf16>
}

// -----

shard.grid @grid(shape = 2)
func.func @bag_f16(%table: tensor<8x4xf16>, %ids: tensor<3x2xi64>) -> tensor<3x4xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf16>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<8x4xf16>, tensor<3x2xi64>) -> tensor<3x4xf16>
  return %r : tensor<3x4xf16>
}

// -----

shard.grid @grid(shape = 2)
func.func @columns(%table: tensor<8x4xf32>, %ids: tensor<6xi64>) -> tensor<6x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<6xi64>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2x2)
func.func @ids_and_result(%table: tensor<8x4xf32>, %ids: tensor<2x4xi64>) -> tensor<2x4x4xf32> {
  %s0 = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s0 annotate_for_users : tensor<8x4xf32>
  %s1 = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %i = shard.shard %ids to %s1 annotate_for_users : tensor<2x4xi64>
  %r = gather.gather %t[%i] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<2x4xi64>) -> tensor<2x4x4xf32>
  %s2 = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %o = shard.shard %r to %s2 : tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}
