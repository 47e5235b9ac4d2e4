//===- CompilerApi.cpp - gather_mlir.compiler's Module and JitModule -----===//
//
// For compiler users: parse and verify any module, run pipelines on it,
// lower it and JIT it with MLIR's ExecutionEngine, and call its public
// functions on numpy arrays checked against their types.
//
//===----------------------------------------------------------------------===//

#include "CompilerApi.h"

#include "Compiler.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "NativeArrays.h"

#include <complex>
#include <unordered_map>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::python;

namespace {

/// Whether `a` is laid out in C order (its kernel can use vector loads).
bool isCContiguous(const py::array &a) {
  return a.flags() & py::array::c_style;
}
/// Whether two numpy dtypes are the same (byte order included).
bool sameDtype(const py::dtype &a, const py::dtype &b) {
  return PyObject_RichCompareBool(a.ptr(), b.ptr(), Py_EQ) == 1;
}

/// A parsed or built module, owned by the shared context.
class PyModule {
public:
  explicit PyModule(const std::string &source) {
    std::lock_guard<std::mutex> lock(Compiler::get().mutex());
    module = Compiler::get().parse(source);
  }
  /// A module built in the shared context (the caller holds its lock).
  explicit PyModule(OwningOpRef<ModuleOp> built) : module(std::move(built)) {}
  std::string str() {
    std::lock_guard<std::mutex> lock(Compiler::get().mutex());
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }
  void verify() {
    Compiler &c = Compiler::get();
    std::lock_guard<std::mutex> lock(c.mutex());
    DiagnosticCollector diags(c.context());
    if (failed(mlir::verify(*module)))
      throw py::value_error(diags.take("the module does not verify"));
  }
  PyModule &run(const std::string &pipeline) {
    std::lock_guard<std::mutex> lock(Compiler::get().mutex());
    // Lowering to the LLVM dialect erases element types; JitModule takes
    // the signatures of functions lowered here from these.
    for (auto func : module->getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic())
        funcTypes[func.getName()] = func.getFunctionType();
    Compiler::get().runPipeline(*module, pipeline);
    return *this;
  }
  ModuleOp get() { return *module; }
  /// The type the public function `name` had before the pipelines that
  /// ran on this module, if it was a func.func then.
  std::optional<FunctionType> funcTypeBeforePipelines(StringRef name) const {
    auto it = funcTypes.find(name);
    if (it == funcTypes.end())
      return std::nullopt;
    return it->second;
  }

private:
  OwningOpRef<ModuleOp> module;
  llvm::StringMap<FunctionType> funcTypes;
};

/// The MLIR element type of a numpy dtype of integers or floats
/// (elementTypeOf); TypeError otherwise.
Type elementTypeOf(MLIRContext &ctx, const py::dtype &dtype) {
  if (Type type = elementTypeOf(
          ctx, elementKindOf(reinterpret_cast<PyArray_Descr *>(dtype.ptr()))))
    return type;
  throw py::type_error("no MLIR element type for dtype " +
                       std::string(py::str(dtype)));
}

} // namespace

