//===- NativeArrays.cpp - numpy arrays as the kernels see them ------------===//

#include "NativeArrays.h"

#include "ResultMemory.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cstring>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::gather;

namespace {

/// The addresses [first, last) of the bytes `a`'s elements occupy.
std::pair<uintptr_t, uintptr_t> byteBounds(PyArrayObject *a) {
  auto first = reinterpret_cast<uintptr_t>(PyArray_DATA(a)), last = first;
  if (PyArray_SIZE(a) == 0)
    return {first, first};
  for (int i = 0; i < PyArray_NDIM(a); ++i) {
    npy_intp extent = (PyArray_DIM(a, i) - 1) * PyArray_STRIDE(a, i);
    (extent < 0 ? first : last) += extent;
  }
  return {first, last + PyArray_ITEMSIZE(a)};
}

} // namespace

GatherMode python::modeOf(py::handle name, const char *function,
                          const char *argument) {
  if (PyUnicode_Check(name.ptr())) {
    Py_ssize_t size;
    if (const char *text = PyUnicode_AsUTF8AndSize(name.ptr(), &size)) {
      if (std::optional<GatherMode> mode =
              symbolizeGatherMode(StringRef(text, size)))
        return *mode;
    } else {
      PyErr_Clear(); // Not UTF-8 (a lone surrogate): no mode's name.
    }
  }
  std::string names;
  for (uint32_t m = 0; m <= getMaxEnumValForGatherMode(); ++m)
    names +=
        (m ? ", " : "") + stringifyGatherMode(static_cast<GatherMode>(m)).str();
  throw py::value_error((function ? std::string(function) + ": " : "") +
                        argument + " must be one of " + names + ", not " +
                        std::string(py::repr(name)));
}

python::ElementKind python::elementKindOf(PyArray_Descr *dtype) {
  // numpy 2 moved elsize out of the public struct (PyDataType_ELSIZE).
#if NPY_ABI_VERSION >= 0x02000000
  int bytes = static_cast<int>(PyDataType_ELSIZE(dtype));
#else
  int bytes = dtype->elsize;
#endif
  return {dtype->kind, bytes};
}

Type python::elementTypeOf(MLIRContext &ctx, ElementKind element) {
  int bits = element.bytes * 8;
  if (element.kind == 'i' || element.kind == 'u')
    return IntegerType::get(&ctx, bits);
  if (element.kind == 'f' && bits == 16)
    return Float16Type::get(&ctx);
  if (element.kind == 'f' && bits == 32)
    return Float32Type::get(&ctx);
  if (element.kind == 'f' && bits == 64)
    return Float64Type::get(&ctx);
  if (element.kind == kBFloat16.kind && bits == 16)
    return BFloat16Type::get(&ctx);
  return Type();
}

std::string python::strOf(PyObject *obj) {
  return std::string(py::str(py::handle(obj)));
}

bool python::mayOverlap(PyArrayObject *a, PyArrayObject *b) {
  auto [a0, a1] = byteBounds(a);
  auto [b0, b1] = byteBounds(b);
  return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
}

/// Whether no value of `values` has its top bit set.
template <typename T>
static bool topBitsClear(const void *values, int64_t count) {
  const T *v = static_cast<const T *>(values);
  T any = 0;
  for (int64_t i = 0; i < count; ++i)
    any |= v[i];
  return !(any >> (8 * sizeof(T) - 1));
}

