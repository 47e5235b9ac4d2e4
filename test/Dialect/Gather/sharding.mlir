// RUN: gather-opt %s --gather-shard-partition -split-input-file -verify-diagnostics | FileCheck %s

// Sharding rules of the gather ops (upstream's sharding-propagation and
// shard-partition through gather-shard-partition).

shard.grid @grid(shape = 2)

/// A table split along the gathered axis: ids normalized and shifted by the
/// shard's offset (another shard's id becomes the local size, 4), a local
/// fill gather, and an all-reduce (sum).
// CHECK-LABEL: func.func @gather_rows_split
// CHECK-SAME: %[[T:.*]]: tensor<4x3xf32>, %[[I:.*]]: tensor<5xi32>
// CHECK: %[[P:.*]] = shard.process_multi_index on @grid axes = [0]
// CHECK: %[[OFF:.*]] = arith.muli %[[P]], %{{.*}} : index
// CHECK: %[[IDS:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<5xi32>) outs(%{{.*}} : tensor<5xi64>)
// CHECK:   %[[ID:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK:   scf.if %{{.*}} {
// CHECK:     func.call @gather_mlir_index_error(%{{.*}}, %{{.*}}, %[[ID]], %{{.*}})
// CHECK: %[[L:.*]] = gather.gather %[[T]][%[[IDS]]] {mode = #gather<mode fill>} : (tensor<4x3xf32>, tensor<5xi64>) -> tensor<5x3xf32>
// CHECK: %[[R:.*]] = shard.all_reduce %[[L]] on @grid grid_axes = [0] : tensor<5x3xf32> -> tensor<5x3xf32>
// CHECK: return %[[R]] : tensor<5x3xf32>
func.func @gather_rows_split(%table: tensor<8x3xf32>, %ids: tensor<5xi32>) -> tensor<5x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x3xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x3xf32>, tensor<5xi32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

shard.grid @grid(shape = 2)

/// A split off the gathered axis passes through: the local gather reads its
/// columns with the same ids, no communication.
// CHECK-LABEL: func.func @gather_columns_split
// CHECK-SAME: (%[[T:.*]]: tensor<8x2xf32>, %[[I:.*]]: tensor<5xi32>) -> tensor<5x2xf32>
// CHECK-NEXT: %[[R:.*]] = gather.gather %[[T]][%[[I]]] : (tensor<8x2xf32>, tensor<5xi32>) -> tensor<5x2xf32>
// CHECK-NEXT: return %[[R]]
func.func @gather_columns_split(%table: tensor<8x4xf32>, %ids: tensor<5xi32>) -> tensor<5x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// Split ids pass through: each process gathers its ids' rows.
// CHECK-LABEL: func.func @gather_ids_split
// CHECK-SAME: (%[[T:.*]]: tensor<8x4xf32>, %[[I:.*]]: tensor<3x2xi64>) -> tensor<3x2x4xf32>
// CHECK-NEXT: gather.gather %[[T]][%[[I]]] : (tensor<8x4xf32>, tensor<3x2xi64>) -> tensor<3x2x4xf32>
func.func @gather_ids_split(%table: tensor<8x4xf32>, %ids: tensor<6x2xi64>) -> tensor<6x2x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %s annotate_for_users : tensor<6x2xi64>
  %r = gather.gather %table[%i] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<6x2xi64>) -> tensor<6x2x4xf32>
  return %r : tensor<6x2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// Batch dims are shared by data and indices: both split, no communication.
