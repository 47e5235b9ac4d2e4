// RUN: gather-opt %s --gather-expand-bf16 --split-input-file | FileCheck %s

/// f32 to bf16 (scalar or vector): the bits plus the rounding bias, shifted,
/// NaN selected to 0x7FC0 (32704); bf16 to f32: the bits shifted left.
// CHECK-LABEL: func.func @f32
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
// CHECK-DAG: arith.constant 32704 : i16
// CHECK-DAG: arith.constant dense<32704> : vector<4xi16>
// CHECK-DAG: arith.cmpf une, %arg0, %arg0 : f32
// CHECK-DAG: arith.shli %{{.*}} : i32
// CHECK: return
func.func @f32(%a: f32, %v: vector<4xf32>, %b: bf16) -> (bf16, vector<4xbf16>, f32) {
  %0 = arith.truncf %a : f32 to bf16
  %1 = arith.truncf %v : vector<4xf32> to vector<4xbf16>
  %2 = arith.extf %b : bf16 to f32
  return %0, %1, %2 : bf16, vector<4xbf16>, f32
}

// -----

/// f64 to bf16: nearest f32, moved one ulp toward zero when farther from
/// zero than the input and its last bit set when inexact (round to odd),
/// then the f32 expansion.
// CHECK-LABEL: func.func @f64
// CHECK: %[[T:.*]] = arith.truncf %arg0 : vector<2xf64> to vector<2xf32>
// CHECK: %[[B:.*]] = arith.extf %[[T]] : vector<2xf32> to vector<2xf64>
// CHECK: arith.cmpf ord, %arg0, %arg0 : vector<2xf64>
// CHECK: arith.cmpi ugt
// CHECK: arith.cmpi ne
// CHECK: arith.subi
// CHECK: arith.ori
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @f64(%d: vector<2xf64>) -> vector<2xbf16> {
  %0 = arith.truncf %d : vector<2xf64> to vector<2xbf16>
  return %0 : vector<2xbf16>
}

// -----

/// Other conversions, and bf16 to f64 (which LLVM extends without a call),
/// stay.
// CHECK-LABEL: func.func @others
// CHECK: arith.truncf %arg0 : f32 to f16
// CHECK: arith.truncf %arg1 : f64 to f32
// CHECK: arith.extf %arg2 : bf16 to f64
func.func @others(%a: f32, %d: f64, %b: bf16) -> (f16, f32, f64) {
  %0 = arith.truncf %a : f32 to f16
  %1 = arith.truncf %d : f64 to f32
  %2 = arith.extf %b : bf16 to f64
  return %0, %1, %2 : f16, f32, f64
}
