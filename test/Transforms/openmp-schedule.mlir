// RUN: gather-opt %s --gather-openmp-schedule --split-input-file | FileCheck %s

/// Loops keep their schedule, static, even those whose iterations walk a
/// range read from memory (bags); only the last, which ends the region,
/// loses its barrier.
// CHECK-LABEL: func.func @bags
// CHECK: omp.wsloop {
// CHECK: omp.wsloop {
// CHECK: omp.wsloop nowait {
func.func @bags(%offsets: memref<?xi64>, %ids: memref<?xf32>, %out: memref<?xf32>, %n: index, %total: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %next = arith.addi %i, %c1 : index
        %lo64 = memref.load %offsets[%i] : memref<?xi64>
        %hi64 = memref.load %offsets[%next] : memref<?xi64>
        %lo = arith.index_cast %lo64 : i64 to index
        %hi = arith.index_cast %hi64 : i64 to index
        %sum = scf.for %j = %lo to %hi step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %ids[%j] : memref<?xf32>
          %a = arith.addf %acc, %v : f32
          scf.yield %a : f32
        }
        memref.store %sum, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %hi = scf.if %c -> (index) {
          %h64 = memref.load %offsets[%i] : memref<?xi64>
          %h = arith.index_cast %h64 : i64 to index
          scf.yield %h : index
        } else {
          scf.yield %c1 : index
        }
        scf.for %j = %c0 to %hi step %c1 {
          memref.store %zero, %ids[%j] : memref<?xf32>
        }
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %lo64 = memref.load %offsets[%i] : memref<?xi64>
        %lo = arith.index_cast %lo64 : i64 to index
        scf.for %j = %lo to %total step %c1 {
          memref.store %zero, %ids[%j] : memref<?xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

/// Even iterations stay static too, and a loop that has a schedule keeps
/// it.
// CHECK-LABEL: func.func @rows
// CHECK: omp.wsloop {
// CHECK: omp.wsloop {
// CHECK: omp.wsloop {
// CHECK: omp.wsloop nowait schedule(static) {
func.func @rows(%data: memref<?x?xf32>, %bound: memref<index>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %data, %c0 : memref<?x?xf32>
  %cols = memref.dim %data, %c1 : memref<?x?xf32>
  %once = memref.load %bound[] : memref<index>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%rows) step (%c1) {
        scf.for %j = %c0 to %cols step %c1 {
          %v = memref.load %data[%i, %j] : memref<?x?xf32>
          memref.store %v, %out[%i, %j] : memref<?x?xf32>
        }
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%rows) step (%c1) {
        scf.for %j = %c0 to %once step %c1 {
          %v = memref.load %data[%i, %j] : memref<?x?xf32>
          memref.store %v, %out[%i, %j] : memref<?x?xf32>
        }
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%rows) step (%c1) {
        %same = memref.load %bound[] : memref<index>
        scf.for %j = %c0 to %same step %c1 {
          %v = memref.load %data[%i, %j] : memref<?x?xf32>
          memref.store %v, %out[%i, %j] : memref<?x?xf32>
        }
        omp.yield
      }
    }
    omp.wsloop schedule(static) {
      omp.loop_nest (%i) : index = (%c0) to (%rows) step (%c1) {
        %hi = memref.load %bound[] : memref<index>
        scf.for %j = %c0 to %hi step %c1 {
          %v = memref.load %data[%i, %j] : memref<?x?xf32>
          memref.store %v, %out[%i, %j] : memref<?x?xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

/// A worksharing loop that ends its parallel region waits at the region's
/// end only (nowait); one followed by other work, or with reductions,
/// keeps its barrier.
// CHECK-LABEL: func.func @barriers
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop {
// CHECK: memref.store
// CHECK: omp.wsloop nowait {
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop {
// CHECK: omp.terminator
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop reduction(
omp.declare_reduction @add_f32 : f32 init {
^bb0(%arg: f32):
  %0 = arith.constant 0.0 : f32
  omp.yield (%0 : f32)
} combiner {
^bb1(%a: f32, %b: f32):
  %1 = arith.addf %a, %b : f32
  omp.yield (%1 : f32)
}
func.func @barriers(%data: memref<?xf32>, %out: memref<?xf32>, %sum: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %data, %c0 : memref<?xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %data[%i] : memref<?xf32>
        memref.store %v, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %out[%i] : memref<?xf32>
        memref.store %v, %data[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    memref.store %zero, %out[%c0] : memref<?xf32>
    omp.terminator
  }
  omp.parallel {
    omp.wsloop reduction(@add_f32 %sum -> %acc : !llvm.ptr) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %data[%i] : memref<?xf32>
        %s = llvm.load %acc : !llvm.ptr -> f32
        %t = arith.addf %s, %v : f32
        llvm.store %t, %acc : f32, !llvm.ptr
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
