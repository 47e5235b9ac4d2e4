// Conversions to bf16 and bf16 arithmetic, lowered by gather-to-llvm (as
// integer ops: no libgcc call) and run on this host's CPU. The expected bits
// are worked by hand: round to nearest, ties to even; NaN to 0x7FC0.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s

func.func @bits(%v: vector<8xbf16>) {
  %i = arith.bitcast %v : vector<8xbf16> to vector<8xi16>
  %w = arith.extui %i : vector<8xi16> to vector<8xi32>
  vector.print %w : vector<8xi32>
  return
}

func.func @main() {
  // f32: 1; 1 + 2^-8 (a tie, to even 1); 1 + 3 * 2^-8 (a tie, to even
  // 1 + 2^-6); just above the tie 1 + 2^-8; -2; FLT_MAX (to inf); NaN;
  // 3 * 2^-134 (a subnormal tie, to even 2^-132).
  %f = arith.constant dense<[0x3F800000, 0x3F808000, 0x3F818000, 0x3F808010,
                             0xC0000000, 0x7F7FFFFF, 0x7FC00001, 0x00018000]>
      : vector<8xf32>
  %b = arith.truncf %f : vector<8xf32> to vector<8xbf16>
  // CHECK: ( 16256, 16256, 16258, 16257, 49152, 32640, 32704, 2 )
  call @bits(%b) : (vector<8xbf16>) -> ()

  // f64: 1 + 2^-8 + 2^-40 (above the tie: 1 + 2^-7; rounding to f32 first
  // would give the tie, then 1); 1 + 2^-8 - 2^-40 (below: 1); 1e39 (inf);
  // NaN; -0; 2^-130 (exact, a subnormal of bf16); -inf; 3 * 2^-8 + 2^-47.
  %d = arith.constant dense<[0x3FF0100000001000, 0x3FF00FFFFFFFF000,
                             1.0e39, 0x7FF8000000000000, 0x8000000000000000,
                             0x37D0000000000000, 0xFFF0000000000000,
                             0x3F88000000001000]> : vector<8xf64>
  %c = arith.truncf %d : vector<8xf64> to vector<8xbf16>
  // CHECK: ( 16257, 16256, 32640, 32704, 32768, 8, 65408, 15424 )
  call @bits(%c) : (vector<8xbf16>) -> ()

  // bf16 arithmetic, each op rounded to bf16: 1 + 2^-8 is a tie (1);
  // 1 + 2^-7 is exact; its square 1 + 2^-6 + 2^-14 rounds to 1 + 2^-6;
  // 3 * 3 = 9; the extension back to f32 is exact.
  %one = arith.constant dense<1.0> : vector<8xbf16>
  %x = arith.constant dense<[0.00390625, 0.0078125, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<8xbf16>
  %s = arith.addf %one, %x : vector<8xbf16>
  // CHECK: ( 16256, 16257, 16448, 16256, 16256, 16256, 16256, 16256 )
  call @bits(%s) : (vector<8xbf16>) -> ()
  %p = arith.mulf %s, %s : vector<8xbf16>
  %e = arith.extf %p : vector<8xbf16> to vector<8xf32>
  // CHECK: ( 1, 1.01562, 9, 1, 1, 1, 1, 1 )
  vector.print %e : vector<8xf32>
  return
}
