//===- GatherModule.cpp - The gather_mlir._native extension -----*- C++ -*-===//
//
// pybind11 bindings over GatherMLIR's C++ API:
//  * gather / gather_elements / gather_nd on numpy arrays: the result shape
//    (and every ValueError) comes from the dialect's shape rules; the kernel
//    is the runtime library's (gather/Runtime): the kernel the host's policy
//    chooses for the call (KernelPolicy.h), a gather op in a
//    destination-passing function lowered by the gather-to-llvm pipeline,
//    compiled to an object for the host CPU and linked by an ORC JIT
//    (KernelJit.h), and cached by what must differ (op, element width,
//    index type, ranks, attributes, mode) in memory and on disk
//    (KernelCache.h, KernelStore.h). Shapes stay dynamic, so new shapes
//    reuse kernels.
//    try_gather & co. are the per-call fast path: one C call, no MLIR.
//  * Module / JitModule (CompilerApi.cpp): parse, verify, run pipelines, JIT
//    and call functions, for compiler users.
//
// pybind11 needs C++ exceptions: python/src/ alone is built with them.
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "CompilerApi.h"
#include "EmbeddingBags.h"
#include "ResultMemory.h"

#include "gather-c/Runtime.h"
#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/InitAll.h"
#include "gather/Runtime/KernelCompiler.h"
#include "gather/Runtime/KernelStore.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/TargetSelect.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

// numpy's own C API, for the per-call path (after pybind11's numpy.h, whose
// names do not clash with it), imported here for the whole module.
#define GATHER_PYTHON_IMPORTS_NUMPY
#include "NativeArrays.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::python;

namespace {

//===----------------------------------------------------------------------===//
// High-level ops
//===----------------------------------------------------------------------===//

/// Throws unless the kernels can read `data` and `indices` in place: data
/// of the contract's dtypes (bool, integers, floats, complex: plain bits
/// of 1 to 16 bytes), native integer indices (narrower unsigned ones are
/// widened by the kernels, uint64 ones converted by signedIndices; unchecked
/// mode trusts their values), strides in whole elements.
void checkOperands(const std::string &op, const py::array &data,
                   const py::array &indices) {
  static constexpr StringLiteral dataChars = "?bhilqBHILQefdFD";
  if (!StringRef(dataChars).contains(data.dtype().char_()))
    throw py::type_error(op + ": unsupported data dtype " +
                         std::string(py::str(data.dtype())));
  py::dtype index = indices.dtype();
  if ((index.kind() != 'i' && index.kind() != 'u') ||
      !index.attr("isnative").cast<bool>())
    throw py::type_error(op + ": indices must be native integers, not " +
                         std::string(py::str(index)));
  for (auto [name, a] :
       {std::pair<const char *, const py::array &>{"data", data},
        {"indices", indices}})
    for (py::ssize_t i = 0; i < a.ndim(); ++i)
      if (a.strides(i) % a.itemsize())
        throw py::value_error(op + ": " + name +
                              " strides must be whole elements");
}

/// uint64 indices that signedViewIfFits cannot view as the int64 ones the
/// kernels read, values kept, for every rank. A value above INT64_MAX,
/// which no dimension reaches, becomes what the mode
/// makes of it: `check` raises the IndexError of the first index out of range
/// in row-major order (huge or not, so the report is the kernels'), naming its
/// unsigned value; along an empty dimension `clamp` and `wrap` raise too;
/// `wrap` takes the true modulo, `clamp` and `unchecked` the last position,
/// `fill` a value out of range.
py::object signedIndices(OpKind kind, PyArrayObject *indices,
                         const GatherShape &shape, ShapeView dataShape,
                         GatherMode mode) {
  PyObject *source = PyArray_FromAny(
      reinterpret_cast<PyObject *>(indices), PyArray_DescrFromType(NPY_UINT64),
      0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED, nullptr);
  if (!source)
    throw py::error_already_set();
  py::object sourceObject = py::reinterpret_steal<py::object>(source);
  PyObject *result =
      PyArray_NewLikeArray(reinterpret_cast<PyArrayObject *>(source),
                           NPY_CORDER, PyArray_DescrFromType(NPY_INT64), 0);
  if (!result)
    throw py::error_already_set();
  py::object resultObject = py::reinterpret_steal<py::object>(result);
  const auto *in = static_cast<const uint64_t *>(
      PyArray_DATA(reinterpret_cast<PyArrayObject *>(source)));
  auto *values = static_cast<int64_t *>(
      PyArray_DATA(reinterpret_cast<PyArrayObject *>(result)));
  int64_t count = PyArray_SIZE(reinterpret_cast<PyArrayObject *>(source));
  int64_t tuple = kind == OpKind::ND ? shape.tupleSize : 1;
  for (int64_t i = 0; i < count; ++i) {
    int64_t dim = shape.indexedDim(i % tuple);
    int64_t size = dataShape.getDimSize(dim);
    uint64_t v = in[i];
    bool outOfRange = v >= static_cast<uint64_t>(size);
    if ((mode == GatherMode::check && outOfRange) ||
        (size == 0 &&
         (mode == GatherMode::clamp || mode == GatherMode::wrap))) {
      char message[256];
      gatherMlirFormatUnsignedIndexError(
          message, sizeof(message), static_cast<int64_t>(kind), dim, v, size);
      throw py::index_error(message);
    }
    if (v <= static_cast<uint64_t>(INT64_MAX))
      values[i] = static_cast<int64_t>(v);
    else if (mode == GatherMode::fill || size == 0)
      values[i] = INT64_MAX;
    else if (mode == GatherMode::wrap)
      values[i] = static_cast<int64_t>(v % static_cast<uint64_t>(size));
    else
      values[i] = size - 1;
  }
  return resultObject;
}

/// A gather call as it will run: the indices the kernel reads (unsigned ones
/// as signed ones), the array it writes and the kernel the host's policy
/// chooses for it.
struct PlannedGather {
  py::object converted, result;
  PyArrayObject *data = nullptr, *indices = nullptr;
  /// The shapes the kernel sees: the operands' own, or fewer dims read as
  /// one (GatherShape::collapseDims) when every array is C-contiguous.
  SmallVector<int64_t, 8> dataShape, indicesShape, resultShape;
  /// The operand's data dim of each dim the kernel sees (its errors' dims),
  /// when it sees fewer; else empty.
  SmallVector<int64_t, 8> dataDims;
  GatherKernelChoice choice;