// CHECK-LABEL: func.func @gather_batch_split
// CHECK-SAME: (%[[D:.*]]: tensor<1x5xf32>, %[[I:.*]]: tensor<1x3xi32>) -> tensor<1x3xf32>
// CHECK: gather.gather %[[D]][%{{.*}}] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode clamp>} : (tensor<1x5xf32>, tensor<1x3xi32>) -> tensor<1x3xf32>
func.func @gather_batch_split(%data: tensor<2x5xf32>, %ids: tensor<2x3xi32>) -> tensor<2x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d = shard.shard %data to %s annotate_for_users : tensor<2x5xf32>
  %r = gather.gather %d[%ids] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode clamp>} : (tensor<2x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

shard.grid @grid(shape = 2)

/// gather_elements along a split axis: the same local fill plus all-reduce.
// CHECK-LABEL: func.func @gather_elements_axis_split
// CHECK: linalg.generic
// CHECK: gather.gather_elements %{{.*}}[%{{.*}}] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
// CHECK: shard.all_reduce
func.func @gather_elements_axis_split(%data: tensor<2x6xf32>, %ids: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %d = shard.shard %data to %s annotate_for_users : tensor<2x6xf32>
  %r = gather.gather_elements %d[%ids] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x6xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

shard.grid @grid(shape = 2)

/// gather_nd with its first indexed dim split: the tuple's component is
/// picked by position (linalg.index of the tuple dim).
// CHECK-LABEL: func.func @gather_nd_first_dim_split
// CHECK: linalg.generic
// CHECK: linalg.index 1 : index
// CHECK: gather.gather_nd %{{.*}}[%{{.*}}] {mode = #gather<mode fill>} : (tensor<2x4xf32>, tensor<3x2xi64>) -> tensor<3xf32>
// CHECK: shard.all_reduce
func.func @gather_nd_first_dim_split(%data: tensor<4x4xf32>, %ids: tensor<3x2xi64>) -> tensor<3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d = shard.shard %data to %s annotate_for_users : tensor<4x4xf32>
  %r = gather.gather_nd %d[%ids] {batch_dims = 0 : i64} : (tensor<4x4xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

shard.grid @grid(shape = 2)

/// An embedding bag over a row-split table: padding_idx is normalized
/// against the whole table (-1 is row 7) and its ids sum nothing.
// CHECK-LABEL: func.func @bag_rows_split
// CHECK: %[[PAD:.*]] = arith.constant 7 : i64
// CHECK: linalg.generic
// CHECK: arith.cmpi ne, %{{.*}}, %[[PAD]] : i64
// CHECK: %[[L:.*]] = gather.embedding_bag %{{.*}}[%{{.*}}] offsets(%{{.*}}) {mode = #gather<mode fill>, reduction = #gather<reduction sum>} : (tensor<4x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
// CHECK: shard.all_reduce %[[L]] on @grid grid_axes = [0]
func.func @bag_rows_split(%table: tensor<8x4xf32>, %ids: tensor<6xi64>, %offsets: tensor<2xi64>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {reduction = #gather<reduction sum>, padding_idx = -1 : i64} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// A float table split along dim passes through.
// CHECK-LABEL: func.func @bag_dim_split
// CHECK-NEXT: gather.embedding_bag %{{.*}}[%{{.*}}] offsets(%{{.*}}) : (tensor<8x2xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x2xf32>
func.func @bag_dim_split(%table: tensor<8x4xf32>, %ids: tensor<6xi64>, %offsets: tensor<2xi64>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// A mean bag over a row-split table: each process gathers the rows its ids
/// read (zeros for another shard's, after two extra rows: row 0 is the
/// padding row) and divides its partial sum by the whole count; the
/// all-reduce sums.
// CHECK-LABEL: func.func @bag_mean_rows_split
// CHECK: %[[IDS:.*]]:2 = linalg.generic
// CHECK: %[[EXT:.*]] = tensor.insert_slice %[[IDS]]#0 into %{{.*}}[2] [6] [1] : tensor<6xi64> into tensor<8xi64>
// CHECK: %[[ROWS:.*]] = gather.gather %{{.*}}[%[[EXT]]] {mode = #gather<mode fill>} : (tensor<4x4xf32>, tensor<8xi64>) -> tensor<8x4xf32>
// CHECK: %[[L:.*]] = gather.embedding_bag %[[ROWS]][%[[IDS]]#1] offsets(%{{.*}}) {mode = #gather<mode fill>, padding_idx = 0 : i64} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
// CHECK: shard.all_reduce %[[L]] on @grid grid_axes = [0] : tensor<2x4xf32>
func.func @bag_mean_rows_split(%table: tensor<8x4xf32>, %ids: tensor<6xi64>, %offsets: tensor<2xi64>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {padding_idx = 2 : i64} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// A max bag over a row-split table: row 1 of the gathered rows is the
/// lowest value, read by an id of another shard's row; the all-reduce takes
/// the maximum. Positions of 2-D ids are row-major. (MPI has no f16: the
/// gathered rows are widened to f32, which changes no maximum.)
// CHECK-LABEL: func.func @bag_max_rows_split
// CHECK: %[[IDS:.*]]:2 = linalg.generic
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[IDS]]#0 {{\[}}[0, 1]] : tensor<2x3xi64> into tensor<6xi64>
// CHECK: %[[EXT:.*]] = tensor.insert_slice %[[FLAT]] into %{{.*}}[2] [6] [1] : tensor<6xi64> into tensor<8xi64>
// CHECK: %[[ROWS:.*]] = gather.gather %{{.*}}[%[[EXT]]] {mode = #gather<mode fill>} : (tensor<4x4xf16>, tensor<8xi64>) -> tensor<8x4xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[ROWS]] : tensor<8x4xf16> to tensor<8x4xf32>
// CHECK: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ROW:.*]] = linalg.fill ins(%[[LOWEST]] : f32) outs(%{{.*}} : tensor<1x4xf32>)
// CHECK: %[[TABLE:.*]] = tensor.insert_slice %[[ROW]] into %[[WIDE]][1, 0] [1, 4] [1, 1]
// CHECK: %[[L:.*]] = gather.embedding_bag %[[TABLE]][%[[IDS]]#1] {mode = #gather<mode unchecked>, padding_idx = 0 : i64, reduction = #gather<reduction max>} : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
// CHECK: %[[R:.*]] = shard.all_reduce %[[L]] on @grid grid_axes = [0] reduction = max : tensor<2x4xf32>
// CHECK: arith.truncf %[[R]] : tensor<2x4xf32> to tensor<2x4xf16>
func.func @bag_max_rows_split(%table: tensor<8x4xf16>, %ids: tensor<2x3xi64>) -> tensor<2x4xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf16>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction max>, mode = #gather<mode unchecked>} : (tensor<8x4xf16>, tensor<2x3xi64>) -> tensor<2x4xf16>
  return %r : tensor<2x4xf16>
}

// -----

shard.grid @grid(shape = 2)

func.func @bag_rowwise_mean_rows_split(%table: tensor<8x12xi8>, %ids: tensor<2x3xi64>) -> tensor<2x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x12xi8>
  // expected-error @+1 {{'gather.embedding_bag' op can split a quantized table's rows across processes only for sum bags}}
  %r = gather.embedding_bag %t[%ids] {rowwise_bits = 8 : i64} : (tensor<8x12xi8>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_uneven_split(%table: tensor<7x4xf32>, %ids: tensor<5xi32>) -> tensor<5x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<7x4xf32>
  // expected-error @+1 {{'gather.gather' op dim 0 of size 7 of operand #0 does not split evenly into 2 shards}}
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<7x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_dynamic_axis_split(%table: tensor<?x4xf32>, %ids: tensor<5xi32>) -> tensor<5x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<?x4xf32>
  // expected-error @+1 {{'gather.gather' op can split a dim that ids select along only when its size is static and not zero}}
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<?x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_nd_tuple_split(%data: tensor<4x4xf32>, %ids: tensor<3x2xi64>) -> tensor<3xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %i = shard.shard %ids to %s annotate_for_users : tensor<3x2xi64>
  // expected-error @+1 {{'gather.gather_nd' op cannot be partitioned along the index tuple dim, which must stay whole on every process}}
  %r = gather.gather_nd %data[%i] {batch_dims = 0 : i64} : (tensor<4x4xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_elements_unequal_split(%data: tensor<4x6xf32>, %ids: tensor<2x6xi64>) -> tensor<2x6xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d = shard.shard %data to %s annotate_for_users : tensor<4x6xf32>
  // expected-error @+1 {{'gather.gather_elements' op can split dim 0 off the axis only where data and indices have the same static size}}
  %r = gather.gather_elements %d[%ids] {axis = 1 : i64} : (tensor<4x6xf32>, tensor<2x6xi64>) -> tensor<2x6xf32>
  return %r : tensor<2x6xf32>
}

// -----

shard.grid @grid(shape = 2)

/// Fixed-length bags (2-D ids) split by bag pass through.
// CHECK-LABEL: func.func @bag_fixed_split_by_bag
// CHECK-SAME: (%[[T:.*]]: tensor<8x4xf32>, %[[I:.*]]: tensor<1x3xi64>) -> tensor<1x4xf32>
// CHECK-NEXT: gather.embedding_bag %[[T]][%[[I]]] {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<1x3xi64>) -> tensor<1x4xf32>
func.func @bag_fixed_split_by_bag(%table: tensor<8x4xf32>, %ids: tensor<2x3xi64>) -> tensor<2x4xf32> {
  %r = gather.embedding_bag %table[%ids] {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %o = shard.shard %r to %s : tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// A split only the result has (bags) is seen too.
func.func @bag_offsets_split_by_bag(%table: tensor<8x4xf32>, %ids: tensor<6xi64>, %offsets: tensor<2xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'gather.embedding_bag' op cannot split bags given by offsets across processes (split the table, or give bags of one length as 2-D ids)}}
  %r = gather.embedding_bag %table[%ids] offsets(%offsets) {reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %o = shard.shard %r to %s : tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @bag_rowwise_dim_split(%table: tensor<8x12xi8>, %ids: tensor<2x3xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'gather.embedding_bag' op cannot split the dim of a quantized table across processes (a row's values and scales stay together)}}
  %r = gather.embedding_bag %table[%ids] {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64} : (tensor<8x12xi8>, tensor<2x3xi64>) -> tensor<2x4xf32>
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %o = shard.shard %r to %s : tensor<2x4xf32>
  return %o : tensor<2x4xf32>
}

// -----

shard.grid @grid(shape = ?)

func.func @gather_dynamic_grid(%table: tensor<8x4xf32>, %ids: tensor<5xi32>) -> tensor<5x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  // expected-error @+1 {{'gather.gather' op is split over a grid axis of dynamic size}}
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_unranked(%table: tensor<8x4xf32>, %ids: tensor<*xi32>) -> tensor<*xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  // expected-error @+1 {{'gather.gather' op is partitioned only with ranked operands}}
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<*xi32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

shard.grid @grid(shape = 2)

/// An uneven split: LLVM 22's shard-partition cannot reshard the table
/// (and drops the offsets from the sharding it passes): an error, not a
/// crash.
func.func @gather_sharded_dims_offsets(%table: tensor<8x4xf32>, %ids: tensor<5xi64>) -> tensor<5x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] sharded_dims_offsets = [0, 3, 8] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  // expected-error @+1 {{'gather.gather' op has an operand that shard-partition could not reshard; it is partitioned over even splits only (no halo sizes or sharded dims offsets)}}
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// MPI has no f16 datatype: one process holds each element of a gather, so
/// the partial results are all-reduced exactly as 16-bit integers (-0.0
/// included).
// CHECK-LABEL: func.func @gather_f16_rows_split
// CHECK: %[[L:.*]] = gather.gather %{{.*}}[%{{.*}}] {mode = #gather<mode fill>} : (tensor<4x3xf16>, tensor<5xi64>) -> tensor<5x3xf16>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[L]] : tensor<5x3xf16> to tensor<5x3xi16>
// CHECK: %[[R:.*]] = shard.all_reduce %[[BITS]] on @grid grid_axes = [0] reduction = bitwise_or : tensor<5x3xi16> -> tensor<5x3xi16>
// CHECK: %[[V:.*]] = arith.bitcast %[[R]] : tensor<5x3xi16> to tensor<5x3xf16>
// CHECK: return %[[V]]
func.func @gather_f16_rows_split(%table: tensor<8x3xf16>, %ids: tensor<5xi32>) -> tensor<5x3xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x3xf16>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x3xf16>, tensor<5xi32>) -> tensor<5x3xf16>
  return %r : tensor<5x3xf16>
}

// -----

shard.grid @grid(shape = 2)

/// i1 goes as i8.
// CHECK-LABEL: func.func @gather_elements_i1_axis_split
// CHECK: %[[L:.*]] = gather.gather_elements
// CHECK: %[[BYTES:.*]] = arith.extui %[[L]] : tensor<2x2xi1> to tensor<2x2xi8>
// CHECK: %[[R:.*]] = shard.all_reduce %[[BYTES]] on @grid grid_axes = [0] reduction = bitwise_or : tensor<2x2xi8> -> tensor<2x2xi8>
// CHECK: arith.trunci %[[R]] : tensor<2x2xi8> to tensor<2x2xi1>
func.func @gather_elements_i1_axis_split(%data: tensor<2x6xi1>, %ids: tensor<2x2xi64>) -> tensor<2x2xi1> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %d = shard.shard %data to %s annotate_for_users : tensor<2x6xi1>
  %r = gather.gather_elements %d[%ids] {axis = 1 : i64} : (tensor<2x6xi1>, tensor<2x2xi64>) -> tensor<2x2xi1>
  return %r : tensor<2x2xi1>
}

// -----

shard.grid @grid(shape = 2)

/// A sum bag of an f16 table accumulates in f32 as the unsharded bag does:
/// the rows its ids read, widened, the local bags and the all-reduce in f32,
/// one rounding at the end.
// CHECK-LABEL: func.func @bag_f16_rows_split
// CHECK: %[[IDS:.*]]:2 = linalg.generic
// CHECK: %[[ROWS:.*]] = gather.gather %{{.*}}[%{{.*}}] {mode = #gather<mode fill>} : (tensor<4x4xf16>, tensor<8xi64>) -> tensor<8x4xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[ROWS]] : tensor<8x4xf16> to tensor<8x4xf32>
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : tensor<6xf16> to tensor<6xf32>
// CHECK: %[[L:.*]] = gather.embedding_bag %[[WIDE]][%[[IDS]]#1] offsets(%{{.*}}) per_sample_weights(%[[W]]) {mode = #gather<mode fill>, padding_idx = 0 : i64, reduction = #gather<reduction sum>} : (tensor<8x4xf32>, tensor<6xi64>, tensor<2xi64>, tensor<6xf32>) -> tensor<2x4xf32>
// CHECK: %[[R:.*]] = shard.all_reduce %[[L]] on @grid grid_axes = [0] : tensor<2x4xf32> -> tensor<2x4xf32>
// CHECK: %[[V:.*]] = arith.truncf %[[R]] : tensor<2x4xf32> to tensor<2x4xf16>
// CHECK: return %[[V]]
func.func @bag_f16_rows_split(%table: tensor<8x4xf16>, %ids: tensor<6xi64>, %offsets: tensor<2xi64>, %weights: tensor<6xf16>) -> tensor<2x4xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf16>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) per_sample_weights(%weights) {reduction = #gather<reduction sum>} : (tensor<8x4xf16>, tensor<6xi64>, tensor<2xi64>, tensor<6xf16>) -> tensor<2x4xf16>
  return %r : tensor<2x4xf16>
}

// -----

shard.grid @grid(shape = 2)

func.func @bag_block_f16_scales_rows_split(%table: tensor<8x16xi8>, %ids: tensor<2x1xi64>, %scales: tensor<8x2xf16>) -> tensor<2x32xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x16xi8>
  %c = shard.shard %scales to %s annotate_for_users : tensor<8x2xf16>
  // expected-error @+1 {{'gather.embedding_bag' op can split a block-quantized table's rows across processes only with f32 scales (MPI cannot sum partial bags of 'f16')}}
  %r = gather.embedding_bag %t[%ids] scales(%c) {reduction = #gather<reduction sum>, block_bits = 4 : i64, block_size = 16 : i64} : (tensor<8x16xi8>, tensor<2x1xi64>, tensor<8x2xf16>) -> tensor<2x32xf16>
  return %r : tensor<2x32xf16>
}

// -----

shard.grid @grid(shape = 2)

func.func @gather_complex_rows_split(%table: tensor<8x3xcomplex<f32>>, %ids: tensor<5xi64>) -> tensor<5x3xcomplex<f32>> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x3xcomplex<f32>>
  // expected-error @+1 {{'gather.gather' op cannot sum partial results of element type 'complex<f32>' across processes (MPI carries integers and floats of up to 64 bits)}}
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x3xcomplex<f32>>, tensor<5xi64>) -> tensor<5x3xcomplex<f32>>
  return %r : tensor<5x3xcomplex<f32>>
}

// -----

shard.grid @grid(shape = 2)

/// One grid axis on the table's gathered dim and on the ids (a result
/// dim): LLVM 22's shard-partition crashes on it, the check before it
/// refuses.
func.func @gather_axis_on_rows_and_ids(%table: tensor<8x4xf32>, %ids: tensor<6xi64>) -> tensor<6x4xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %s annotate_for_users : tensor<6xi64>
  // expected-error @+1 {{'gather.gather' op splits operand #1 dim 0 and operand #0 dim 0, which the op does not pair, over the same grid axis 0}}
  %r = gather.gather %t[%i] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<6xi64>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// Whole ids but a split result: a reshard that sharding-propagation does
/// not insert, on which LLVM 22's shard-partition crashes.
func.func @gather_result_split_ids_whole(%table: tensor<8x4xf32>, %ids: tensor<6xi64>) -> tensor<6x4xf32> {
  %s1 = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %i = shard.shard %ids to %s1 annotate_for_users : tensor<6xi64>
  // expected-error @+1 {{'gather.gather' op has shardings that disagree: operand #1 dim 0 is split over grid axes [], but the result dim 0, which the op pairs with it, over [0] (annotate the op's operands and result alike, and reshard with another annotation)}}
  %r = gather.gather %table[%i] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<6xi64>) -> tensor<6x4xf32>
  %s2 = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %o = shard.shard %r to %s2 : tensor<6x4xf32>
  return %o : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)
shard.grid @other(shape = 2)

func.func @gather_two_grids(%table: tensor<8x4xf32>, %ids: tensor<6xi64>) -> tensor<6x4xf32> {
  %s = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %o = shard.sharding @other split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %o annotate_for_users : tensor<6xi64>
  // expected-error @+1 {{'gather.gather' op has shardings on two grids, @grid and @other}}
  %r = gather.gather %t[%i] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<6xi64>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// gather_elements reads data at the ids' own position off the axis: data
/// whole along dim 0 but ids split there is a disagreement, not a pass
/// through (each process would read its ids' rows from the wrong rows).
func.func @gather_elements_ids_split_data_whole(%data: tensor<4x8xf32>, %ids: tensor<4x6xi64>) -> tensor<4x6xf32> {
  %s0 = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %d = shard.shard %data to %s0 annotate_for_users : tensor<4x8xf32>
  %s1 = shard.sharding @grid split_axes = [[0], []] : !shard.sharding
  %i = shard.shard %ids to %s1 annotate_for_users : tensor<4x6xi64>
  // expected-error @+1 {{'gather.gather_elements' op has shardings that disagree: operand #0 dim 0 is split over grid axes [], but operand #1 dim 0, which the op pairs with it, over [0] (annotate the op's operands and result alike, and reshard with another annotation)}}
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<4x8xf32>, tensor<4x6xi64>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

/// Static sizes whose byte count overflows int64: partitioning would
/// divide and offset them (upstream's partition made a linalg.fill of
/// negative size, a gather-fuzz finding).
shard.grid @grid(shape = 2)

func.func @gather_uncountable_ids(%table: tensor<8x2xf32>, %ids: tensor<9223372036854775807xi64>) -> tensor<9223372036854775807x2xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x2xf32>
  // expected-error @+1 {{'gather.gather' op has static sizes whose byte count overflows int64; it cannot be partitioned}}
  %r = gather.gather %t[%ids] {axis = 0 : i64, mode = #gather<mode wrap>} : (tensor<8x2xf32>, tensor<9223372036854775807xi64>) -> tensor<9223372036854775807x2xf32>
  return %r : tensor<9223372036854775807x2xf32>
}

// -----

/// A max bag of a table of no columns, split by rows: the partitioned
/// table's "other shard" row goes in at a column offset the slice verifier
/// accepts (a gather-fuzz finding: IR that did not verify).
// CHECK-LABEL: func.func @bag_max_no_columns
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, %{{.*}}] [1, 0] [1, 1] : tensor<1x0xf32> into tensor<{{.*}}x0xf32>
shard.grid @grid(shape = 2)

func.func @bag_max_no_columns(%table: tensor<8x0xf16>, %ids: tensor<2x3xi64>) -> tensor<2x0xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x0xf16>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction max>, mode = #gather<mode unchecked>} : (tensor<8x0xf16>, tensor<2x3xi64>) -> tensor<2x0xf16>
  return %r : tensor<2x0xf16>
}

// -----

/// A sum bag of no bags, split by rows: the ids (none) go in after the two
/// rows every shard adds, at an offset equal to the size of the tensor
/// they extend, which the slice verifier rejects unless it is a value (a
/// gather-fuzz finding: IR that did not verify).
// CHECK-LABEL: func.func @bag_sum_no_bags
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}] [0] [1] : tensor<0xi64> into tensor<2xi64>
shard.grid @grid(shape = 2)

