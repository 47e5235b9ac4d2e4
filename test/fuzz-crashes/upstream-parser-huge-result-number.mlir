// signature: ERROR: libFuzzer: out-of-memory (in mlir::OpAsmParser::resolveOperands)
//
// Open, upstream (MLIR 22.1.8): a use of a result number far past the
// results an op has (`%0#294967296`, here forward-declared by the parser as
// a placeholder) makes the parser grow a vector of placeholders to that
// size: gather-fuzz reports out-of-memory past its 2 GiB limit, and stock
// mlir-opt-22 aborts with "LLVM ERROR: out of memory" on this module, which
// has no gather op. Found by gather-fuzz (the hour-long run of 2026-11-24,
// from a mutated test input). It stays here until upstream's parser checks
// the result number first. (libFuzzer does not fail a run on an
// out-of-memory input; scripts/fuzz.sh lists it.)
func.func @f(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %0#294967296, %a : f32
  return %1 : f32
}