OwningOpRef<ModuleOp> mlir::gather::python::buildEmbeddingBagModule(
    MLIRContext &ctx, const std::string &name, Type table,
    std::optional<int64_t> rowWidth, Type ids, int64_t idsRank,
    std::optional<int64_t> bagLength, bool offsets, Type weights, Type scales,
    bool zeroPoints, const std::string &reduction,
    std::optional<int64_t> paddingIdx, bool includeLastOffset,
    const std::string &mode, std::optional<int64_t> rowwiseBits,
    std::optional<int64_t> blockBits, std::optional<int64_t> blockSize) {
  std::optional<BagReduction> bagReduction = symbolizeBagReduction(reduction);
  std::optional<GatherMode> gatherMode = symbolizeGatherMode(mode);
  if (!bagReduction || !gatherMode || idsRank < 1 || idsRank > 2 ||
      (bagLength && (idsRank != 2 || *bagLength < 0)))
    throw py::value_error("embedding_bag_module: no reduction '" + reduction +
                          "', mode '" + mode + "' or ids of rank " +
                          std::to_string(idsRank) + " and bag length " +
                          (bagLength ? std::to_string(*bagLength) : "?"));
  if (rowWidth && *rowWidth < 0)
    throw py::value_error("embedding_bag_module: row_width must be >= 0, "
                          "not " +
                          std::to_string(*rowWidth));
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  auto tensor = [&](int64_t rank, Type element) {
    return RankedTensorType::get(
        SmallVector<int64_t>(rank, ShapedType::kDynamic), element);
  };
  RankedTensorType idsType = tensor(idsRank, ids);
  if (bagLength)
    idsType = RankedTensorType::get({ShapedType::kDynamic, *bagLength},
                                    idsType.getElementType());
  auto tableType = RankedTensorType::get(
      {ShapedType::kDynamic, rowWidth.value_or(ShapedType::kDynamic)}, table);
  SmallVector<Type> inputs{tableType, idsType};
  if (offsets)
    inputs.push_back(tensor(1, b.getI64Type()));
  if (weights)
    inputs.push_back(tensor(idsRank, weights));
  if (scales)
    inputs.push_back(tensor(2, scales));
  if (zeroPoints)
    inputs.push_back(tensor(2, b.getI8Type()));
  b.setInsertionPointToEnd(module->getBody());
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType(inputs, {}));
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  unsigned next = 2;
  auto operand = [&](bool present) {
    return present ? body->getArgument(next++) : Value();
  };
  Value offsetsValue = operand(offsets), weightsValue = operand(!!weights),
        scalesValue = operand(!!scales), zeroPointsValue = operand(zeroPoints);
  auto attr = [&](std::optional<int64_t> v) {
    return v ? b.getI64IntegerAttr(*v) : IntegerAttr();
  };
  // Built with a placeholder result type, then given the inferred one.
  auto bag = EmbeddingBagOp::create(
      b, loc, tensor(2, b.getF32Type()), body->getArgument(0),
      body->getArgument(1), offsetsValue, weightsValue, *bagReduction,
      attr(paddingIdx), includeLastOffset, *gatherMode, attr(rowwiseBits),
      scalesValue, zeroPointsValue, attr(blockBits), attr(blockSize));
  DiagnosticCollector diags(ctx);
  SmallVector<Type> inferred;
  if (failed(EmbeddingBagOp::inferReturnTypes(
          &ctx, loc, bag->getOperands(), bag->getAttrDictionary(),
          bag->getPropertiesStorage(), bag->getRegions(), inferred)) ||
      inferred.size() != 1)
    throw py::value_error(diags.take("embedding_bag_module"));
  auto resultType = cast<RankedTensorType>(inferred.front());
  bag.getResult().setType(resultType);
  auto buffer =
      MemRefType::get(resultType.getShape(), resultType.getElementType());
  Value out = body->addArgument(buffer, loc);
  fn.setFunctionType(
      b.getFunctionType(llvm::to_vector(body->getArgumentTypes()), {}));
  auto sink = bufferization::MaterializeInDestinationOp::create(
      b, loc, TypeRange{}, bag.getResult(), out);
  sink.setRestrict(true);
  sink.setWritable(true);
  func::ReturnOp::create(b, loc);
  // The result's buffer is restrict, the operands are only read: LLVM may
  // keep what it loaded across the stores (gather-noalias-memref-args).
  for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
    fn.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  if (failed(mlir::verify(*module)))
    throw py::value_error(diags.take("embedding_bag_module"));
  return module;
}

