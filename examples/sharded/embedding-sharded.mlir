// The module of embedding.mlir with its table split by rows over a grid of
// @N@ processes: the only change is the sharding of each table.
// gather-shard-partition makes each function take this process's rows
// (tensor<@ROWS@/@N@ x @DIM@xf32>) and return the whole result on every
// process.
shard.grid @grid(shape = @N@)

func.func @lookup(%table: tensor<@ROWS@x@DIM@xf32>, %ids: tensor<@LOOKUPS@xi64>) -> tensor<@LOOKUPS@x@DIM@xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %rows annotate_for_users : tensor<@ROWS@x@DIM@xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<@ROWS@x@DIM@xf32>, tensor<@LOOKUPS@xi64>) -> tensor<@LOOKUPS@x@DIM@xf32>
  return %r : tensor<@LOOKUPS@x@DIM@xf32>
}

func.func @bag(%table: tensor<@ROWS@x@DIM@xf32>, %ids: tensor<@BAG_IDS@xi64>, %offsets: tensor<@BAGS@xi64>) -> tensor<@BAGS@x@DIM@xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %rows annotate_for_users : tensor<@ROWS@x@DIM@xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction sum>} : (tensor<@ROWS@x@DIM@xf32>, tensor<@BAG_IDS@xi64>, tensor<@BAGS@xi64>) -> tensor<@BAGS@x@DIM@xf32>
  return %r : tensor<@BAGS@x@DIM@xf32>
}