py::object python::signedViewIfFits(PyArrayObject *a) {
  if (PyArray_DESCR(a)->kind != 'u' || !PyArray_IS_C_CONTIGUOUS(a) ||
      !PyArray_ISALIGNED(a) || !PyArray_ISNOTSWAPPED(a))
    return py::none();
  // The signed type of the width, and the test of its values.
  std::pair<int, bool (*)(const void *, int64_t)> width;
  switch (PyArray_ITEMSIZE(a)) {
  case 1:
    width = {NPY_INT8, topBitsClear<uint8_t>};
    break;
  case 2:
    width = {NPY_INT16, topBitsClear<uint16_t>};
    break;
  case 4:
    width = {NPY_INT32, topBitsClear<uint32_t>};
    break;
  case 8:
    width = {NPY_INT64, topBitsClear<uint64_t>};
    break;
  default:
    return py::none();
  }
  auto [type, fits] = width;
  if (!fits(PyArray_DATA(a), PyArray_SIZE(a)))
    return py::none();
  PyObject *view = PyArray_View(a, PyArray_DescrFromType(type), nullptr);
  if (!view)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(view);
}

py::object python::newArray(PyArray_Descr *dtype, ArrayRef<int64_t> shape) {
  int64_t bytes = elementKindOf(dtype).bytes;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(bytes, d, &bytes))
      bytes = INT64_MAX; // numpy reports the size error.
  auto create = [&] {
    Py_INCREF(dtype); // PyArray_NewFromDescr steals it.
    return PyArray_NewFromDescr(
        &PyArray_Type, dtype, static_cast<int>(shape.size()),
        const_cast<npy_intp *>(
            reinterpret_cast<const npy_intp *>(shape.data())),
        nullptr, nullptr, 0, nullptr);
  };
  PyObject *array = nullptr;
  if (bytes < kResultMemoryMinBytes) {
    array = create();
  } else {
    // The handler is numpy's per-context setting: set it for this one
    // allocation and put the caller's back.
    static PyObject *handler =
        PyCapsule_New(getResultMemoryHandler(), "mem_handler", nullptr);
    if (!handler)
      throw py::error_already_set();
    PyObject *previous = PyDataMem_SetHandler(handler);
    if (!previous)
      throw py::error_already_set();
    array = create();
    PyObject *errorType, *errorValue, *errorTrace;
    PyErr_Fetch(&errorType, &errorValue, &errorTrace);
    PyObject *ours = PyDataMem_SetHandler(previous);
    Py_DECREF(previous);
    Py_XDECREF(ours);
    PyErr_Restore(errorType, errorValue, errorTrace);
  }
  if (!array)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(array);
}

std::string python::shapeText(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(d);
  return text + (shape.size() == 1 ? ",)" : ")");
}

py::object python::resultArray(const std::string &op, PyArray_Descr *dtype,
                               ArrayRef<int64_t> resultShape, PyObject *out,
                               ArrayRef<PyArrayObject *> operands) {
  if (!out || out == Py_None)
    return newArray(dtype, resultShape);
  if (!PyArray_Check(out))
    throw py::type_error(
        op + ": out must be a numpy array or a torch tensor, not " +
        std::string(
            py::str(py::handle(reinterpret_cast<PyObject *>(Py_TYPE(out)))
                        .attr("__name__"))));
  auto *array = reinterpret_cast<PyArrayObject *>(out);
  if (!PyArray_EquivTypes(PyArray_DESCR(array), dtype))
    throw py::type_error(
        op + ": out has dtype " +
        strOf(reinterpret_cast<PyObject *>(PyArray_DESCR(array))) +
        ", the result has " + strOf(reinterpret_cast<PyObject *>(dtype)));
  ArrayRef<int64_t> shape(
      reinterpret_cast<const int64_t *>(PyArray_DIMS(array)),
      PyArray_NDIM(array));
  if (shape != resultShape)
    throw py::value_error(op + ": out has shape " + shapeText(shape) +
                          ", the result has " + shapeText(resultShape));
  if (!PyArray_IS_C_CONTIGUOUS(array))
    throw py::value_error(op + ": out must be C-contiguous");
  if (!PyArray_ISWRITEABLE(array))
    throw py::value_error(op + ": out is read-only");
  for (PyArrayObject *operand : operands)
    if (mayOverlap(array, operand))
      return newArray(dtype, resultShape);
  return py::reinterpret_borrow<py::object>(out);
}