namespace {

/// embedding_bag_module: buildEmbeddingBagModule in the shared context.
PyModule embeddingBagModule(
    const std::string &name, const py::dtype &table,
    std::optional<int64_t> rowWidth, const py::dtype &ids, int64_t idsRank,
    std::optional<int64_t> bagLength, bool offsets,
    std::optional<py::dtype> weights, std::optional<py::dtype> scales,
    bool zeroPoints, const std::string &reduction,
    std::optional<int64_t> paddingIdx, bool includeLastOffset,
    const std::string &mode, std::optional<int64_t> rowwiseBits,
    std::optional<int64_t> blockBits, std::optional<int64_t> blockSize) {
  Compiler &c = Compiler::get();
  std::lock_guard<std::mutex> lock(c.mutex());
  MLIRContext &ctx = c.context();
  auto typeOf = [&](const std::optional<py::dtype> &dtype) {
    return dtype ? elementTypeOf(ctx, *dtype) : Type();
  };
  return PyModule(buildEmbeddingBagModule(
      ctx, name, elementTypeOf(ctx, table), rowWidth, elementTypeOf(ctx, ids),
      idsRank, bagLength, offsets, typeOf(weights), typeOf(scales), zeroPoints,
      reduction, paddingIdx, includeLastOffset, mode, rowwiseBits, blockBits,
      blockSize));
}

/// numpy dtype of an MLIR element type.
py::dtype dtypeOf(Type t) {
  if (t.isInteger(1))
    return py::dtype("bool");
  if (t.isIndex())
    return py::dtype("int64");
  if (auto i = dyn_cast<IntegerType>(t))
    return py::dtype((i.isUnsigned() ? "uint" : "int") +
                     std::to_string(i.getWidth()));
  if (isa<Float16Type, Float32Type, Float64Type>(t))
    return py::dtype("float" + std::to_string(t.getIntOrFloatBitWidth()));
  if (auto c = dyn_cast<ComplexType>(t);
      c && isa<Float32Type, Float64Type>(c.getElementType()))
    return py::dtype(
        "complex" +
        std::to_string(2 * c.getElementType().getIntOrFloatBitWidth()));
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  throw py::type_error("no numpy dtype for element type " + text);
}

/// `(2, ?, 5)`: a shape or strides as Python prints a tuple, `?` for
/// dynamic values.
std::string tupleText(ArrayRef<int64_t> values) {
  std::string text = "(";
  for (auto [i, v] : llvm::enumerate(values))
    text += (i ? ", " : "") +
            (ShapedType::isDynamic(v) ? std::string("?") : std::to_string(v));
  return text + (values.size() == 1 ? ",)" : ")");
}

/// The strides (in elements) of a C-contiguous array of `shape`.
SmallVector<int64_t> cStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// What a function parameter or result is in numpy terms: a dtype, a shape
/// (ShapedType::kDynamic where any size goes) and the strides and offset
/// (in elements) a memref layout fixes (kDynamic where the descriptor says,
/// and always for tensors, which bufferize to what the descriptor says).
struct ArrayType {
  std::string text; // The MLIR type, for messages.
  py::dtype dtype;
  SmallVector<int64_t> shape, strides;
  int64_t offset = ShapedType::kDynamic;

  int64_t rank() const { return shape.size(); }

  /// The type of a parameter or result of `fn`; ValueError if JitModule
  /// cannot pass it (not a ranked tensor or strided memref), TypeError if
  /// its element type has no numpy dtype.
  static ArrayType get(Type t, StringRef fn) {
    auto shaped = dyn_cast<ShapedType>(t);
    if (!shaped || !shaped.hasRank() || !isa<RankedTensorType, MemRefType>(t))
      throw py::value_error("function '" + fn.str() +
                            "' must take and return ranked tensors or "
                            "memrefs");
    ArrayType a{"", dtypeOf(shaped.getElementType()),
                SmallVector<int64_t>(shaped.getShape()),
                SmallVector<int64_t>(shaped.getRank(), ShapedType::kDynamic)};
    llvm::raw_string_ostream os(a.text);
    t.print(os);
    if (auto memref = dyn_cast<MemRefType>(t)) {
      a.strides.clear(); // getStridesAndOffset appends.
      if (failed(memref.getStridesAndOffset(a.strides, a.offset)))
        throw py::value_error("function '" + fn.str() + "' takes or returns " +
                              a.text + ", which has no strided layout");
    }
    return a;
  }
};

/// A JIT-compiled module whose public functions take arrays (memref or
/// tensor arguments) and return at most one array.
class PyJitModule {
public:
  PyJitModule(PyModule &source, const std::string &pipeline, int optLevel)
      : PyJitModule(source, optLevel, [&](Compiler &c, ModuleOp module) {
          if (!pipeline.empty())
            c.runPipeline(module, pipeline);
        }) {}

