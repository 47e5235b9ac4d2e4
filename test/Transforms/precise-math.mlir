// RUN: gather-opt %s --gather-precise-math --split-input-file | FileCheck %s

/// expm1 and log1p become libm calls (f32, f64); every other math op stays.
// CHECK-LABEL: func.func @scalars
// CHECK: call @expm1f(%{{.*}}) : (f32) -> f32
// CHECK: call @log1p(%{{.*}}) : (f64) -> f64
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.log %{{.*}} : f64
func.func @scalars(%a: f32, %b: f64) -> (f32, f64, f32, f64) {
  %0 = math.expm1 %a : f32
  %1 = math.log1p %b : f64
  %2 = math.exp %a : f32
  %3 = math.log %b : f64
  return %0, %1, %2, %3 : f32, f64, f32, f64
}

// -----

/// f16 through f32; a vector a lane at a time.
// CHECK-LABEL: func.func @f16_and_vectors
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: call @expm1f
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-COUNT-2: call @log1pf
// CHECK-NOT: math.log1p
// CHECK: return
func.func @f16_and_vectors(%a: f16, %v: vector<2xf32>) -> (f16, vector<2xf32>) {
  %0 = math.expm1 %a : f16
  %1 = math.log1p %v : vector<2xf32>
  return %0, %1 : f16, vector<2xf32>
}

// -----

/// Element types libm has no function for are left to the next lowering.
// CHECK-LABEL: func.func @f128_left
// CHECK: math.expm1 %{{.*}} : f128
func.func @f128_left(%a: f128) -> f128 {
  %0 = math.expm1 %a : f128
  return %0 : f128
}
