//===- Passes.h - GatherMLIR conversion passes ------------------*- C++ -*-===//

#ifndef GATHER_CONVERSION_PASSES_H
#define GATHER_CONVERSION_PASSES_H

#include "gather/Conversion/EmbeddingBagToSCF/EmbeddingBagToSCF.h"
#include "gather/Conversion/GatherToLinalg/GatherToLinalg.h"
#include "gather/Conversion/GatherToLoops/GatherLoads.h"
#include "gather/Conversion/ScatterToSCF/ScatterToSCF.h"
#include "gather/Conversion/TensorToGather/TensorToGather.h"
#include "gather/Conversion/UnrankedDispatch/UnrankedDispatch.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gather {

#define GEN_PASS_DECL
#include "gather/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Conversion/Passes.h.inc"

} // namespace mlir::gather

#endif // GATHER_CONVERSION_PASSES_H