  /// `source` lowered by gather-to-llvm for this host (`parallel`: threads),
  /// the pipeline built through the C++ API.
  static std::unique_ptr<PyJitModule> forHost(PyModule &source, bool parallel) {
    auto lower = [&](Compiler &c, ModuleOp module) {
      PassManager pm(&c.context(), ModuleOp::getOperationName());
      buildGatherToLLVMPipeline(pm, getHostLoweringOptions(parallel));
      c.run(pm, module);
    };
    return std::unique_ptr<PyJitModule>(new PyJitModule(source, 3, lower));
  }

private:
  PyJitModule(PyModule &source, int optLevel,
              llvm::function_ref<void(Compiler &, ModuleOp)> lower) {
    if (optLevel < 0 || optLevel > 3)
      throw py::value_error("opt_level must be 0..3, not " +
                            std::to_string(optLevel));
    Compiler &c = Compiler::get();
    std::lock_guard<std::mutex> lock(c.mutex());
    OwningOpRef<ModuleOp> module = source.get().clone();
    // Every public function gets its C interface, which call() uses.
    c.runPipeline(*module, "gather-emit-c-interface");
    for (auto func : module->getOps<func::FuncOp>())
      if (!func.isExternal() && func.isPublic())
        addFunction(func.getName(), func.getFunctionType());
    // Functions lowered already (those with a C interface): the LLVM
    // dialect has no element types, so their types come from before the
    // pipelines that lowered them.
    for (auto fn : module->getOps<LLVM::LLVMFuncOp>()) {
      StringRef name = fn.getName();
      if (fn.isExternal() || name.starts_with(kCInterfacePrefix) ||
          !module->lookupSymbol((kCInterfacePrefix + name).str()))
        continue;
      std::optional<FunctionType> type = source.funcTypeBeforePipelines(name);
      if (!type)
        throw py::value_error(
            "cannot derive the signature of '" + name.str() +
            "': it is in the LLVM dialect, which has no element types, and "
            "was not lowered by Module.run (pass JitModule the module before "
            "lowering, with its pipeline)");
      addFunction(name, *type);
    }
    lower(c, *module);
    threaded = mayReportOnOpenMPThreads(*module);
    openMP = usesOpenMP(*module);
    engine = c.jit(*module, optLevel);
    // Compile every function now, so that unresolved symbols are errors
    // here rather than at call().
    std::string errors;
    for (auto &[name, fn] : functions) {
      checkLowered(*module, name, fn);
      auto entry = engine->lookup(kCInterfacePrefix.str() + name);
      if (entry)
        fn.entry = *entry;
      else
        errors +=
            "\nfunction '" + name + "': " + llvm::toString(entry.takeError());
    }
    if (!errors.empty())
      throw py::value_error("cannot compile the module: unresolved symbols " +
                            unresolvedSymbols(*module) + errors);
  }

public:
  /// Calls `name` with `args` (arrays or array-likes) after checking them
  /// against its type; returns None or a new array.
  py::object call(const std::string &name, py::args args) {
    auto it = functions.find(name);
    if (it == functions.end())
      throw py::key_error("no public function '" + name + "'");
    const Function &fn = it->second;
    if (args.size() != fn.args.size())
      throw py::value_error(name + "() takes " +
                            std::to_string(fn.args.size()) + " arrays, got " +
                            std::to_string(args.size()));
    std::vector<py::array> arrays;
    std::vector<std::vector<int64_t>> descriptors;
    for (auto [i, arg] : llvm::enumerate(args)) {
      arrays.push_back(checkArgument(name + "() argument " + std::to_string(i),
                                     arg, fn.args[i]));
      descriptors.push_back(argumentDescriptor(arrays.back(), fn.args[i]));
    }
    std::vector<int64_t> result;
    std::vector<void *> pointers;
    if (fn.result) {
      result.assign(3 + 2 * fn.result->rank(), 0);
      pointers.push_back(result.data());
    }
    for (auto &d : descriptors)
      pointers.push_back(d.data());

    KernelErrorRecord error;
    {
      py::gil_scoped_release release;
      KernelCall call(threaded, openMP);
      callWithPointers(fn.entry, pointers);
      error = call.take();
    }
    raiseKernelError(error);
    if (!fn.result)
      return py::none();
    return takeResult(result, *fn.result, arrays);
  }

private:
  /// The C interface of a function `f` (StridedMemRefType descriptors).
  static constexpr StringLiteral kCInterfacePrefix = "_mlir_ciface_";