func.func @bag_sum_no_bags(%table: tensor<8x4xf16>, %ids: tensor<0x2xi64>) -> tensor<0x4xf16> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf16>
  %r = gather.embedding_bag %t[%ids] {reduction = #gather<reduction sum>} : (tensor<8x4xf16>, tensor<0x2xi64>) -> tensor<0x4xf16>
  return %r : tensor<0x4xf16>
}

// -----

/// A grid axis the grid does not have: upstream's verifier lets it through,
/// and shard-partition made IR that did not verify (a gather-fuzz finding).
shard.grid @grid(shape = 3)

func.func @bag_missing_grid_axis(%table: tensor<8x3xf32>, %ids: tensor<6xi64>, %offsets: tensor<3xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'shard.sharding' op uses grid axis 3, which grid @grid of rank 1 does not have}}
  %s = shard.sharding @grid split_axes = [[3]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x3xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) : (tensor<8x3xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

/// A grid axis of size 0 holds no process: LLVM 22's shard-partition
/// divides the split dim by zero.
shard.grid @grid(shape = 0)

func.func @gather_empty_grid(%table: tensor<8x4xf32>, %ids: tensor<6xi64>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'shard.sharding' op splits a dim over grid axes of size 0, which hold no process}}
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x4xf32>
  %r = gather.gather %t[%ids] {axis = 0 : i64} : (tensor<8x4xf32>, tensor<6xi64>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)

