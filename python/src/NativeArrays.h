//===- NativeArrays.h - numpy arrays as the kernels see them ----*- C++ -*-===//
//
// What the _native extension's functions share about numpy arrays: numpy's C
// API (one table for the module's translation units), memref descriptors of
// arrays, new result arrays and the out= rules; and the one rule of an
// argument every function takes, the mode's name.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PYTHON_NATIVEARRAYS_H
#define GATHER_PYTHON_NATIVEARRAYS_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"

#include <pybind11/pybind11.h>

// numpy's C API: GatherModule.cpp imports it (import_array) for every
// translation unit of the module.
#define PY_ARRAY_UNIQUE_SYMBOL gather_mlir_numpy_api
#ifndef GATHER_PYTHON_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <cstdint>
#include <string>
#include <tuple>

namespace mlir::gather {
enum class GatherMode : uint32_t;
} // namespace mlir::gather

namespace mlir::gather::python {

namespace py = pybind11;

/// The mode named `name` (a str); ValueError naming the modes otherwise,
/// and `function` and its `argument` when given (`gather: mode must be one
/// of ...`). Every function of the package that takes a mode parses it here.
GatherMode modeOf(py::handle name, const char *function = nullptr,
                  const char *argument = "mode");

/// Ranks numpy allows (32 before numpy 2, 64 since).
constexpr int kMaxRank = 64;
static_assert(NPY_MAXDIMS <= kMaxRank, "descriptors are too small");
static_assert(sizeof(npy_intp) == sizeof(int64_t), "shapes are not int64");

/// The StridedMemRefType layout of an array, for any rank: allocated and
/// aligned pointers, offset, sizes, strides (in elements).
struct Descriptor {
  int64_t words[3 + 2 * kMaxRank];

  explicit Descriptor(PyArrayObject *a) {
    int rank = PyArray_NDIM(a);
    int64_t itemsize = PyArray_ITEMSIZE(a);
    words[0] = words[1] = reinterpret_cast<int64_t>(PyArray_DATA(a));
    words[2] = 0;
    for (int i = 0; i < rank; ++i) {
      words[3 + i] = PyArray_DIM(a, i);
      words[3 + rank + i] = PyArray_STRIDE(a, i) / itemsize;
    }
  }
  /// The C-contiguous `a` as an array of `shape` (of as many elements).
  Descriptor(PyArrayObject *a, ArrayRef<int64_t> shape) {
    int rank = shape.size();
    words[0] = words[1] = reinterpret_cast<int64_t>(PyArray_DATA(a));
    words[2] = 0;
    int64_t stride = 1;
    for (int i = rank - 1; i >= 0; --i) {
      words[3 + i] = shape[i];
      words[3 + rank + i] = stride;
      stride *= shape[i];
    }
  }
};

/// Calls moving less than this keep the GIL: the kernel takes less time
/// than releasing and reacquiring it.
constexpr int64_t kReleaseGilBytes = 16 << 10;

/// The shape of `a`.
inline ArrayRef<int64_t> shapeOf(PyArrayObject *a) {
  return {reinterpret_cast<const int64_t *>(PyArray_DIMS(a)),
          static_cast<size_t>(PyArray_NDIM(a))};
}

/// `str(obj)`, for messages.
std::string strOf(PyObject *obj);

/// Whether `a` and `b` may share memory: their byte bounds intersect (what
/// np.may_share_memory tells, without its Python call).
bool mayOverlap(PyArrayObject *a, PyArrayObject *b);

/// An element type as kernels see it: numpy's kind ('i', 'u', 'f', ...)
/// and bytes. Kernel keys hold it: unlike a dtype, it is read without the
/// GIL, by the modules built without it.
struct ElementKind {
  char kind;
  int bytes;

  bool operator<(const ElementKind &other) const {
    return std::tie(kind, bytes) < std::tie(other.kind, other.bytes);
  }
  /// As numpy's type strings write it: f4, i8, u1.
  std::string text() const { return kind + std::to_string(bytes); }
};

/// torch.bfloat16, which numpy lacks: its tensors reach the native code
/// viewed as int16, and a caller that knows says so.
inline constexpr ElementKind kBFloat16{'B', 2};

/// The kind and bytes of `dtype`'s elements.
ElementKind elementKindOf(PyArray_Descr *dtype);

/// The MLIR element type of `element`: a signless integer of its width for
/// integers (the kernels read the values as they are), f16/f32/f64, bf16
/// for kBFloat16; null for any other. The one numpy-to-MLIR type mapping
/// of the package.
Type elementTypeOf(MLIRContext &ctx, ElementKind element);

/// `a`, of unsigned integers, viewed as the signed integers of its width
/// when every value fits them (no value has its top bit set: one pass over
/// them), so that a kernel reads it in place; None when one does not fit or
/// `a` is not C-contiguous and aligned (the caller converts it then).
py::object signedViewIfFits(PyArrayObject *a);

/// A new C-ordered array of `shape` and `dtype`; large ones get their
/// memory from ResultMemory's handler (see ResultMemory.h).
py::object newArray(PyArray_Descr *dtype, ArrayRef<int64_t> shape);

/// A shape as numpy prints it: (2, 3), (4,), ().
std::string shapeText(ArrayRef<int64_t> shape);

/// The array a kernel writes a result of `dtype` and `resultShape` into:
/// `out` if it can take it in place (TypeError or ValueError, naming `op`,
/// if it cannot take it at all), a new array if there is no `out` or it
/// overlaps one of `operands` (then the caller copies the result into
/// `out`). The one home of the out= rules: every function that takes `out`
/// comes here.
py::object resultArray(const std::string &op, PyArray_Descr *dtype,
                       ArrayRef<int64_t> resultShape, PyObject *out,
                       ArrayRef<PyArrayObject *> operands);

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_NATIVEARRAYS_H