  struct Function {
    std::vector<ArrayType> args;
    std::optional<ArrayType> result;
    void *entry = nullptr; // Its compiled C interface.
  };

  /// The functions `module` declares that neither the process (with the
  /// libraries the JIT loaded) nor the error hooks define.
  static std::string unresolvedSymbols(ModuleOp module) {
    std::string names;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
      StringRef name = fn.getName();
      if (fn.isExternal() && name != kIndexErrorHook &&
          name != kShapeErrorHook &&
          !llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name.str()))
        names += (names.empty() ? "" : ", ") + name.str();
    }
    return names.empty() ? "(unknown)" : names;
  }

  /// Throws ValueError unless `fn` was lowered as its type says: a C
  /// interface taking a pointer per array (the result first), wrapping an
  /// LLVM function that takes and returns descriptors of the right ranks.
  static void checkLowered(ModuleOp module, const std::string &name,
                           const Function &fn) {
    auto lowered = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    auto wrapper =
        module.lookupSymbol<LLVM::LLVMFuncOp>(kCInterfacePrefix.str() + name);
    size_t params = 0;
    for (const ArrayType &a : fn.args)
      params += 3 + 2 * a.rank();
    bool ok =
        lowered && wrapper &&
        wrapper.getNumArguments() == fn.args.size() + (fn.result ? 1 : 0) &&
        lowered.getNumArguments() == params;
    if (ok && fn.result) {
      auto descriptor = dyn_cast<LLVM::LLVMStructType>(
          lowered.getFunctionType().getReturnType());
      int64_t rank = fn.result->rank();
      ok = descriptor && descriptor.getBody().size() == (rank ? 5u : 3u);
      if (ok && rank) {
        auto sizes = dyn_cast<LLVM::LLVMArrayType>(descriptor.getBody()[3]);
        ok = sizes && sizes.getNumElements() == static_cast<unsigned>(rank);
      }
    }
    if (!ok)
      throw py::value_error("function '" + name +
                            "' was not lowered to the C interface of its "
                            "type (memref descriptors, one per array)");
  }

  /// Records the public function `name` of type `type`; ValueError if
  /// call() could not call it.
  void addFunction(StringRef name, FunctionType type) {
    Function fn;
    for (Type t : type.getInputs())
      fn.args.push_back(ArrayType::get(t, name));
    if (type.getNumResults() > 1)
      throw py::value_error("function '" + name.str() +
                            "' returns more than one value");
    if (type.getNumResults() == 1)
      fn.result = ArrayType::get(type.getResult(0), name);
    if (fn.args.size() + type.getNumResults() > kMaxPointers)
      throw py::value_error(
          "function '" + name.str() + "' takes more than " +
          std::to_string(kMaxPointers - type.getNumResults()) + " arrays");
    functions[name.str()] = std::move(fn);
  }

  /// `arg` as an array the parameter of `type` can take: of its rank, dtype,
  /// static dims and strides, C-contiguous (a copy of an array the function
  /// writes would lose the writes; other array-likes are converted, as
  /// nobody else holds them). ValueError or TypeError naming `what`.
  static py::array checkArgument(const std::string &what, py::handle arg,
                                 const ArrayType &type) {
    if (py::isinstance<py::array>(arg) &&
        !isCContiguous(py::reinterpret_borrow<py::array>(arg)))
      throw py::value_error(what +
                            " must be C-contiguous (np.ascontiguousarray)");
    py::array a = py::array::ensure(arg, py::array::c_style);
    if (!a)
      throw py::type_error(
          what + " must be an array, not " +
          std::string(py::str(arg.get_type().attr("__name__"))));
    if (a.ndim() != type.rank())
      throw py::value_error(what + " must have rank " +
                            std::to_string(type.rank()) + ", not " +
                            std::to_string(a.ndim()));
    if (!sameDtype(a.dtype(), type.dtype))
      throw py::type_error(what + " must have dtype " +
                           std::string(py::str(type.dtype)) + ", not " +
                           std::string(py::str(a.dtype())));
    SmallVector<int64_t> shape(a.shape(), a.shape() + a.ndim());
    for (auto [want, have] : llvm::zip(type.shape, shape))
      if (!ShapedType::isDynamic(want) && want != have)
        throw py::value_error(what + " must have shape " +
                              tupleText(type.shape) + " (" + type.text +
                              "), not " + tupleText(shape));
    SmallVector<int64_t> strides = cStrides(shape);
    for (auto [want, have] : llvm::zip(type.strides, strides))
      if (!ShapedType::isDynamic(want) && want != have)
        throw py::value_error(what + " must have strides " +
                              tupleText(type.strides) + " (in elements), not " +
                              tupleText(strides));
    return a;
  }

  /// The descriptor of a checked C-contiguous argument: its strides in C
  /// order (numpy's may differ along dims of size 1), and the offset its
  /// type fixes, if any, with the aligned pointer moved back by as much.
  static std::vector<int64_t> argumentDescriptor(const py::array &a,
                                                 const ArrayType &type) {
    int64_t rank = a.ndim();
    SmallVector<int64_t> shape(a.shape(), a.shape() + rank);
    SmallVector<int64_t> strides = cStrides(shape);
    int64_t offset = ShapedType::isDynamic(type.offset) ? 0 : type.offset;
    auto ptr = reinterpret_cast<int64_t>(a.data());
    std::vector<int64_t> d(3 + 2 * rank);
    d[0] = ptr;
    d[1] = ptr - offset * static_cast<int64_t>(a.itemsize());
    d[2] = offset;
    llvm::copy(shape, d.begin() + 3);
    llvm::copy(strides, d.begin() + 3 + rank);
    return d;
  }

  /// The allocated pointer MLIR's lowering gives `memref.get_global`
  /// results: a global is not to be freed.
  static constexpr uintptr_t kGlobalAllocatedPointer = 0xdeadbeef;

  /// A returned memref as an array: one the function handed over (not (a
  /// view into) an argument's buffer or a global) is adopted, no copy, and
  /// its allocation freed with the array; any other is copied. A view into
  /// an allocation has its allocated pointer apart from its data; that
  /// pointer is the one freed.
  static py::array takeResult(const std::vector<int64_t> &d,
                              const ArrayType &type,
                              const std::vector<py::array> &arguments) {
    int64_t rank = type.rank(), itemsize = type.dtype.itemsize();
    std::vector<py::ssize_t> shape(d.begin() + 3, d.begin() + 3 + rank);
    std::vector<py::ssize_t> strides;
    for (int64_t i = 0; i < rank; ++i)
      strides.push_back(d[3 + rank + i] * itemsize);
    auto allocated = static_cast<uintptr_t>(d[0]);
    bool owned = allocated != kGlobalAllocatedPointer;
    for (const py::array &a : arguments) {
      auto begin = reinterpret_cast<uintptr_t>(a.data());
      owned &= allocated < begin || allocated > begin + a.nbytes();
    }
    bool empty = llvm::is_contained(shape, 0);
    if (llvm::any_of(shape, [](py::ssize_t n) { return n < 0; }) ||
        (!empty && d[1] == 0))
      throw py::value_error("the function returned an invalid " + type.text);
    auto *base = reinterpret_cast<char *>(d[1]) + d[2] * itemsize;
    if (owned && !empty) {
      py::capsule allocation(reinterpret_cast<void *>(allocated),
                             [](void *p) { resultMemoryRelease(p); });
      return py::array(type.dtype, shape, strides, base, allocation);
    }
    // A view (base None: pybind11 copies arrays without a base) copied.
    py::array view(type.dtype, shape, strides, empty ? nullptr : base,
                   py::none());
    py::array copy = py::array::ensure(view.attr("copy")());
    if (owned)
      resultMemoryRelease(reinterpret_cast<void *>(allocated));
    return copy;
  }

  std::unordered_map<std::string, Function> functions;
  std::unique_ptr<ExecutionEngine> engine;
  /// Whether the module's hooks may run on the threads OpenMP starts, and
  /// whether it uses OpenMP at all (KernelCall).
  bool threaded = false;
  bool openMP = false;
};

} // namespace