/// A scatter into a table split by rows: the ids resolved against the whole
/// 8 rows and shifted (another shard's id becomes the local size, 4), the
/// local scatter in fill mode, and no communication.
// CHECK-LABEL: func.func @scatter_rows_owned
// CHECK-SAME: %[[D:.*]]: tensor<4x3xf32>, %[[I:.*]]: tensor<5xi32>, %[[U:.*]]: tensor<5x3xf32>
// CHECK: %[[IDS:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<5xi32>) outs(%{{.*}} : tensor<5xi64>)
// CHECK: %[[R:.*]] = gather.scatter %[[D]][%[[IDS]]], %[[U]] {mode = #gather<mode fill>, reduction = #gather<combine add>} : (tensor<4x3xf32>, tensor<5xi64>, tensor<5x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: return %[[R]] : tensor<4x3xf32>
func.func @scatter_rows_owned(%grad: tensor<8x3xf32>, %ids: tensor<5xi32>, %u: tensor<5x3xf32>) -> tensor<8x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d = shard.shard %grad to %s annotate_for_users : tensor<8x3xf32>
  %r = gather.scatter %d[%ids], %u {reduction = #gather<combine add>} : (tensor<8x3xf32>, tensor<5xi32>, tensor<5x3xf32>) -> tensor<8x3xf32>
  %r1 = shard.shard %r to %s : tensor<8x3xf32>
  return %r1 : tensor<8x3xf32>
}

