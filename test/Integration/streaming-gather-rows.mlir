// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 validate-rows=true" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 validate-rows=true parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s

/// Streaming (non-temporal) stores of rows gathered along the last axis
/// (gather_elements), forced on for a small result: rows of 67 f32 (268
/// bytes) into a destination whose rows start at different offsets from a
/// 32-byte boundary (row stride 83 elements, offset 1), so every row has a
/// different masked head, aligned streamed vectors and a masked tail. Each
/// row is read backwards (index 66 - c, written as 66 - c - 67 = -1 - c
/// for the odd columns: negative indices count from the end). The elements around the
/// destination keep their -1s; every element is checked.

func.func private @printMemrefF32(memref<*xf32>)

func.func @gather_into(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %o: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> ()
  return
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c67 = arith.constant 67 : index
  %c100 = arith.constant 100.0 : f32
  %data = tensor.generate %c4, %c67 {
  ^bb0(%r: index, %c: index):
    %ri = arith.index_cast %r : index to i64
    %ci = arith.index_cast %c : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %cf = arith.sitofp %ci : i64 to f32
    %v = arith.mulf %rf, %c100 : f32
    %w = arith.addf %v, %cf : f32
    tensor.yield %w : f32
  } : tensor<?x?xf32>
  %idx = tensor.generate %c4, %c67 {
  ^bb0(%r: index, %c: index):
    %ci = arith.index_cast %c : index to i64
    %c66 = arith.constant 66 : i64
    %c67i = arith.constant 67 : i64
    %one = arith.constant 1 : i64
    %back = arith.subi %c66, %ci : i64
    %odd = arith.andi %ci, %one : i64
    %even = arith.cmpi ne, %odd, %one : i64
    %negative = arith.subi %back, %c67i : i64
    %v = arith.select %even, %back, %negative : i64
    tensor.yield %v : i64
  } : tensor<?x?xi64>

  %buf = memref.alloc() : memref<4x83xf32>
  %m1 = arith.constant -1.0 : f32
  linalg.fill ins(%m1 : f32) outs(%buf : memref<4x83xf32>)
  %view = memref.subview %buf[0, 1] [4, 67] [1, 1] : memref<4x83xf32> to memref<4x67xf32, strided<[83, 1], offset: 1>>
  %dyn = memref.cast %view : memref<4x67xf32, strided<[83, 1], offset: 1>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  call @gather_into(%data, %idx, %dyn) : (tensor<?x?xf32>, tensor<?x?xi64>, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> ()

  // CHECK:      {{\[}}[-1,{{ +}}66,{{ +}}65,{{ +}}64,{{ +}}63,{{ +}}62,{{ +}}61,{{ +}}60,{{ +}}59,{{ +}}58,{{ +}}57,{{ +}}56,{{ +}}55,{{ +}}54,{{ +}}53,{{ +}}52,{{ +}}51,{{ +}}50,{{ +}}49,{{ +}}48,{{ +}}47,{{ +}}46,{{ +}}45,{{ +}}44,{{ +}}43,{{ +}}42,{{ +}}41,{{ +}}40,{{ +}}39,{{ +}}38,{{ +}}37,{{ +}}36,{{ +}}35,{{ +}}34,{{ +}}33,{{ +}}32,{{ +}}31,{{ +}}30,{{ +}}29,{{ +}}28,{{ +}}27,{{ +}}26,{{ +}}25,{{ +}}24,{{ +}}23,{{ +}}22,{{ +}}21,{{ +}}20,{{ +}}19,{{ +}}18,{{ +}}17,{{ +}}16,{{ +}}15,{{ +}}14,{{ +}}13,{{ +}}12,{{ +}}11,{{ +}}10,{{ +}}9,{{ +}}8,{{ +}}7,{{ +}}6,{{ +}}5,{{ +}}4,{{ +}}3,{{ +}}2,{{ +}}1,{{ +}}0,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1],
  // CHECK-NEXT: [-1,{{ +}}166,{{ +}}165,{{ +}}164,{{ +}}163,{{ +}}162,{{ +}}161,{{ +}}160,{{ +}}159,{{ +}}158,{{ +}}157,{{ +}}156,{{ +}}155,{{ +}}154,{{ +}}153,{{ +}}152,{{ +}}151,{{ +}}150,{{ +}}149,{{ +}}148,{{ +}}147,{{ +}}146,{{ +}}145,{{ +}}144,{{ +}}143,{{ +}}142,{{ +}}141,{{ +}}140,{{ +}}139,{{ +}}138,{{ +}}137,{{ +}}136,{{ +}}135,{{ +}}134,{{ +}}133,{{ +}}132,{{ +}}131,{{ +}}130,{{ +}}129,{{ +}}128,{{ +}}127,{{ +}}126,{{ +}}125,{{ +}}124,{{ +}}123,{{ +}}122,{{ +}}121,{{ +}}120,{{ +}}119,{{ +}}118,{{ +}}117,{{ +}}116,{{ +}}115,{{ +}}114,{{ +}}113,{{ +}}112,{{ +}}111,{{ +}}110,{{ +}}109,{{ +}}108,{{ +}}107,{{ +}}106,{{ +}}105,{{ +}}104,{{ +}}103,{{ +}}102,{{ +}}101,{{ +}}100,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1],
  // CHECK-NEXT: [-1,{{ +}}266,{{ +}}265,{{ +}}264,{{ +}}263,{{ +}}262,{{ +}}261,{{ +}}260,{{ +}}259,{{ +}}258,{{ +}}257,{{ +}}256,{{ +}}255,{{ +}}254,{{ +}}253,{{ +}}252,{{ +}}251,{{ +}}250,{{ +}}249,{{ +}}248,{{ +}}247,{{ +}}246,{{ +}}245,{{ +}}244,{{ +}}243,{{ +}}242,{{ +}}241,{{ +}}240,{{ +}}239,{{ +}}238,{{ +}}237,{{ +}}236,{{ +}}235,{{ +}}234,{{ +}}233,{{ +}}232,{{ +}}231,{{ +}}230,{{ +}}229,{{ +}}228,{{ +}}227,{{ +}}226,{{ +}}225,{{ +}}224,{{ +}}223,{{ +}}222,{{ +}}221,{{ +}}220,{{ +}}219,{{ +}}218,{{ +}}217,{{ +}}216,{{ +}}215,{{ +}}214,{{ +}}213,{{ +}}212,{{ +}}211,{{ +}}210,{{ +}}209,{{ +}}208,{{ +}}207,{{ +}}206,{{ +}}205,{{ +}}204,{{ +}}203,{{ +}}202,{{ +}}201,{{ +}}200,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1],
  // CHECK-NEXT: [-1,{{ +}}366,{{ +}}365,{{ +}}364,{{ +}}363,{{ +}}362,{{ +}}361,{{ +}}360,{{ +}}359,{{ +}}358,{{ +}}357,{{ +}}356,{{ +}}355,{{ +}}354,{{ +}}353,{{ +}}352,{{ +}}351,{{ +}}350,{{ +}}349,{{ +}}348,{{ +}}347,{{ +}}346,{{ +}}345,{{ +}}344,{{ +}}343,{{ +}}342,{{ +}}341,{{ +}}340,{{ +}}339,{{ +}}338,{{ +}}337,{{ +}}336,{{ +}}335,{{ +}}334,{{ +}}333,{{ +}}332,{{ +}}331,{{ +}}330,{{ +}}329,{{ +}}328,{{ +}}327,{{ +}}326,{{ +}}325,{{ +}}324,{{ +}}323,{{ +}}322,{{ +}}321,{{ +}}320,{{ +}}319,{{ +}}318,{{ +}}317,{{ +}}316,{{ +}}315,{{ +}}314,{{ +}}313,{{ +}}312,{{ +}}311,{{ +}}310,{{ +}}309,{{ +}}308,{{ +}}307,{{ +}}306,{{ +}}305,{{ +}}304,{{ +}}303,{{ +}}302,{{ +}}301,{{ +}}300,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1,{{ +}}-1]]
  %u = memref.cast %buf : memref<4x83xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
