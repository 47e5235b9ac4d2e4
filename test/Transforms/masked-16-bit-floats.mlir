// RUN: gather-opt %s --gather-legalize-masked-memory --split-input-file | FileCheck %s

// Masked memory intrinsics on bf16 and f16 vectors move i16 vectors, with
// bitcasts around them; those on other element types stay as they are.

// CHECK-LABEL: llvm.func @masked_load_store_bf16
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[M:.*]]: vector<64xi1>, %[[V:.*]]: vector<64xbf16>)
// CHECK: %[[PASS:.*]] = llvm.bitcast %[[V]] : vector<64xbf16> to vector<64xi16>
// CHECK: %[[L:.*]] = llvm.intr.masked.load %[[P]], %[[M]], %[[PASS]] {alignment = 2 : i32} : (!llvm.ptr, vector<64xi1>, vector<64xi16>) -> vector<64xi16>
// CHECK: %[[LB:.*]] = llvm.bitcast %[[L]] : vector<64xi16> to vector<64xbf16>
// CHECK: %[[S:.*]] = llvm.bitcast %[[LB]] : vector<64xbf16> to vector<64xi16>
// CHECK: llvm.intr.masked.store %[[S]], %[[P]], %[[M]] {alignment = 2 : i32} : vector<64xi16>, vector<64xi1> into !llvm.ptr
llvm.func @masked_load_store_bf16(%p: !llvm.ptr, %m: vector<64xi1>, %v: vector<64xbf16>) {
  %l = llvm.intr.masked.load %p, %m, %v {alignment = 2 : i32} : (!llvm.ptr, vector<64xi1>, vector<64xbf16>) -> vector<64xbf16>
  llvm.intr.masked.store %l, %p, %m {alignment = 2 : i32} : vector<64xbf16>, vector<64xi1> into !llvm.ptr
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @masked_gather_scatter_f16
// CHECK: %[[G:.*]] = llvm.intr.masked.gather %{{.*}}, %{{.*}}, %{{.*}} {alignment = 2 : i32} : (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xi16>) -> vector<8xi16>
// CHECK: %[[GF:.*]] = llvm.bitcast %[[G]] : vector<8xi16> to vector<8xf16>
// CHECK: %[[S:.*]] = llvm.bitcast %[[GF]] : vector<8xf16> to vector<8xi16>
// CHECK: llvm.intr.masked.scatter %[[S]], %{{.*}}, %{{.*}} {alignment = 2 : i32} : vector<8xi16>, vector<8xi1> into vector<8x!llvm.ptr>
llvm.func @masked_gather_scatter_f16(%p: vector<8x!llvm.ptr>, %m: vector<8xi1>, %v: vector<8xf16>) {
  %g = llvm.intr.masked.gather %p, %m, %v {alignment = 2 : i32} : (vector<8x!llvm.ptr>, vector<8xi1>, vector<8xf16>) -> vector<8xf16>
  llvm.intr.masked.scatter %g, %p, %m {alignment = 2 : i32} : vector<8xf16>, vector<8xi1> into vector<8x!llvm.ptr>
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @masked_f32_unchanged
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.intr.masked.load %{{.*}} : (!llvm.ptr, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: llvm.bitcast
llvm.func @masked_f32_unchanged(%p: !llvm.ptr, %m: vector<16xi1>, %v: vector<16xf32>) -> vector<16xf32> {
  %l = llvm.intr.masked.load %p, %m, %v {alignment = 4 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
  llvm.return %l : vector<16xf32>
}