// -----

shard.grid @grid(shape = 2)

/// Updates and ids split by index positions: each gathered whole (placed
/// at the process's offset in zeros, an all-reduce of the bits with or),
/// then the scatter applies all of them in order on every process.
// CHECK-LABEL: func.func @scatter_updates_split
// CHECK-SAME: %[[D:.*]]: tensor<8x3xf32>, %[[I:.*]]: tensor<3xi32>, %[[U:.*]]: tensor<3x3xf32>
// CHECK: %[[UB:.*]] = arith.bitcast %[[U]] : tensor<3x3xf32> to tensor<3x3xi32>
// CHECK: tensor.insert_slice %[[UB]] into %{{.*}}[%{{.*}}, 0] [3, 3] [1, 1] : tensor<3x3xi32> into tensor<6x3xi32>
// CHECK: %[[UA:.*]] = shard.all_reduce %{{.*}} on @grid grid_axes = [0] reduction = bitwise_or : tensor<6x3xi32> -> tensor<6x3xi32>
// CHECK: %[[UW:.*]] = arith.bitcast %[[UA]] : tensor<6x3xi32> to tensor<6x3xf32>
// CHECK: %[[IA:.*]] = shard.all_reduce %{{.*}} on @grid grid_axes = [0] reduction = bitwise_or : tensor<6xi32> -> tensor<6xi32>
// CHECK: gather.scatter %[[D]][%[[IA]]], %[[UW]] {reduction = #gather<combine add>} : (tensor<8x3xf32>, tensor<6xi32>, tensor<6x3xf32>) -> tensor<8x3xf32>
func.func @scatter_updates_split(%grad: tensor<8x3xf32>, %ids: tensor<6xi32>, %u: tensor<6x3xf32>) -> tensor<8x3xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %i = shard.shard %ids to %s annotate_for_users : tensor<6xi32>
  %uu = shard.shard %u to %s annotate_for_users : tensor<6x3xf32>
  %r = gather.scatter %grad[%i], %uu {reduction = #gather<combine add>} : (tensor<8x3xf32>, tensor<6xi32>, tensor<6x3xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

shard.grid @grid(shape = 2)

/// Updates of complex numbers have no carrier of their bits.
func.func @scatter_updates_split_complex(%grad: tensor<8xcomplex<f32>>, %ids: tensor<6xi32>, %u: tensor<6xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %uu = shard.shard %u to %s annotate_for_users : tensor<6xcomplex<f32>>
  %i = shard.shard %ids to %s annotate_for_users : tensor<6xi32>
  // expected-error @below {{cannot gather operands of element type 'complex<f32>' across processes}}
  %r = gather.scatter %grad[%i], %uu {reduction = #gather<combine add>} : (tensor<8xcomplex<f32>>, tensor<6xi32>, tensor<6xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %r : tensor<8xcomplex<f32>>
}

// -----

shard.grid @grid(shape = 2)

/// scatter_elements writes dest off the axis at the index's own position: a
/// split there needs dest and indices of one static size.
func.func @scatter_elements_split_off_axis(%d: tensor<4x6xf32>, %i: tensor<2x3xi64>, %u: tensor<2x3xf32>) -> tensor<4x6xf32> {
  %s = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %dd = shard.shard %d to %s annotate_for_users : tensor<4x6xf32>
  // expected-error @below {{can split dim 0 off the axis only where dest and indices have the same static size}}
  %r = gather.scatter_elements %dd[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<4x6xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
