// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 validate-rows=true" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 validate-rows=true parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 gather-loads=scalar" | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="streaming-min-bytes=0 validate-rows=true gather-loads=scalar parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s

/// Streaming (non-temporal) stores of rows gathered along the last axis
/// (gather_elements), forced on for a small result: rows of 517 f32 (2068
/// bytes: rows that do not start vector-aligned stream from 2 KiB) into a
/// destination whose rows start at different offsets from a 32-byte
/// boundary (row stride 533 elements, offset 1), so every row has a
/// different masked head, aligned streamed vectors and a masked tail. Data
/// element (r, c) is 1000 r + c; each row is read backwards (index 516 - c,
/// written as 516 - c - 517 = -1 - c for the odd columns from 300 on:
/// negative indices count from the end), so with scalar loads a row's
/// first streamed vectors take the loop of positions and the rest the
/// resolving loop. Every element of the buffer is compared with what it
/// must hold: the gathered row inside the view, -1 around it.

func.func private @printI64(i64)
func.func private @printComma()
func.func private @printNewline()
func.func private @printMemrefF32(memref<*xf32>)

func.func @gather_into(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>, %o: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x?xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c259 = arith.constant 259 : index
  %c517 = arith.constant 517 : index
  %c518 = arith.constant 518 : index
  %c533 = arith.constant 533 : index
  %c1000 = arith.constant 1000 : index
  %m1 = arith.constant -1.0 : f32
  %data = tensor.generate %c4, %c517 {
  ^bb0(%r: index, %c: index):
    %v = arith.muli %r, %c1000 : index
    %w = arith.addi %v, %c : index
    %wi = arith.index_cast %w : index to i64
    %wf = arith.sitofp %wi : i64 to f32
    tensor.yield %wf : f32
  } : tensor<?x?xf32>
  %idx = tensor.generate %c4, %c517 {
  ^bb0(%r: index, %c: index):
    %ci = arith.index_cast %c : index to i64
    %c516 = arith.constant 516 : i64
    %c517i = arith.constant 517 : i64
    %one = arith.constant 1 : i64
    %back = arith.subi %c516, %ci : i64
    %parity = arith.andi %ci, %one : i64
    %c300 = arith.constant 300 : i64
    %odd = arith.cmpi eq, %parity, %one : i64
    %late = arith.cmpi sge, %ci, %c300 : i64
    %negated = arith.andi %odd, %late : i1
    %true = arith.constant true
    %even = arith.xori %negated, %true : i1
    %negative = arith.subi %back, %c517i : i64
    %v = arith.select %even, %back, %negative : i64
    tensor.yield %v : i64
  } : tensor<?x?xi64>

  %buf = memref.alloc() : memref<4x533xf32>
  linalg.fill ins(%m1 : f32) outs(%buf : memref<4x533xf32>)
  %view = memref.subview %buf[0, 1] [4, 517] [1, 1] : memref<4x533xf32> to memref<4x517xf32, strided<[533, 1], offset: 1>>
  %dyn = memref.cast %view : memref<4x517xf32, strided<[533, 1], offset: 1>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  call @gather_into(%data, %idx, %dyn) : (tensor<?x?xf32>, tensor<?x?xi64>, memref<?x?xf32, strided<[?, 1], offset: ?>>) -> ()

  // Out row r holds data row r backwards at columns 1-517: element c is
  // 1000 r + 516 - (c - 1).
  %wrong = scf.for %r = %c0 to %c4 step %c1 iter_args(%w0 = %c0) -> index {
    %base = arith.muli %r, %c1000 : index
    %wr = scf.for %c = %c0 to %c533 step %c1 iter_args(%w1 = %w0) -> index {
      %got = memref.load %buf[%r, %c] : memref<4x533xf32>
      %v = arith.addi %base, %c517 : index
      %v1 = arith.subi %v, %c : index
      %vi = arith.index_cast %v1 : index to i64
      %vf = arith.sitofp %vi : i64 to f32
      %after = arith.cmpi uge, %c, %c1 : index
      %before = arith.cmpi ult, %c, %c518 : index
      %inside = arith.andi %after, %before : i1
      %want = arith.select %inside, %vf, %m1 : f32
      %bad = arith.cmpf une, %got, %want : f32
      %add = arith.select %bad, %c1, %c0 : index
      %w2 = arith.addi %w1, %add : index
      scf.yield %w2 : index
    }
    scf.yield %wr : index
  }
  // Elements compared, wrong ones.
  // CHECK: 2132, 0
  %checked = arith.muli %c4, %c533 : index
  %ci = arith.index_cast %checked : index to i64
  %wi = arith.index_cast %wrong : index to i64
  call @printI64(%ci) : (i64) -> ()
  call @printComma() : () -> ()
  call @printI64(%wi) : (i64) -> ()
  call @printNewline() : () -> ()
  // A spot check that the comparison sees the gathered values.
  // CHECK: [516,{{ +}}0,{{ +}}1000,{{ +}}3258]
  %spot = memref.alloc() : memref<4xf32>
  %a = memref.load %buf[%c0, %c1] : memref<4x533xf32>
  %b = memref.load %buf[%c0, %c517] : memref<4x533xf32>
  %c = memref.load %buf[%c1, %c517] : memref<4x533xf32>
  %d = memref.load %buf[%c3, %c259] : memref<4x533xf32>
  memref.store %a, %spot[%c0] : memref<4xf32>
  memref.store %b, %spot[%c1] : memref<4xf32>
  memref.store %c, %spot[%c2] : memref<4xf32>
  memref.store %d, %spot[%c3] : memref<4xf32>
  %u = memref.cast %spot : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
