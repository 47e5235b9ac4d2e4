// RUN: gather-opt %s --convert-elementwise-to-linalg --gather-fuse-elementwise --canonicalize --cse --split-input-file | FileCheck %s
// RUN: gather-opt %s --convert-elementwise-to-linalg --gather-fuse-elementwise="parallel=true parallel-min-bytes=0" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=THREADS
// RUN: gather-opt %s --convert-elementwise-to-linalg --gather-fuse-elementwise="parallel=true parallel-min-bytes=2048" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=BYTES

/// Three sibling gathers with the same ids and their dequantizing consumer:
/// a scan of the ids reports the first bad one (check mode), then one loop
/// over the ids; each iteration reads the id once, slices the table row and
/// the row's zero point and scale (views, no copies) and runs the consumer
/// on them, calling no hook. No gather is left.
// CHECK-LABEL: func.func @dequant_siblings
// CHECK-NOT: gather.gather
// CHECK: scf.for %{{.*}} -> (i1) {
// CHECK:   func.call @gather_mlir_index_error
// CHECK: scf.for %[[I:[a-z0-9_]+]] = {{.*}} -> (tensor<16384x1024xf32>) {
// CHECK-NOT: func.call
// CHECK:   %[[ID:.*]] = tensor.extract %{{.*}}[%[[I]]] : tensor<16384xi64>
// CHECK:   %[[ROW:.*]] = scf.if %{{.*}} -> (tensor<1x1024xi8>) {
// CHECK:     tensor.extract_slice %arg0[%{{.*}}, 0] [1, 1024] [1, 1]
// CHECK:   %[[ZP:.*]] = scf.if %{{.*}} -> (tensor<1xf32>) {
// CHECK:   %[[SC:.*]] = scf.if %{{.*}} -> (tensor<1xf32>) {
// CHECK:   linalg.generic {{.*}} ins(%[[ROW]], %[[ZP]], %[[SC]] : tensor<1x1024xi8>, tensor<1xf32>, tensor<1xf32>)
// CHECK-NOT: gather.gather
/// With threads: check mode's report stays the first bad index in row-major
/// order. A serial scan before the threaded loop reports it (the gathers of
/// a position in operand order, each only while no earlier one failed); the
/// threads call no hook.
// THREADS-LABEL: func.func @dequant_siblings
// THREADS: %[[SCAN:.*]] = scf.for %[[J:[a-z0-9_]+]] = %{{.*}} iter_args(%[[OK:.*]] = %true) -> (i1) {
// THREADS:   %[[ID:.*]] = tensor.extract %[[IDS:.*]][%[[J]]] : tensor<16384xi64>
// THREADS:   %[[BAD:.*]] = arith.andi %[[OK]], %{{.*}} : i1
// THREADS:   scf.if %[[BAD]] {
// THREADS:     func.call @gather_mlir_index_error(%{{.*}}, %{{.*}}, %[[ID]], %{{.*}})
// THREADS:   scf.yield
// THREADS: scf.forall
// THREADS-NOT: func.call
// THREADS: scf.forall.in_parallel
func.func @dequant_siblings(%q: tensor<50000x1024xi8>, %zp: tensor<50000xf32>, %scale: tensor<50000xf32>, %ids: tensor<16384xi64>) -> tensor<16384x1024xf32> {
  %rows = gather.gather %q[%ids] : (tensor<50000x1024xi8>, tensor<16384xi64>) -> tensor<16384x1024xi8>
  %z = gather.gather %zp[%ids] : (tensor<50000xf32>, tensor<16384xi64>) -> tensor<16384xf32>
  %s = gather.gather %scale[%ids] : (tensor<50000xf32>, tensor<16384xi64>) -> tensor<16384xf32>
  %e = tensor.empty() : tensor<16384x1024xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%rows, %z, %s : tensor<16384x1024xi8>, tensor<16384xf32>, tensor<16384xf32>) outs(%e : tensor<16384x1024xf32>) {
  ^bb0(%x: i8, %zv: f32, %sv: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %d = arith.subf %f, %zv : f32
    %y = arith.mulf %d, %sv : f32
    linalg.yield %y : f32
  } -> tensor<16384x1024xf32>
  return %r : tensor<16384x1024xf32>
}