  bool collapsed() const { return !dataDims.empty(); }

  Descriptor dataDescriptor() const {
    return collapsed() ? Descriptor(data, dataShape) : Descriptor(data);
  }
  Descriptor indicesDescriptor() const {
    return collapsed() ? Descriptor(indices, indicesShape)
                       : Descriptor(indices);
  }
  Descriptor resultDescriptor() const {
    auto *a = reinterpret_cast<PyArrayObject *>(result.ptr());
    return collapsed() ? Descriptor(a, resultShape) : Descriptor(a);
  }
};

/// Reads the kernel's operands with fewer dims where `shape` merges some
/// and every array is C-contiguous and nonempty: fewer kernel classes,
/// longer rows. Sets `collapsedShape` to the rules on the merged shapes.
void collapseDims(OpKind kind, PlannedGather &plan, const GatherShape &shape,
                  std::optional<GatherShape> &collapsedShape) {
  auto *result = reinterpret_cast<PyArrayObject *>(plan.result.ptr());
  for (PyArrayObject *a : {plan.data, plan.indices, result})
    if (!PyArray_IS_C_CONTIGUOUS(a) || PyArray_SIZE(a) == 0)
      return;
  GatherShape::CollapsedDims groups =
      shape.collapseDims(shapeOf(plan.data), shapeOf(plan.indices));
  if (!groups.mergesAny())
    return;
  auto noError = [](const Twine &) { return failure(); };
  FailureOr<GatherShape> merged = inferShapeOf(
      kind, ShapeView(groups.dataShape), ShapeView(groups.indicesShape),
      groups.axis, groups.batchDims, GatherMode::fill, noError);
  if (failed(merged))
    return; // Not expected: the rules hold on the merged shapes.
  plan.dataShape.assign(groups.dataShape);
  plan.indicesShape.assign(groups.indicesShape);
  plan.resultShape.assign(groups.resultShape);
  for (ArrayRef<int64_t> group : groups.data)
    plan.dataDims.push_back(group.front());
  collapsedShape = std::move(*merged);
}

/// Plans gather, gather_elements or gather_nd on operands that
/// checkOperands accepts: the result shape and every ValueError come from
/// the dialect's shape rules (on the arrays' shapes; no MLIR type is
/// built). `unchecked` plans the `clamp` kernel (one of the results
/// "undefined" allows, and no scan of the indices), so the package reads
/// nothing out of bounds even when its promise is broken.
PlannedGather planGather(OpKind kind, PyArrayObject *data,
                         PyArrayObject *indices, int64_t axis,
                         int64_t batchDims, GatherMode mode, PyObject *out) {
  if (mode == GatherMode::unchecked)
    mode = GatherMode::clamp;
  ShapeView dataShape = shapeOf(data), indicesShape = shapeOf(indices);
  // An empty axis is not a shape error here: the kernel reports it as an
  // IndexError, as numpy does, so the rules see a mode without that check.
  ShapeRuleError error;
  FailureOr<GatherShape> shape = inferShapeOf(
      kind, dataShape, indicesShape, axis, batchDims, GatherMode::fill, error);
  if (failed(shape))
    error.raise(opName(kind));
  PlannedGather plan;
  plan.dataShape.assign(dataShape.getShape());
  plan.resultShape = shape->getStaticShape(dataShape, indicesShape);
  // uint64 indices become int64 (a view where they fit); narrower unsigned
  // ones are read as they are, and the kernel widens them unsigned.
  if (PyArray_DESCR(indices)->kind == 'u' && PyArray_ITEMSIZE(indices) == 8) {
    plan.converted = signedViewIfFits(indices);
    if (plan.converted.is_none())
      plan.converted = signedIndices(kind, indices, *shape, dataShape, mode);
    indices = reinterpret_cast<PyArrayObject *>(plan.converted.ptr());
  }
  plan.data = data;
  plan.indices = indices;
  plan.indicesShape.assign(shapeOf(indices));
  plan.result = resultArray(opName(kind), PyArray_DESCR(data), plan.resultShape,
                            out, {data, indices});
  bool intoCallerResult = plan.result.ptr() == out;
  std::optional<GatherShape> collapsedShape;
  collapseDims(kind, plan, *shape, collapsedShape);
  // Threads, streaming, row validation, how rows read: the runtime's
  // policy for this host and this call.
  GatherCall gatherCall(ShapeView(plan.dataShape),
                        ShapeView(plan.indicesShape));
  gatherCall.op = kind;
  gatherCall.mode = mode;
  gatherCall.dataElementBytes = PyArray_ITEMSIZE(data);
  gatherCall.indexElementBytes = PyArray_ITEMSIZE(indices);
  gatherCall.dataContiguous = PyArray_IS_C_CONTIGUOUS(data);
  gatherCall.indicesContiguous = PyArray_IS_C_CONTIGUOUS(indices);
  gatherCall.unsignedIndices = PyArray_DESCR(indices)->kind == 'u';
  gatherCall.shape = collapsedShape ? &*collapsedShape : &*shape;
  gatherCall.resultShape = plan.resultShape;
  gatherCall.intoCallerResult = intoCallerResult;
  plan.choice = chooseGatherKernel(gatherCall);
  if (plan.choice.bufferResult) // The caller's shape; the kernel's view.
    plan.result =
        newArray(PyArray_DESCR(data),
                 shapeOf(reinterpret_cast<PyArrayObject *>(plan.result.ptr())));
  return plan;
}

/// Runs the planned gather: fills `out` (or a new array) and returns it.
py::object runGather(OpKind kind, PyArrayObject *data, PyArrayObject *indices,
                     int64_t axis, int64_t batchDims, GatherMode mode,
                     PyObject *out) {
  PlannedGather plan =
      planGather(kind, data, indices, axis, batchDims, mode, out);
  indices = plan.indices;
  py::object result = plan.result;
  int64_t resultBytes =
      PyArray_NBYTES(reinterpret_cast<PyArrayObject *>(result.ptr()));
  const KernelKey &key = plan.choice.key;
  auto *resultArray = reinterpret_cast<PyArrayObject *>(result.ptr());
  Descriptor d = plan.dataDescriptor(), i = plan.indicesDescriptor(),
             o = plan.resultDescriptor();
  bool openMP = key.flags & KernelKey::Parallel;
  // The kernels report on the calling thread only (a threaded check scan
  // flags slabs on the threads and reports after them).
  KernelErrorRecord reported;
  ArrayRef<KernelKey> candidates = plan.choice.candidates;
  std::optional<size_t> next = nextCandidateToObtain(candidates);
  KernelTuner &tuner = KernelTuner::get();
  if (!candidates.empty() && !next && tuner.claim(*plan.choice.tuning)) {
    // Every candidate is compiled: they run on these operands and the
    // fastest is kept (KernelTuner.h); each writes the result.
    SmallVector<KernelFn, kMaxCandidates> kernels;
    for (const KernelKey &candidate : candidates)
      kernels.push_back(KernelCache::get().find(candidate));
    Measurement measured;
    {
      py::gil_scoped_release release;
      measured = measureKernels(kernels, openMP, d.words, i.words, o.words);
    }
    reported = measured.error;
    // Records the choice, or only ends the claim when nothing was measured.
    tuner.record(*plan.choice.tuning, candidates, measured);
  } else {
    // The cost model's kernel runs (also while another thread measures the
    // class); a call of a class that measures compiles one more of its
    // candidates first.
    if (next && *next > 0)
      lookupKernel(candidates[*next]);
    KernelFn kernel = lookupKernel(key);
    std::optional<py::gil_scoped_release> release;
    if (resultBytes + PyArray_NBYTES(indices) >= kReleaseGilBytes)
      release.emplace(); // Shorter calls keep it: less than a hand-off.
    KernelCall call(/*threaded=*/false, openMP);
    kernel(d.words, i.words, o.words);
    reported = call.take();
  }
  if (plan.collapsed() && reported.kind == KernelErrorRecord::Index &&
      reported.dim >= 0 && size_t(reported.dim) < plan.dataDims.size())
    reported.dim = plan.dataDims[reported.dim];
  raiseKernelError(reported);
  if (out && out != Py_None && result.ptr() != out) {
    if (PyArray_CopyInto(reinterpret_cast<PyArrayObject *>(out), resultArray) <
        0)
      throw py::error_already_set();
    return py::reinterpret_borrow<py::object>(out);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// The per-call fast path
//===----------------------------------------------------------------------===//
//
// gather_mlir.gather & co. first call try_gather & co. with their arguments
// as given. These take the common case, numpy arrays that the kernels read
// as they are, with one C call and no conversion; anything else (torch
// tensors, array-likes, byte-swapped indices, odd strides,
// attributes that are not plain ints, an unknown mode) returns None, and the
// package's general path takes over, with its conversions and messages.

/// The modes' names, interned: the package's default `"check"`, like any
/// identifier-like literal, is the same object.
PyObject *internedModes[8];

std::optional<GatherMode> fastMode(PyObject *name) {
  uint32_t count = getMaxEnumValForGatherMode() + 1;
  for (uint32_t m = 0; m < count; ++m)
    if (name == internedModes[m])
      return static_cast<GatherMode>(m);
  if (!PyUnicode_CheckExact(name))
    return std::nullopt;
  for (uint32_t m = 0; m < count; ++m)
    if (PyUnicode_Compare(name, internedModes[m]) == 0)
      return static_cast<GatherMode>(m);
  return std::nullopt;
}

/// A Python int (not a subclass such as bool) that fits int64.
bool fastInt64(PyObject *value, int64_t &result) {
  if (!PyLong_CheckExact(value))
    return false;
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  result = v;
  return !overflow;
}

/// What checkOperands accepts of data, without building a dtype object.
bool isKernelData(PyArrayObject *a) {
  switch (PyArray_TYPE(a)) {
  case NPY_BOOL:
  case NPY_BYTE:
  case NPY_UBYTE:
  case NPY_SHORT:
  case NPY_USHORT:
  case NPY_INT:
  case NPY_UINT:
  case NPY_LONG:
  case NPY_ULONG:
  case NPY_LONGLONG:
  case NPY_ULONGLONG:
  case NPY_HALF:
  case NPY_FLOAT:
  case NPY_DOUBLE:
  case NPY_CFLOAT:
  case NPY_CDOUBLE:
    return true;
  default:
    return false;
  }
}

bool hasWholeElementStrides(PyArrayObject *a) {
  npy_intp itemsize = PyArray_ITEMSIZE(a);
  for (int i = 0; i < PyArray_NDIM(a); ++i)
    if (PyArray_STRIDE(a, i) % itemsize)
      return false;
  return true;
}

/// try_gather & co.: (data, indices, axis, batch_dims, mode, out), all
/// positional.
template <OpKind kind>
PyObject *tryGather(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
  if (nargs != 6) {
    PyErr_Format(PyExc_TypeError, "try_%s() takes 6 arguments (%zd given)",
                 opName(kind), nargs);
    return nullptr;
  }
  PyObject *data = args[0], *indices = args[1], *out = args[5];
  int64_t axis, batchDims;
  std::optional<GatherMode> mode;
  if (!PyArray_CheckExact(data) || !PyArray_CheckExact(indices) ||
      (out != Py_None && !PyArray_CheckExact(out)) ||
      !fastInt64(args[2], axis) || !fastInt64(args[3], batchDims) ||
      !(mode = fastMode(args[4])))
    Py_RETURN_NONE;
  auto *d = reinterpret_cast<PyArrayObject *>(data);
  auto *i = reinterpret_cast<PyArrayObject *>(indices);
  PyArray_Descr *index = PyArray_DESCR(i);
  if (!isKernelData(d) || (index->kind != 'i' && index->kind != 'u') ||
      !PyArray_ISNBO(index->byteorder) || !hasWholeElementStrides(d) ||
      !hasWholeElementStrides(i))
    Py_RETURN_NONE;
  try {
    return runGather(kind, d, i, axis, batchDims, *mode, out).release().ptr();
  } catch (py::error_already_set &e) {
    e.restore();
  } catch (const py::builtin_exception &e) {
    e.set_error();
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

#define GATHER_TRY_DOC(op)                                                     \
  "try_" op "(data, indices, axis, batch_dims, mode, out)\n--\n\n"             \
  "gather_mlir." op "'s fast path: the result (or `out`) for numpy arrays "    \
  "the kernels read as they are, plain int attributes and a valid mode; "      \
  "None for anything else, which the package's general path takes."

PyMethodDef tryGatherMethods[] = {
    {"try_gather",
     reinterpret_cast<PyCFunction>(
         reinterpret_cast<void (*)()>(&tryGather<OpKind::Gather>)),
     METH_FASTCALL, GATHER_TRY_DOC("gather")},
    {"try_gather_elements",
     reinterpret_cast<PyCFunction>(
         reinterpret_cast<void (*)()>(&tryGather<OpKind::Elements>)),
     METH_FASTCALL, GATHER_TRY_DOC("gather_elements")},
    {"try_gather_nd",
     reinterpret_cast<PyCFunction>(
         reinterpret_cast<void (*)()>(&tryGather<OpKind::ND>)),
     METH_FASTCALL, GATHER_TRY_DOC("gather_nd")},
};

} // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "Native core of gather_mlir (see the gather_mlir package).";
  if (_import_array() < 0)
    throw py::error_already_set();

  auto bindOp = [&](const char *name, OpKind kind, const char *doc) {
    m.def(
        name,
        [kind](py::array data, py::array indices, int64_t axis,
               int64_t batchDims, py::object mode,
               std::optional<py::object> out) {
          GatherMode gatherMode = modeOf(mode, opName(kind));
          checkOperands(opName(kind), data, indices);
          return runGather(kind, reinterpret_cast<PyArrayObject *>(data.ptr()),
                           reinterpret_cast<PyArrayObject *>(indices.ptr()),
                           axis, batchDims, gatherMode,
                           out ? out->ptr() : nullptr);
        },
        py::arg("data"), py::arg("indices"), py::arg("axis"),
        py::arg("batch_dims"), py::arg("mode"), py::arg("out"), doc);
  };
  bindOp("gather", OpKind::Gather,
         "gather.gather on numpy arrays, attributes given explicitly; "
         "gather_mlir.gather is the documented entry point. Checks dtypes, "
         "layouts, shapes and `out` itself; returns `out` or a new array.");
  bindOp("gather_elements", OpKind::Elements,
         "gather.gather_elements on numpy arrays (`batch_dims` is ignored); "
         "see gather_mlir.gather_elements.");
  bindOp("gather_nd", OpKind::ND,
         "gather.gather_nd on numpy arrays (`axis` is ignored); see "
         "gather_mlir.gather_nd.");

  py::tuple modes(getMaxEnumValForGatherMode() + 1);
  for (uint32_t mode = 0; mode <= getMaxEnumValForGatherMode(); ++mode)
    modes[mode] = stringifyGatherMode(static_cast<GatherMode>(mode)).str();
  m.attr("MODES") = modes;
  // The rule of kernels for short last dims (KernelPolicy.h), which the
  // scatters' kernels, built in Python, follow too.
  m.attr("STATIC_DIM_MAX_LENGTH") = kStaticDimMaxLength;
  m.attr("STATIC_MIN_RESULT_BYTES") = kStaticRowMinResultBytes;
  // The call of a class by which its measured choices are made
  // (KernelTuner.h): benchmarks warm up for as many.
  m.attr("MEASURED_BY_CALL") = kMaxCandidates + 1;

  static_assert(std::size(internedModes) > getMaxEnumValForGatherMode(),
                "a mode has no interned name");
  for (uint32_t mode = 0; mode <= getMaxEnumValForGatherMode(); ++mode)
    internedModes[mode] = PyUnicode_InternFromString(
        stringifyGatherMode(static_cast<GatherMode>(mode)).str().c_str());
  py::object moduleName = m.attr("__name__");
  for (PyMethodDef &method : tryGatherMethods) {
    PyObject *fn = PyCFunction_NewEx(&method, nullptr, moduleName.ptr());
    if (!fn)
      throw py::error_already_set();
    m.add_object(method.ml_name, py::reinterpret_steal<py::object>(fn));
  }

  m.def(
      "compile_count", [] { return KernelCache::get().compiled.load(); },
      "Number of kernels compiled so far: the misses of both the memory "
      "and the disk cache.");
  m.def(
      "host_gather_loads",
      [](std::optional<int64_t> axisBytes, std::optional<int64_t> rowBytes,
         std::optional<int64_t> elementBytes) {
        return stringifyGatherLoads(
                   getHostGatherLoads(elementBytes, axisBytes, rowBytes))
            .str();
      },
      py::arg("axis_bytes") = py::none(), py::arg("row_bytes") = py::none(),
      py::arg("element_bytes") = py::none(),
      "How this host's kernels read rows of `row_bytes` bytes gathered "
      "along the last axis from a data axis of `axis_bytes` bytes, of "
      "elements of `element_bytes` bytes (None: unknown): 'element', "
      "'scalar' or 'vector' (getHostGatherLoads, gather-loads' values).");
  m.def(
      "host_cpu", [] { return HostTarget::get().cpu; },
      "The CPU the kernels are compiled for, as LLVM names this host "
      "(HostTarget::cpu: such as znver5 or sapphirerapids).");
  m.def(
      "host_vector_bits", [] { return HostTarget::get().vectorBits(); },
      "The vector width of this host's kernels (HostTarget::vectorBits: "
      "what LLVM's vectorizers prefer here).");
  m.def(
      "kernel_choice",
      [](const std::string &op, py::array data, py::array indices, int64_t axis,
         int64_t batchDims, py::object mode, std::optional<py::object> out) {
        std::optional<OpKind> kind;
        for (OpKind k : {OpKind::Gather, OpKind::Elements, OpKind::ND})
          if (op == opName(k))
            kind = k;
        if (!kind)
          throw py::value_error("kernel_choice: op must be gather, "
                                "gather_elements or gather_nd, not " +
                                op);
        GatherMode gatherMode = modeOf(mode, op.c_str());
        checkOperands(op, data, indices);
        PlannedGather plan =
            planGather(*kind, reinterpret_cast<PyArrayObject *>(data.ptr()),
                       reinterpret_cast<PyArrayObject *>(indices.ptr()), axis,
                       batchDims, gatherMode, out ? out->ptr() : nullptr);
        std::string pipeline;
        llvm::raw_string_ostream os(pipeline);
        createGatherToLLVM(getKernelLoweringOptions(plan.choice.key))
            ->printAsTextualPipeline(os);
        // The kernel's module before lowering (KernelKey::build): with
        // `pipeline`, what a gather-opt run reproduces the kernel from.
        std::string module;
        {
          KernelCompiler &compiler = KernelCompiler::get();
          std::lock_guard<std::mutex> lock(compiler.mutex());
          OwningOpRef<ModuleOp> built =
              plan.choice.key.build(compiler.context());
          llvm::raw_string_ostream ms(module);
          if (built)
            built->print(ms);
        }
        py::dict choice;
        choice["key"] = plan.choice.key.describe();
        choice["pipeline"] = pipeline;
        choice["module"] = module;
        choice["buffered"] = plan.choice.bufferResult;
        // The measured choices, and who chose them (KernelTuner.h).
        const KernelKey &key = plan.choice.key;
        // A field's name, or None where it is unset.
        auto field = [](KernelVariant variant) -> py::object {
          if (variant == KernelVariant())
            return py::none();
          return py::str(variant.describe());
        };
        choice["loads"] = field({key.loads, 0});
        choice["column_blocks"] = field({0, key.columnBlocks});
        py::dict seconds;
        if (plan.choice.record) {
          choice["chosen_by"] = "measurement";
          for (const auto &[variant, time] : plan.choice.record->seconds)
            seconds[py::str(variant.describe())] = time;
        } else {
          choice["chosen_by"] = plan.choice.candidates.empty()
                                    ? "cost model"
                                    : "cost model, until a call measures";
        }
        py::list candidates;
        for (const KernelKey &candidate : plan.choice.candidates)
          candidates.append(KernelVariant::of(candidate).describe());
        choice["candidates"] = candidates;
        choice["seconds"] = seconds;
        return choice;
      },
      py::arg("op"), py::arg("data"), py::arg("indices"), py::arg("axis"),
      py::arg("batch_dims"), py::arg("mode"), py::arg("out"),
      "The kernel a call gets on this host, without running it; see "
      "gather_mlir.kernel_choice.");
  m.def(
      "signed_view",
      [](py::array a) {
        return signedViewIfFits(reinterpret_cast<PyArrayObject *>(a.ptr()));
      },
      py::arg("a"),
      "An array of unsigned integers viewed as the signed ones of its width "
      "when every value fits them; else None.");
  m.def("host_parallel_min_bytes", &getHostParallelMinBytes,
        "The result size from which this host's kernels run on threads "
        "(getHostParallelMinBytes: 512 KiB a thread OpenMP starts).");
  m.def(
      "kernel_cache_stats",
      [] {
        KernelCache &cache = KernelCache::get();
        py::dict stats;
        stats["compiled"] = cache.compiled.load();
        stats["loaded"] = cache.loaded.load();
        stats["stored"] = cache.stored.load();
        stats["rejected"] = cache.rejected.load();
        stats["measured"] = KernelTuner::get().measured.load();
        stats["choices_loaded"] = KernelTuner::get().loaded.load();
        std::optional<std::string> dir = getKernelStoreDir();
        stats["directory"] = dir ? py::object(py::str(*dir)) : py::none();
        stats["mlir_context"] = Compiler::created();
        return stats;
      },
      "Counts of the kernel cache since the process started: kernels "
      "'compiled', 'loaded' from disk, 'stored' on disk, and disk entries "
      "'rejected' (corrupt, truncated or foreign; rebuilt); classes of "
      "calls that 'measured' their kernel choices, and measured choices "
      "read from disk ('choices_loaded'); the "
      "'directory' kernels are kept in now (None when that is off); and "
      "whether the process has made its MLIR context ('mlir_context').");
  m.def(
      "result_array",
      [](const std::string &function, const std::vector<int64_t> &shape,
         py::dtype dtype, py::object out,
         const std::vector<py::array> &operands) {
        SmallVector<PyArrayObject *> arrays;
        for (const py::array &a : operands)
          arrays.push_back(reinterpret_cast<PyArrayObject *>(a.ptr()));
        return resultArray(function,
                           reinterpret_cast<PyArray_Descr *>(dtype.ptr()),
                           shape, out.ptr(), arrays);
      },
      py::arg("function"), py::arg("shape"), py::arg("dtype"), py::arg("out"),
      py::arg("operands"),
      "The array `function`'s kernel writes its result (`shape`, `dtype`) "
      "into: `out` (None or a numpy array) itself, or a new array (large "
      "ones from the reused result memory) when there is none or it "
      "overlaps `operands`. TypeError or "
      "ValueError naming `function` when `out` is not an array or has the "
      "wrong dtype or shape, is not C-contiguous or is read-only.");
  m.def(
      "result_memory_stats",
      [] {
        ResultMemoryStats stats = getResultMemoryStats();
        py::dict result;
        result["min_bytes"] = kResultMemoryMinBytes;
        result["mapped"] = stats.mapped;
        result["reused"] = stats.reused;
        return result;
      },
      "Results of at least 'min_bytes' get memory that is reused: how many "
      "blocks were 'mapped' and how many results 'reused' a freed one.");

  m.def(
      "result_shape",
      [](const std::string &op, std::vector<int64_t> data,
         std::vector<int64_t> indices, int64_t axis, int64_t batchDims,
         py::handle mode) {
        GatherMode m = modeOf(mode);
        ShapeRuleError emitError;
        ShapeView d(data), i(indices);
        FailureOr<GatherShape> shape =
            inferShapeOf(opKindNamed(op), d, i, axis, batchDims, m, emitError);
        if (failed(shape))
          emitError.raise(op);
        SmallVector<int64_t> result = shape->getStaticShape(d, i);
        return std::vector<int64_t>(result.begin(), result.end());
      },
      py::arg("op"), py::arg("data"), py::arg("indices"), py::arg("axis"),
      py::arg("batch_dims"), py::arg("mode"),
      "The result shape of gather `op` (gather, gather_elements, gather_nd) "
      "for operand shapes `data` and `indices`, by the dialect's shape "
      "rules (GatherShapes.h); ValueError naming `op` with the rule's "
      "message when they reject them. The scatters' updates have this "
      "shape.");

  m.def(
      "merged_shapes",
      [](const std::string &op, std::vector<int64_t> data,
         std::vector<int64_t> indices, int64_t axis,
         int64_t batchDims) -> py::object {
        ShapeRuleError emitError;
        ShapeView d(data), i(indices);
        FailureOr<GatherShape> shape =
            inferShapeOf(opKindNamed(op), d, i, axis, batchDims,
                         GatherMode::fill, emitError);
        if (failed(shape))
          emitError.raise(op);
        GatherShape::CollapsedDims groups = shape->collapseDims(d, i);
        if (!groups.mergesAny())
          return py::none();
        auto tuple = [](ArrayRef<int64_t> sizes) {
          py::tuple t(sizes.size());
          for (auto [k, v] : llvm::enumerate(sizes))
            t[k] = v;
          return t;
        };
        return py::make_tuple(
            tuple(groups.dataShape), tuple(groups.indicesShape),
            tuple(groups.resultShape), groups.axis, groups.batchDims);
      },
      py::arg("op"), py::arg("data"), py::arg("indices"), py::arg("axis"),
      py::arg("batch_dims"),
      "The shapes (data, indices, result, axis, batch_dims) that gather "
      "`op` reads its operands of these shapes as, with adjacent dims read "
      "alike merged (GatherShape::collapseDims): what the package's "
      "kernels see of C-contiguous operands. None when no dims merge.");

  bindCompilerApi(m);
  bindEmbeddingBags(m);
}