void mlir::gather::python::bindCompilerApi(py::module_ &m) {
  py::class_<PyModule>(m, "Module", R"doc(
A parsed MLIR module (any registered dialect, including gather).

    m = Module(text)      # parses and verifies; ValueError with diagnostics
    m.run("gather-to-llvm")
    print(m)
)doc")
      .def(py::init<const std::string &>(), py::arg("source"),
           "Parse and verify MLIR text; ValueError with the located "
           "diagnostics (`<source>:line:col: error: ...`).")
      .def("__str__", &PyModule::str, "The module as MLIR text.")
      .def("verify", &PyModule::verify,
           "Verify the module; ValueError with the diagnostics.")
      .def("run", &PyModule::run, py::arg("pipeline"),
           py::return_value_policy::reference_internal,
           "Run a textual pass pipeline in place and return self: the "
           "passes alone (`canonicalize,cse`, or a registered pipeline such "
           "as `gather-to-llvm`) or gather-opt's --pass-pipeline form "
           "anchored on the module (`builtin.module(canonicalize,cse)`). "
           "ValueError for a pipeline that does not parse or fails.");

  m.def("embedding_bag_module", &embeddingBagModule, py::arg("name"),
        py::arg("table"), py::arg("row_width"), py::arg("ids"),
        py::arg("ids_rank"), py::arg("bag_length"), py::arg("offsets"),
        py::arg("per_sample_weights"), py::arg("scales"),
        py::arg("zero_points"), py::arg("reduction"), py::arg("padding_idx"),
        py::arg("include_last_offset"), py::arg("mode"),
        py::arg("rowwise_bits"), py::arg("block_bits"), py::arg("block_size"),
        "The module of one gather.embedding_bag kernel, built (not parsed): "
        "`name`'s arguments are the table (of `row_width` columns, or "
        "any), the ids, the optional operands that are given (dtypes) and "
        "the result's buffer, last.");

  py::class_<PyJitModule>(m, "JitModule", R"doc(
A module lowered by `pipeline` and JIT-compiled by MLIR's ExecutionEngine
(`opt_level` 0..3). Every public function is compiled at construction
(ValueError naming unresolved symbols); with `pipeline=""` the module may be
one that Module.run lowered to the LLVM dialect. Public functions take numpy
arrays (for memref or tensor arguments), checked against their types, and
return None or one new array:

    jit = JitModule(Module(text))
    out = jit.call("f", a, b)
)doc")
      .def(py::init<PyModule &, const std::string &, int>(), py::arg("module"),
           py::arg("pipeline") = "gather-to-llvm", py::arg("opt_level") = 3,
           "Lower a copy of `module` with `pipeline` and JIT-compile every "
           "public function at `opt_level` (0..3); ValueError for pipeline "
           "errors, a bad opt_level or unresolved symbols.")
      .def_static("for_host", &PyJitModule::forHost, py::arg("module"),
                  py::arg("parallel") = false,
                  "`module` lowered by gather-to-llvm for this host's CPU "
                  "(`parallel`: threads), built through the C++ API, with "
                  "the options the package's own kernels are lowered with.")
      .def("call", &PyJitModule::call, py::arg("name"),
           "Call the public function `name` with arrays (one per memref or "
           "tensor argument; C-contiguous) and return None or one new "
           "array. ValueError for a wrong count, rank, static dim or layout, "
           "TypeError for a wrong dtype; IndexError/ValueError for kernel "
           "failures.");
}