// -----

/// arith on tensors, a fill gather: zeros for an index out of range, no
/// error hook. With threads (no check mode here): an scf.forall.
// CHECK-LABEL: func.func @arith_fill
// CHECK: scf.for
// CHECK-NOT: func.call
// CHECK:   scf.if %{{.*}} -> (tensor<1x64xf32>) {
// CHECK:   } else {
// CHECK:     linalg.fill
// CHECK:   linalg.generic
// CHECK:     arith.mulf
// THREADS-LABEL: func.func @arith_fill
// THREADS: scf.forall
func.func @arith_fill(%t: tensor<1000x64xf32>, %ids: tensor<256xi32>, %w: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode fill>} : (tensor<1000x64xf32>, tensor<256xi32>) -> tensor<256x64xf32>
  %r = arith.mulf %g, %w : tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// -----

/// A gather that another op also reads stays whole (fusing it would compute
/// it twice), and so does its consumer's loop nest.
// CHECK-LABEL: func.func @shared_gather_not_fused
// CHECK: gather.gather
// CHECK-NOT: scf.for
func.func @shared_gather_not_fused(%t: tensor<1000x64xf32>, %ids: tensor<256xi32>) -> (tensor<256x64xf32>, tensor<256x64xf32>) {
  %g = gather.gather %t[%ids] : (tensor<1000x64xf32>, tensor<256xi32>) -> tensor<256x64xf32>
  %r = arith.addf %g, %g : tensor<256x64xf32>
  return %r, %g : tensor<256x64xf32>, tensor<256x64xf32>
}

// -----

/// gather_elements keeps its kernel.
// CHECK-LABEL: func.func @gather_elements_not_fused
// CHECK: gather.gather_elements
func.func @gather_elements_not_fused(%t: tensor<64x64xf32>, %ids: tensor<64x8xi64>) -> tensor<64x8xf32> {
  %g = gather.gather_elements %t[%ids] {axis = 1 : i64} : (tensor<64x64xf32>, tensor<64x8xi64>) -> tensor<64x8xf32>
  %r = math.exp %g : tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}

// -----

/// An empty result: nothing to fuse (tiling a loop of static size 0 crashed
/// upstream's tiling; a gather-fuzz finding).
// CHECK-LABEL: func.func @empty_rows
// CHECK: gather.gather
// CHECK-NOT: scf.for
func.func @empty_rows(%t: tensor<1000x0xf32>, %ids: tensor<8xi32>, %w: tensor<8x0xf32>) -> tensor<8x0xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode fill>} : (tensor<1000x0xf32>, tensor<8xi32>) -> tensor<8x0xf32>
  %r = arith.mulf %g, %w : tensor<8x0xf32>
  return %r : tensor<8x0xf32>
}

// -----

/// A result whose byte size overflows int64 is worth threads (its size
/// saturates; computing it overflowed: a gather-fuzz finding).
// CHECK-LABEL: func.func @huge_result
// CHECK: scf.for
// THREADS-LABEL: func.func @huge_result
// THREADS: scf.forall
func.func @huge_result(%t: tensor<1000x4xf32>, %ids: tensor<4611686018427387904xi32>, %w: tensor<4611686018427387904x4xf32>) -> tensor<4611686018427387904x4xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode wrap>} : (tensor<1000x4xf32>, tensor<4611686018427387904xi32>) -> tensor<4611686018427387904x4xf32>
  %r = arith.mulf %g, %w : tensor<4611686018427387904x4xf32>
  return %r : tensor<4611686018427387904x4xf32>
}

// -----

