// RUN: gather-opt %s --gather-shape-inference --split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-shape-inference=refine-function-signatures --split-input-file | FileCheck %s --check-prefix=SIG

/// Importer-style IR: shapes erased by casts to unranked. The casts fold into
/// the gathers, the chain (through an elementwise arith op) is refined in one
/// run, and the return keeps its declared type through one cast.
// CHECK-LABEL: func.func @chain_through_erasing_casts
// CHECK-SAME: (%[[D:.*]]: tensor<10x4xf32>, %[[I:.*]]: tensor<6xi32>, %[[J:.*]]: tensor<3x2xi64>) -> tensor<*xf32>
// CHECK: %[[A:.*]] = gather.gather %[[D]][%[[I]]] : (tensor<10x4xf32>, tensor<6xi32>) -> tensor<6x4xf32>
// CHECK: %[[B:.*]] = gather.gather %[[A]][%[[J]]] {{.*}} : (tensor<6x4xf32>, tensor<3x2xi64>) -> tensor<6x3x2xf32>
// CHECK: %[[C:.*]] = arith.addf %[[B]], %[[B]] : tensor<6x3x2xf32>
// CHECK: %[[R:.*]] = tensor.cast %[[C]] : tensor<6x3x2xf32> to tensor<*xf32>
// CHECK: return %[[R]] : tensor<*xf32>
// SIG-LABEL: func.func @chain_through_erasing_casts
// SIG-SAME: -> tensor<6x3x2xf32>
// SIG-NOT: tensor.cast %{{.*}} : tensor<6x3x2xf32>
// SIG: return %{{.*}} : tensor<6x3x2xf32>
func.func @chain_through_erasing_casts(%d: tensor<10x4xf32>, %i: tensor<6xi32>, %j: tensor<3x2xi64>) -> tensor<*xf32> {
  %u = tensor.cast %d : tensor<10x4xf32> to tensor<*xf32>
  %0 = gather.gather %u[%i] : (tensor<*xf32>, tensor<6xi32>) -> tensor<*xf32>
  %1 = gather.gather %0[%j] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<*xf32>, tensor<3x2xi64>) -> tensor<*xf32>
  %2 = arith.addf %1, %1 : tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

/// Five gathers of all three kinds, refined in one run from dynamic dims.
// CHECK-LABEL: func.func @long_chain_dynamic
// CHECK: gather.gather {{.*}} -> tensor<4x8xf32>
// CHECK: gather.gather_elements {{.*}} -> tensor<4x2xf32>
// CHECK: gather.gather {{.*}} -> tensor<3x2xf32>
// CHECK: gather.gather_nd {{.*}} -> tensor<5xf32>
// CHECK: gather.gather {{.*}} -> tensor<7xf32>
// CHECK: tensor.cast {{.*}} : tensor<7xf32> to tensor<?xf32>
func.func @long_chain_dynamic(%d: tensor<16x8xf32>, %i: tensor<4xi32>, %e: tensor<4x2xi64>,
                              %k: tensor<3xi64>, %n: tensor<5x2xi64>, %m: tensor<7xi8>) -> tensor<?xf32> {
  %0 = gather.gather %d[%i] : (tensor<16x8xf32>, tensor<4xi32>) -> tensor<?x?xf32>
  %1 = gather.gather_elements %0[%e] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<4x2xi64>) -> tensor<?x?xf32>
  %2 = gather.gather %1[%k] : (tensor<?x?xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  %3 = gather.gather_nd %2[%n] : (tensor<?x?xf32>, tensor<5x2xi64>) -> tensor<?xf32>
  %4 = gather.gather %3[%m] {mode = #gather<mode wrap>} : (tensor<?xf32>, tensor<7xi8>) -> tensor<?xf32>
  return %4 : tensor<?xf32>
}

// -----

/// Nothing is known about the ranks: the IR is left as it is.
// CHECK-LABEL: func.func @unranked_stays_unranked
// CHECK: gather.gather {{.*}} : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
// CHECK-NOT: tensor.cast
func.func @unranked_stays_unranked(%d: tensor<*xf32>, %i: tensor<*xi64>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// Ranked indices make gather_elements' result ranked even for unranked data.
// CHECK-LABEL: func.func @gather_elements_unranked_data
// CHECK: gather.gather_elements {{.*}} -> tensor<3x2xf32>
func.func @gather_elements_unranked_data(%d: tensor<*xf32>, %i: tensor<3x2xi64>) -> tensor<*xf32> {
  %0 = gather.gather_elements %d[%i] : (tensor<*xf32>, tensor<3x2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func private @consume(tensor<?x4xf32>)

/// A call and a loop-carried value keep their declared types through casts.
// CHECK-LABEL: func.func @users_that_keep_their_types
// CHECK: %[[G:.*]] = gather.gather {{.*}} -> tensor<3x4xf32>
// CHECK: %[[C:.*]] = tensor.cast %[[G]] : tensor<3x4xf32> to tensor<?x4xf32>
// CHECK: call @consume(%[[C]])
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[C]])
func.func @users_that_keep_their_types(%d: tensor<8x4xf32>, %i: tensor<3xi32>, %n: index) -> tensor<?x4xf32> {
  %0 = gather.gather %d[%i] : (tensor<8x4xf32>, tensor<3xi32>) -> tensor<?x4xf32>
  call @consume(%0) : (tensor<?x4xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %0) -> tensor<?x4xf32> {
    scf.yield %acc : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}

// -----

/// With signature refinement the callee's result type changes and the
/// caller's uses follow (its own return keeps its type through a cast).
// SIG-LABEL: func.func private @callee
// SIG-SAME: -> tensor<2x4xf32>
// SIG-LABEL: func.func @caller
// SIG: %[[R:.*]] = call @callee(%{{.*}}) : (tensor<8x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
// SIG: %[[G:.*]] = gather.gather %[[R]][%{{.*}}] {{.*}} -> tensor<5x4xf32>
// SIG: return %[[G]] : tensor<5x4xf32>
func.func private @callee(%d: tensor<8x4xf32>, %i: tensor<2xi32>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<8x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @caller(%d: tensor<8x4xf32>, %i: tensor<2xi32>, %j: tensor<5xi32>) -> tensor<?x?xf32> {
  %0 = call @callee(%d, %i) : (tensor<8x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %1 = gather.gather %0[%j] {mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<5xi32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
