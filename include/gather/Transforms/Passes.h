//===- Passes.h - Passes on upstream ops the pipeline needs -----*- C++ -*-===//

#ifndef GATHER_TRANSFORMS_PASSES_H
#define GATHER_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Transforms/Passes.h.inc"

} // namespace mlir::gather

#endif // GATHER_TRANSFORMS_PASSES_H