/// clamp along an axis that may be empty at run time reports that index:
/// with threads, before the threaded loop. Any index is an error along an
/// empty axis and none along the others: the scan reads the first id only.
// CHECK-LABEL: func.func @clamp_dynamic_axis
// CHECK-NOT: scf.forall
// THREADS-LABEL: func.func @clamp_dynamic_axis
// THREADS-NOT: scf.for
// THREADS: %[[FIRST:.*]] = tensor.extract %{{.*}}[%c0] : tensor<256xi32>
// THREADS-NOT: scf.for
// THREADS: func.call @gather_mlir_index_error
// THREADS: scf.forall
// THREADS-NOT: func.call
// THREADS: scf.forall.in_parallel
func.func @clamp_dynamic_axis(%t: tensor<?x64xf32>, %ids: tensor<256xi32>, %w: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode clamp>} : (tensor<?x64xf32>, tensor<256xi32>) -> tensor<256x64xf32>
  %r = arith.mulf %g, %w : tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// -----

/// clamp along a static axis that has rows never reports: threads without
/// a scan.
// THREADS-LABEL: func.func @clamp_static_axis
// THREADS-NOT: scf.for
// THREADS-NOT: func.call
// THREADS: scf.forall
func.func @clamp_static_axis(%t: tensor<1000x64xf32>, %ids: tensor<256xi32>, %w: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode clamp>} : (tensor<1000x64xf32>, tensor<256xi32>) -> tensor<256x64xf32>
  %r = arith.mulf %g, %w : tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// -----

/// A check-mode gather of two index dims keeps its kernel in the loop, and
/// the kernel reports its own indices: the loop stays serial.
// THREADS-LABEL: func.func @check_kernel_in_loop_stays_serial
// THREADS-NOT: scf.forall
// THREADS: scf.for
// THREADS: gather.gather
func.func @check_kernel_in_loop_stays_serial(%t: tensor<1000x16xf32>, %ids: tensor<64x64xi64>, %w: tensor<64x64x16xf32>) -> tensor<64x64x16xf32> {
  %g = gather.gather %t[%ids] : (tensor<1000x16xf32>, tensor<64x64xi64>) -> tensor<64x64x16xf32>
  %r = arith.mulf %g, %w : tensor<64x64x16xf32>
  return %r : tensor<64x64x16xf32>
}

// -----

/// batch_dims = 1: the scan reads ids[b, i] over both loops; the threads
/// call no hook.
// THREADS-LABEL: func.func @batched_check
// THREADS: scf.for %[[B:[a-z0-9_]+]] =
// THREADS:   scf.for %[[I:[a-z0-9_]+]] =
// THREADS:     %[[ID:.*]] = tensor.extract %arg1[%[[B]], %[[I]]] : tensor<8x32xi64>
// THREADS:     func.call @gather_mlir_index_error(%{{.*}}, %{{.*}}, %[[ID]], %{{.*}})
// THREADS: scf.forall
// THREADS-NOT: func.call
// THREADS: scf.forall.in_parallel
func.func @batched_check(%t: tensor<8x100x16xf32>, %ids: tensor<8x32xi64>, %w: tensor<8x32x16xf32>) -> tensor<8x32x16xf32> {
  %g = gather.gather %t[%ids] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<8x100x16xf32>, tensor<8x32xi64>) -> tensor<8x32x16xf32>
  %r = arith.mulf %g, %w : tensor<8x32x16xf32>
  return %r : tensor<8x32x16xf32>
}

// -----

