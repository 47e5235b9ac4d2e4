//===- Passes.h - Gather dialect transformation passes ----------*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_H

#include "gather/Dialect/Gather/Transforms/GatherFusion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_PASSES_H