/// An outer product of a checked gather (loop i) and a fill gather (loop
/// j): the scan runs over i alone, each id read once.
// THREADS-LABEL: func.func @outer_check_fill
// THREADS: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %c4096
// THREADS-NOT: scf.for
// THREADS:   tensor.extract %arg2[%[[I]]]
// THREADS:   func.call @gather_mlir_index_error
// THREADS: scf.forall (%{{.*}}, %{{.*}}) in (4096, 4096)
func.func @outer_check_fill(%a: tensor<1000xf32>, %b: tensor<1000xf32>, %ids1: tensor<4096xi64>, %ids2: tensor<4096xi64>) -> tensor<4096x4096xf32> {
  %g = gather.gather %a[%ids1] : (tensor<1000xf32>, tensor<4096xi64>) -> tensor<4096xf32>
  %h = gather.gather %b[%ids2] {mode = #gather<mode fill>} : (tensor<1000xf32>, tensor<4096xi64>) -> tensor<4096xf32>
  %e = tensor.empty() : tensor<4096x4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %h : tensor<4096xf32>, tensor<4096xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}

// -----

/// Two checked gathers along different loops: a scan of every position
/// would be as long as the loop, so the loop stays serial and its tiles
/// report their own indices.
// CHECK-LABEL: func.func @outer_check_check
// CHECK: scf.for %{{.*}} -> (tensor<4096x4096xf32>)
// CHECK: func.call @gather_mlir_index_error
// THREADS-LABEL: func.func @outer_check_check
// THREADS-NOT: scf.forall
// THREADS: scf.for %{{.*}} -> (tensor<4096x4096xf32>)
// THREADS: func.call @gather_mlir_index_error
func.func @outer_check_check(%a: tensor<1000xf32>, %b: tensor<1000xf32>, %ids1: tensor<4096xi64>, %ids2: tensor<4096xi64>) -> tensor<4096x4096xf32> {
  %g = gather.gather %a[%ids1] : (tensor<1000xf32>, tensor<4096xi64>) -> tensor<4096xf32>
  %h = gather.gather %b[%ids2] : (tensor<1000xf32>, tensor<4096xi64>) -> tensor<4096xf32>
  %e = tensor.empty() : tensor<4096x4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %h : tensor<4096xf32>, tensor<4096xf32>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}

// -----

/// wrap along an axis that may be empty reports it from the first id too.
// THREADS-LABEL: func.func @wrap_dynamic_axis
// THREADS-NOT: scf.for
// THREADS: tensor.extract %{{.*}}[%c0] : tensor<256xi32>
// THREADS-NOT: scf.for
// THREADS: func.call @gather_mlir_index_error
// THREADS: scf.forall
// THREADS-NOT: func.call
// THREADS: scf.forall.in_parallel
func.func @wrap_dynamic_axis(%t: tensor<?x64xf32>, %ids: tensor<256xi32>, %w: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %g = gather.gather %t[%ids] {mode = #gather<mode wrap>} : (tensor<?x64xf32>, tensor<256xi32>) -> tensor<256x64xf32>
  %r = arith.mulf %g, %w : tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// -----

/// A checked gather read twice through the same map: its ids are scanned
/// once.
// CHECK-LABEL: func.func @same_gather_twice
// CHECK: scf.for %{{.*}} -> (i1) {
// CHECK-COUNT-1: func.call @gather_mlir_index_error
// CHECK-NOT: func.call
// CHECK: return
func.func @same_gather_twice(%t: tensor<1000x64xf32>, %ids: tensor<256xi64>) -> tensor<256x64xf32> {
  %g = gather.gather %t[%ids] : (tensor<1000x64xf32>, tensor<256xi64>) -> tensor<256x64xf32>
  %r = arith.mulf %g, %g : tensor<256x64xf32>
  return %r : tensor<256x64xf32>
}

// -----

/// parallel-min-bytes counts the consumer's result in bytes as it lies in
/// memory: 256 `index` elements are 2048 bytes (threads), 256 i8 elements
/// 256 bytes (one loop).
// BYTES-LABEL: func.func @index_result_bytes
// BYTES: scf.forall
// BYTES-LABEL: func.func @i8_result_bytes
// BYTES-NOT: scf.forall
// BYTES: return
func.func @index_result_bytes(%t: tensor<1000xi64>, %ids: tensor<256xi32>) -> tensor<256xindex> {
  %g = gather.gather %t[%ids] {mode = #gather<mode clamp>} : (tensor<1000xi64>, tensor<256xi32>) -> tensor<256xi64>
  %r = arith.index_cast %g : tensor<256xi64> to tensor<256xindex>
  return %r : tensor<256xindex>
}
func.func @i8_result_bytes(%t: tensor<1000xi64>, %ids: tensor<256xi32>) -> tensor<256xi8> {
  %g = gather.gather %t[%ids] {mode = #gather<mode clamp>} : (tensor<1000xi64>, tensor<256xi32>) -> tensor<256xi64>
  %r = arith.trunci %g : tensor<256xi64> to tensor<256xi8>
  return %r : tensor<256xi8>
}
