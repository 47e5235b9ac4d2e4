//===- EmbeddingBags.cpp - gather_mlir's embedding bags, natively ------===//
//
// gather_mlir.embedding_bag and embedding_bag_rowwise_quantized once their
// torch tensors are viewed as arrays (the package does that): every rule on
// the arguments, with messages naming the Python function; the kernel of the
// operands' dtypes, the table's width and the attributes (one
// gather.embedding_bag module each, built as embedding_bag_module builds
// it, from the kernel cache: on disk, or lowered and compiled as a
// gather's kernel); and
// the call, which reports bad ids (IndexError) and offsets (ValueError)
// through the run-time hooks. gather_block_quantized likewise: a bag of
// one id from a block-quantized table. In C++ rather than Python, where the
// arguments' rules cost more than a short kernel
// (docs/decisions/python-package.md).
//
//===----------------------------------------------------------------------===//

#include "EmbeddingBags.h"

#include "Compiler.h"
#include "CompilerApi.h"
#include "NativeArrays.h"

#include "gather/Dialect/Gather/IR/GatherIndexing.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Runtime/KernelPolicy.h"

#include <pybind11/stl.h>

#include <map>
#include <mutex>
#include <tuple>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::python;

namespace {

/// The reductions, as torch names them (the dialect's BagReduction).
constexpr StringLiteral kReductions[] = {"sum", "mean", "max"};

/// np.asarray(value).
py::object asArray(py::handle value) {
  PyObject *a = PyArray_FromAny(value.ptr(), nullptr, 0, 0, 0, nullptr);
  if (!a)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(a);
}

PyArrayObject *arrayOf(const py::object &a) {
  return reinterpret_cast<PyArrayObject *>(a.ptr());
}

/// np.ascontiguousarray(a, dtype=`type`) (native byte order; like it, a
/// 0-d array becomes 1-d).
py::object contiguous(const py::object &a, int type) {
  PyObject *c = PyArray_FromArray(arrayOf(a), PyArray_DescrFromType(type),
                                  NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  if (!c)
    throw py::error_already_set();
  py::object result = py::reinterpret_steal<py::object>(c);
  if (PyArray_NDIM(arrayOf(result)) == 0) {
    npy_intp one = 1;
    PyArray_Dims shape{&one, 1};
    PyObject *r = PyArray_Newshape(arrayOf(result), &shape, NPY_CORDER);
    if (!r)
      throw py::error_already_set();
    result = py::reinterpret_steal<py::object>(r);
  }
  return result;
}

/// A C-contiguous copy of uint8 bytes `a` (or `a` itself) viewed as int8:
/// the packed tables the kernels read unsigned.
py::object packedBytes(const py::object &a) {
  py::object bytes = contiguous(a, NPY_UBYTE);
  PyObject *view =
      PyArray_View(arrayOf(bytes), PyArray_DescrFromType(NPY_BYTE), nullptr);
  if (!view)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(view);
}

std::string dtypeText(PyArrayObject *a) {
  return strOf(reinterpret_cast<PyObject *>(PyArray_DESCR(a)));
}

bool isInteger(PyArrayObject *a) {
  char kind = PyArray_DESCR(a)->kind;
  return kind == 'i' || kind == 'u';
}

/// An integer argument given as a Python int (not a bool), or none.
std::optional<int64_t> plainInt(py::handle value) {
  if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    return std::nullopt;
  int overflow;
  py::object index =
      py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!index)
    throw py::error_already_set();
  long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow)
    return std::nullopt;
  return v;
}

/// Element `flat` (in C order) of `a`, argument `name`, as Python indexes
/// it: `input[1]`, `input[1, 2]`.
std::string elementText(const std::string &name, PyArrayObject *a,
                        int64_t flat) {
  std::string index;
  for (int d = PyArray_NDIM(a) - 1; d >= 0; --d) {
    int64_t dim = std::max<int64_t>(1, PyArray_DIM(a, d));
    index = std::to_string(flat % dim) + (index.empty() ? "" : ", ") + index;
    flat /= dim;
  }
  return name + "[" + index + "]";
}

/// Where `ids` (argument `name`; C-contiguous signed integers, as signedIds
/// makes them) first holds `value`, as elementText writes it; empty if
/// nowhere. A kernel reports the value of a bad id, not its position.
std::string firstPositionOf(const std::string &name, PyArrayObject *ids,
                            int64_t value) {
  const void *data = PyArray_DATA(ids);
  int64_t count = PyArray_SIZE(ids);
  auto find = [&](auto *values) {
    for (int64_t i = 0; i < count; ++i)
      if (static_cast<int64_t>(values[i]) == value)
        return i;
    return int64_t(-1);
  };
  int64_t at;
  switch (PyArray_ITEMSIZE(ids)) {
  case 1:
    at = find(static_cast<const int8_t *>(data));
    break;
  case 2:
    at = find(static_cast<const int16_t *>(data));
    break;
  case 4:
    at = find(static_cast<const int32_t *>(data));
    break;
  default:
    at = find(static_cast<const int64_t *>(data));
    break;
  }
  return at < 0 ? std::string() : elementText(name, ids, at);
}

/// The kernels' message for index `index` (its digits) of `op` outside
/// the `num` rows of a table.
std::string indexErrorText(const std::string &op, const std::string &index,
                           int64_t num) {
  if (num == 0)
    return op + ": index " + index +
           " selects along data dimension 0, which is empty (size 0)";
  return op + ": index " + index + " is out of range [" + std::to_string(-num) +
         ", " + std::to_string(num - 1) + "] for data dimension 0 of size " +
         std::to_string(num);
}

/// The ids of `input` (argument `name` of `function`, read along data
/// dimension 0 of a table of `num` rows by `op`) as signed ones of any
/// width, C-contiguous, at least 1-d: unsigned ones are viewed as signed
/// ones where they fit (signedViewIfFits), else widen, and uint64
/// values above INT64_MAX, which no table reaches, become what `mode` makes
/// of them (an IndexError where the kernel's error would name one; wrap:
/// the true modulo; the others: a value past the end, which fill reads as
/// zeros and clamp as the last row). Only the first `readIds` ids (none:
/// all) are read by the kernel, so only they can be named. The caller's
/// array is never written.
py::object signedIds(const std::string &function, const std::string &name,
                     const std::string &op, py::handle input, int64_t num,
                     GatherMode mode,
                     std::optional<int64_t> readIds = std::nullopt) {
  py::object ids = asArray(input);
  PyArrayObject *a = arrayOf(ids);
  if (!isInteger(a))
    throw py::type_error(function + ": " + name +
                         " must have an integer dtype, not " + dtypeText(a));
  if (PyArray_DESCR(a)->kind == 'i')
    return contiguous(ids, PyArray_TYPE(a));
  py::object fits = signedViewIfFits(a);
  if (!fits.is_none())
    return contiguous(fits, PyArray_TYPE(arrayOf(fits)));
  if (PyArray_ITEMSIZE(a) < 8)
    return contiguous(ids, NPY_INT64);
  py::object values = contiguous(ids, NPY_UINT64); // May be `input`.
  auto isBig = [](uint64_t v) { return v > static_cast<uint64_t>(INT64_MAX); };
  auto *in = static_cast<const uint64_t *>(PyArray_DATA(arrayOf(values)));
  int64_t count = PyArray_SIZE(arrayOf(values));
  const uint64_t *big = std::find_if(in, in + count, isBig);
  if (big != in + count) {
    // The id the kernel's error would name, the first out of range (check;
    // clamp and wrap on an empty table: the first), is named here when it
    // is one of those the kernel will not see.
    const uint64_t *read =
        in + std::clamp<int64_t>(readIds.value_or(count), 0, count);
    const uint64_t *bad = read;
    if (mode == GatherMode::check)
      bad = std::find_if(in, read, [&](uint64_t v) {
        return v >= static_cast<uint64_t>(num);
      });
    else if (num == 0 &&
             (mode == GatherMode::clamp || mode == GatherMode::wrap))
      bad = in;
    if (bad != read && isBig(*bad))
      throw py::index_error(indexErrorText(op, std::to_string(*bad), num) +
                            ", at " +
                            elementText(name, arrayOf(values), bad - in));
    PyObject *copy = PyArray_NewCopy(arrayOf(values), NPY_CORDER);
    if (!copy)
      throw py::error_already_set();
    values = py::reinterpret_steal<py::object>(copy);
    auto *v = static_cast<uint64_t *>(PyArray_DATA(arrayOf(values)));
    for (int64_t i = 0; i < count; ++i)
      if (isBig(v[i]))
        v[i] = mode == GatherMode::wrap && num > 0
                   ? v[i] % static_cast<uint64_t>(num)
                   : static_cast<uint64_t>(INT64_MAX);
  }
  // Read as int64: the values are below 2^63 now.
  PyObject *view =
      PyArray_View(arrayOf(values), PyArray_DescrFromType(NPY_INT64), nullptr);
  if (!view)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(view);
}

/// The key of a bag kernel: the table's element kind, its width (none:
/// dynamic), the ids' bytes (signed ids: int64 is one key whichever of
/// numpy's two names it has), offsets, weights, reduction, padding_idx,
/// include_last_offset, mode, threads, row-wise bits.
struct BagKey {
  ElementKind table;
  std::optional<int64_t> width;
  int idBytes;
  bool offsets, weights;
  std::string reduction;
  std::optional<int64_t> paddingIdx;
  bool includeLastOffset;
  GatherMode mode;
  bool parallel;
  std::optional<int64_t> rowwiseBits;

  auto fields() const {
    return std::tie(table, width, idBytes, offsets, weights, reduction,
                    paddingIdx, includeLastOffset, mode, parallel, rowwiseBits);
  }
  bool operator<(const BagKey &other) const {
    return fields() < other.fields();
  }
};

/// The kernel of `key` from `kernels`, or on its first call in the process
/// from the kernel cache (on disk, or compiled: `description` and `build`,
/// as KernelCache::load takes them).
template <typename Key>
KernelCache::Entry
cachedKernel(const Key &key, bool parallel,
             llvm::function_ref<std::string()> description,
             llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build) {
  // Read and written with the GIL held; `mutex` serializes first calls.
  static std::map<Key, KernelCache::Entry> kernels;
  static std::mutex mutex;
  auto it = kernels.find(key);
  if (it != kernels.end())
    return it->second;
  std::unique_lock<std::mutex> lock(mutex, std::defer_lock);
  {
    // Taken without the GIL: a thread loading a kernel holds both.
    py::gil_scoped_release release;
    lock.lock();
  }
  it = kernels.find(key);
  if (it != kernels.end())
    return it->second;
  KernelCache::Entry entry = loadKernel(description(), parallel, build);
  kernels.emplace(key, entry);
  return entry;
}

std::string optionalText(std::optional<int64_t> value) {
  return value ? std::to_string(*value) : std::string("none");
}

/// The bag kernel of `k`.
KernelCache::Entry bagKernel(const BagKey &k) {
  auto description = [&] {
    return "embedding_bag table " + k.table.text() + " width " +
           optionalText(k.width) + " ids " + std::to_string(k.idBytes) +
           "B offsets " + std::to_string(k.offsets) + " weights " +
           std::to_string(k.weights) + " reduction " + k.reduction +
           " padding_idx " + optionalText(k.paddingIdx) +
           " include_last_offset " + std::to_string(k.includeLastOffset) +
           " mode " + stringifyGatherMode(k.mode).str() + " parallel " +
           std::to_string(k.parallel) + " rowwise_bits " +
           optionalText(k.rowwiseBits);
  };
  return cachedKernel(k, k.parallel, description, [&](MLIRContext &ctx) {
    Type weightType;
    if (k.weights)
      weightType =
          k.rowwiseBits ? Float32Type::get(&ctx) : elementTypeOf(ctx, k.table);
    return buildEmbeddingBagModule(
        ctx, "kernel", elementTypeOf(ctx, k.table), k.width,
        IntegerType::get(&ctx, 8 * k.idBytes), /*idsRank=*/k.offsets ? 1 : 2,
        /*bagLength=*/std::nullopt, k.offsets, weightType,
        /*scales=*/Type(), /*zeroPoints=*/false, k.reduction, k.paddingIdx,
        k.includeLastOffset, stringifyGatherMode(k.mode).str(), k.rowwiseBits,
        /*blockBits=*/std::nullopt, /*blockSize=*/std::nullopt);
  });
}

/// The key of a block-quantized lookup's kernel: the rows' bytes, the ids'
/// bytes, the scales' element kind, bits, block size, zero points, mode,
/// threads.
struct BlockKey {
  int64_t rowBytes;
  int idBytes;
  ElementKind scales;
  int64_t bits, blockSize;
  bool zeroPoints;
  GatherMode mode;
  bool parallel;

  auto fields() const {
    return std::tie(rowBytes, idBytes, scales, bits, blockSize, zeroPoints,
                    mode, parallel);
  }
  bool operator<(const BlockKey &other) const {
    return fields() < other.fields();
  }
};

/// The block-quantized lookup's kernel of `k`: bags of one id ([n, 1]
/// ids) summed from the block-quantized table.
KernelCache::Entry blockKernel(const BlockKey &k) {
  auto description = [&] {
    return "gather_block_quantized row_bytes " + std::to_string(k.rowBytes) +
           " ids " + std::to_string(k.idBytes) + "B scales " + k.scales.text() +
           " bits " + std::to_string(k.bits) + " block " +
           std::to_string(k.blockSize) + " zero_points " +
           std::to_string(k.zeroPoints) + " mode " +
           stringifyGatherMode(k.mode).str() + " parallel " +
           std::to_string(k.parallel);
  };
  return cachedKernel(k, k.parallel, description, [&](MLIRContext &ctx) {
    return buildEmbeddingBagModule(
        ctx, "kernel", IntegerType::get(&ctx, 8), k.rowBytes,
        IntegerType::get(&ctx, 8 * k.idBytes), /*idsRank=*/2, /*bagLength=*/1,
        /*offsets=*/false, /*weights=*/Type(), elementTypeOf(ctx, k.scales),
        k.zeroPoints, "sum", /*paddingIdx=*/std::nullopt,
        /*includeLastOffset=*/false, stringifyGatherMode(k.mode).str(),
        /*rowwiseBits=*/std::nullopt, k.bits, k.blockSize);
  });
}

/// The descriptor of a C-contiguous array (strides from its shape: numpy's
/// may differ along dims of size 1).
Descriptor cDescriptor(PyArrayObject *a) {
  Descriptor d(a);
  int rank = PyArray_NDIM(a);
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    d.words[3 + rank + i] = stride;
    stride *= PyArray_DIM(a, i);
  }
  return d;
}

/// Calls `kernel` on `operands` and `target` (the result, or a view of it
/// the kernel writes), with the GIL released unless the call is short
/// (`result` and `idBytes` of ids under kReleaseGilBytes); raises what it
/// reported (naming `opName` if given, and where argument `idsName`,
/// operands[1], first holds a bad id when given); copies `result` into `out`
/// when they differ (see resultArray) and returns `out`, else returns
/// `result`.
py::object callKernel(const KernelCache::Entry &kernel,
                      ArrayRef<PyArrayObject *> operands, PyArrayObject *target,
                      const py::object &result, py::handle out, int64_t idBytes,
                      const char *opName = nullptr,
                      const char *idsName = nullptr) {
  SmallVector<Descriptor, 5> descriptors;
  for (PyArrayObject *a : operands)
    descriptors.push_back(cDescriptor(a));
  descriptors.push_back(cDescriptor(target));
  SmallVector<void *, 5> p;
  for (Descriptor &d : descriptors)
    p.push_back(d.words);
  KernelErrorRecord reported;
  {
    std::optional<py::gil_scoped_release> release;
    if (kernel.threaded ||
        PyArray_NBYTES(arrayOf(result)) + idBytes >= kReleaseGilBytes)
      release.emplace(); // Shorter calls keep it: less than a hand-off.
    KernelCall call(kernel.threaded, kernel.openMP);
    callWithPointers(kernel.function, p);
    reported = call.take();
  }
  std::string position;
  if (reported.kind == KernelErrorRecord::Index && idsName)
    position = firstPositionOf(idsName, operands[1], reported.a);
  raiseKernelError(reported, opName, position);
  if (!out.is_none() && result.ptr() != out.ptr()) {
    if (PyArray_CopyInto(reinterpret_cast<PyArrayObject *>(out.ptr()),
                         arrayOf(result)) < 0)
      throw py::error_already_set();
    return py::reinterpret_borrow<py::object>(out);
  }
  return result;
}

/// gather_mlir.embedding_bag (`rowwiseBits` none) or
/// embedding_bag_rowwise_quantized on arrays or array-likes: their rules,
/// kernel and call.
py::object embeddingBag(const std::string &function, py::handle input,
                        py::handle weight, py::handle offsets,
                        py::handle reduction, py::handle perSampleWeights,
                        py::handle includeLastOffset, py::handle paddingIdx,
                        py::handle oobMode, py::handle out,
                        std::optional<int64_t> rowwiseBits, bool bfloat16) {
  py::object table = asArray(weight);
  // The table's type, kept: `table` is replaced by its contiguous copy
  // below, which may free the array whose dtype this is.
  PyArray_Descr *tableDtype = PyArray_DESCR(arrayOf(table));
  const int tableType = tableDtype->type_num;
  // A bfloat16 table comes as its int16 view (so do per_sample_weights and
  // `out`, which must have its dtype, and the result).
  if (bfloat16 && (rowwiseBits || tableType != NPY_INT16))
    throw py::type_error(function +
                         ": a bfloat16 weight must come as its "
                         "int16 view, not " +
                         dtypeText(arrayOf(table)));
  const ElementKind tableElement =
      bfloat16 ? kBFloat16 : elementKindOf(tableDtype);
  if (rowwiseBits && tableType != NPY_UBYTE)
    throw py::type_error(function +
                         ": weight must be uint8 (a prepacked row-wise "
                         "quantized table), not " +
                         dtypeText(arrayOf(table)));
  // Any byte order: the contiguous copy below is in the machine's.
  if (!rowwiseBits && !bfloat16 && tableType != NPY_HALF &&
      tableType != NPY_FLOAT && tableType != NPY_DOUBLE)
    throw py::type_error(function +
                         ": weight must be float16, float32 or float64, not " +
                         dtypeText(arrayOf(table)));

  GatherMode mode = modeOf(oobMode, function.c_str(), "oob_mode");
  std::string bagReduction;
  if (PyUnicode_Check(reduction.ptr()))
    bagReduction = reduction.cast<std::string>();
  if (!llvm::is_contained(kReductions, bagReduction))
    throw py::value_error(function +
                          ": mode must be one of sum, mean, max, not " +
                          std::string(py::repr(reduction)));
  py::object given = asArray(input);
  int truth = PyObject_IsTrue(includeLastOffset.ptr());
  if (truth < 0)
    throw py::error_already_set();
  bool lastOffset = truth;
  py::object bagOffsets;
  if (!offsets.is_none()) {
    bagOffsets = asArray(offsets);
    if (!isInteger(arrayOf(bagOffsets)))
      throw py::type_error(function +
                           ": offsets must have an integer dtype, not " +
                           dtypeText(arrayOf(bagOffsets)));
  }
  py::object weights;
  if (!perSampleWeights.is_none())
    weights = asArray(perSampleWeights);
  std::optional<int64_t> padding;
  if (!paddingIdx.is_none()) {
    PyObject *p = paddingIdx.ptr();
    if (PyBool_Check(p) || !(PyLong_Check(p) || PyArray_IsScalar(p, Integer)))
      throw py::type_error(
          function + ": padding_idx must be an integer, not " +
          std::string(py::str(paddingIdx.get_type().attr("__name__"))));
    py::int_ value(py::reinterpret_borrow<py::object>(p));
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow)
      throw py::value_error(function + ": padding_idx " +
                            std::string(py::str(value)) +
                            " does not fit in int64");
    padding = v;
  }

  // The dialect's bag rules, in torch's names.
  auto shapeView = [](const py::object &array) -> std::optional<ShapeView> {
    if (!array)
      return std::nullopt;
    return ShapeView(shapeOf(arrayOf(array)));
  };
  BagOperandShapes bagShapes{*shapeView(table), *shapeView(given)};
  bagShapes.offsets = shapeView(bagOffsets);
  bagShapes.perSampleWeights = shapeView(weights);
  bagShapes.includeLastOffset = lastOffset;
  bagShapes.sum = bagReduction == "sum";
  bagShapes.paddingIdx = padding;
  ShapeRuleError error;
  FailureOr<int64_t> bags =
      inferEmbeddingBagCount(bagShapes, error, BagNames{"input", "mode='sum'"});
  if (failed(bags))
    error.raise(function);
  int64_t num = PyArray_DIM(arrayOf(table), 0);

  // Ids in no bag (from the last offset on with include_last_offset, every
  // one when there is no offset) are never read by the kernel (a last
  // offset that breaks a rule is an error below).
  std::optional<int64_t> readIds;
  if (bagOffsets) {
    PyArrayObject *o = arrayOf(bagOffsets);
    if (PyArray_DIM(o, 0) == 0)
      readIds = 0;
    else if (lastOffset)
      readIds = plainInt(bagOffsets[py::int_(PyArray_DIM(o, 0) - 1)]);
  }
  py::object ids = signedIds(function, "input", "gather.embedding_bag", given,
                             num, mode, readIds);
  if (bagOffsets) {
    if (PyArray_DESCR(arrayOf(bagOffsets))->kind == 'u' &&
        PyArray_ITEMSIZE(arrayOf(bagOffsets)) == 8) {
      // uint64 (no safe cast to int64): values past INT64_MAX are past
      // the end of any ids; the others read as int64.
      py::object values = contiguous(bagOffsets, NPY_UINT64);
      auto *v = static_cast<const uint64_t *>(PyArray_DATA(arrayOf(values)));
      for (npy_intp i = 0, n = PyArray_SIZE(arrayOf(values)); i < n; ++i)
        if (v[i] > static_cast<uint64_t>(INT64_MAX))
          throw py::value_error(
              function + ": offsets must not be past the end of the " +
              std::to_string(PyArray_SIZE(arrayOf(ids))) + " ids");
      PyObject *view = PyArray_View(arrayOf(values),
                                    PyArray_DescrFromType(NPY_INT64), nullptr);
      if (!view)
        throw py::error_already_set();
      bagOffsets = py::reinterpret_steal<py::object>(view);
    } else {
      bagOffsets = contiguous(bagOffsets, NPY_INT64);
    }
  }

  int valueType = rowwiseBits ? NPY_FLOAT : tableType;
  if (weights) {
    PyArrayObject *w = arrayOf(weights);
    PyArray_Descr *valueDescr = PyArray_DescrFromType(valueType);
    auto valueDtype = py::reinterpret_steal<py::object>(
        reinterpret_cast<PyObject *>(valueDescr));
    // The same type in either byte order (the copy below is the machine's).
    if (PyArray_TYPE(w) != valueType)
      throw py::type_error(function + ": per_sample_weights must have " +
                           (rowwiseBits ? "dtype " : "weight's dtype ") +
                           strOf(valueDtype.ptr()) + ", not " + dtypeText(w));
    weights = contiguous(weights, valueType);
  }

  std::optional<int64_t> width;
  int64_t values;
  if (rowwiseBits) {
    // Bytes, which the kernel reads unsigned. A row too short for its
    // scale and bias is the kernel's error, before it writes anything (its
    // kernel keeps the width dynamic, so that the verifier does not reject
    // the static one first).
    table = packedBytes(table);
    int64_t rowBytes = PyArray_DIM(arrayOf(table), 1);
    values = RowwiseLayout{*rowwiseBits}.values(rowBytes);
    if (values >= 0)
      width = rowBytes;
    values = std::max<int64_t>(0, values);
  } else {
    table = contiguous(table, tableType);
    values = PyArray_DIM(arrayOf(table), 1);
    width = values;
  }
  int64_t idCount = PyArray_SIZE(arrayOf(ids));
  bool parallel = reducesOnThreads(idCount * values);
  KernelCache::Entry kernel = bagKernel(BagKey{
      tableElement, width, static_cast<int>(PyArray_ITEMSIZE(arrayOf(ids))),
      !!bagOffsets, !!weights, bagReduction, padding, lastOffset, mode,
      parallel, rowwiseBits});

  SmallVector<PyArrayObject *, 4> operands{arrayOf(table), arrayOf(ids)};
  if (bagOffsets)
    operands.push_back(arrayOf(bagOffsets));
  if (weights)
    operands.push_back(arrayOf(weights));
  PyArray_Descr *resultDtype = PyArray_DescrFromType(valueType);
  py::object result;
  try {
    result = resultArray(function, resultDtype, {*bags, values}, out.ptr(),
                         operands);
  } catch (...) {
    Py_DECREF(resultDtype);
    throw;
  }
  Py_DECREF(resultDtype);

  return callKernel(kernel, operands, arrayOf(result), result, out,
                    PyArray_NBYTES(arrayOf(ids)), nullptr, "input");
}

/// gather_mlir.gather_block_quantized on arrays or array-likes: its rules,
/// kernel (bags of one id from the block-quantized table) and call.
py::object gatherBlockQuantized(py::handle data, py::handle indices,
                                py::handle scales, py::handle zeroPoints,
                                py::handle gatherAxis, py::handle quantizeAxis,
                                py::handle blockSizeArg, py::handle bitsArg,
                                py::handle modeArg, py::handle out) {
  const std::string function = "gather_block_quantized";
  GatherMode mode = modeOf(modeArg, function.c_str());
  auto repr = [](py::handle h) { return std::string(py::repr(h)); };
  // Integers (numpy's too) equal to `v`, not floats or bools that are.
  auto equals = [](py::handle h, int64_t v) { return plainInt(h) == v; };
  // The layout's rules are the dialect's (a block-quantized bag table);
  // a value that is no integer breaks them as a wrong integer would.
  std::optional<int64_t> bits = plainInt(bitsArg);
  std::optional<int64_t> blockSize = plainInt(blockSizeArg);
  if (!bits)
    throw py::value_error(function + ": bits must be 8, 4 or 2, not " +
                          repr(bitsArg));
  if (!blockSize)
    throw py::value_error(function +
                          ": block_size must be a power of two >= 16, not " +
                          repr(blockSizeArg));
  if (ShapeRuleError error;
      failed(BlockLayout::get(*bits, *blockSize, error, "bits")))
    error.raise(function);
  py::object table = asArray(data);
  if (PyArray_TYPE(arrayOf(table)) != NPY_UBYTE)
    throw py::type_error(function +
                         ": data must be uint8 (packed values), "
                         "not " +
                         dtypeText(arrayOf(table)));
  // Data of rank r >= 2 (ONNX Runtime's), gathered along axis 0 and
  // quantized along the last: each of its dims between holds rows of the
  // last one, which the kernel reads as rows of a 2-D table.
  SmallVector<int64_t, 4> dataShape(shapeOf(arrayOf(table)));
  int64_t rank = dataShape.size();
  if (rank < 2)
    throw py::value_error(function +
                          ": data must have at least 2 "
                          "dimensions (gathered along the first, "
                          "quantized along the last), not shape " +
                          shapeText(dataShape));
  if (!equals(gatherAxis, 0) && !equals(gatherAxis, -rank))
    throw py::value_error(function + ": gather_axis must be 0 (or " +
                          std::to_string(-rank) + "), not " + repr(gatherAxis));
  if (!equals(quantizeAxis, rank - 1) && !equals(quantizeAxis, -1))
    throw py::value_error(function +
                          ": quantize_axis must be the last axis "
                          "(" +
                          std::to_string(rank - 1) + " or -1), not " +
                          repr(quantizeAxis));
  int64_t num = dataShape.front();
  int64_t rowBytes = dataShape.back();
  ArrayRef<int64_t> between = ArrayRef<int64_t>(dataShape).slice(1, rank - 2);
  int64_t inner = 1;
  for (int64_t size : between)
    inner *= size;
  int64_t width = rowBytes * (8 / *bits);
  int64_t blocks = (width + *blockSize - 1) / *blockSize;

  // A row per row of the last axis: [num, between..., columns].
  auto perRowShape = [&](int64_t columns) {
    SmallVector<int64_t, 4> shape(ArrayRef<int64_t>(dataShape).drop_back());
    shape.push_back(columns);
    return shape;
  };
  py::object scaleArray = asArray(scales);
  PyArray_Descr *scaleDescr = PyArray_DESCR(arrayOf(scaleArray));
  // Any byte order: the contiguous copy below is in the machine's.
  if (scaleDescr->type_num != NPY_FLOAT && scaleDescr->type_num != NPY_HALF)
    throw py::type_error(function +
                         ": scales must be float32 or float16, "
                         "not " +
                         dtypeText(arrayOf(scaleArray)));
  int scaleType = scaleDescr->type_num;
  ElementKind scaleElement = elementKindOf(scaleDescr);
  SmallVector<int64_t, 4> scaleShape = perRowShape(blocks);
  if (shapeOf(arrayOf(scaleArray)) != ArrayRef<int64_t>(scaleShape))
    throw py::value_error(function + ": scales must have shape " +
                          shapeText(scaleShape) + " (a scale per block of " +
                          std::to_string(*blockSize) + " values), not " +
                          shapeText(shapeOf(arrayOf(scaleArray))));
  int64_t perByte = 8 / *bits;
  int64_t zpBytes = (blocks + perByte - 1) / perByte;
  py::object zp;
  if (!zeroPoints.is_none()) {
    zp = asArray(zeroPoints);
    if (PyArray_TYPE(arrayOf(zp)) != NPY_UBYTE)
      throw py::type_error(function + ": zero_points must be uint8, not " +
                           dtypeText(arrayOf(zp)));
    SmallVector<int64_t, 4> zpShape = perRowShape(zpBytes);
    if (shapeOf(arrayOf(zp)) != ArrayRef<int64_t>(zpShape))
      throw py::value_error(function + ": zero_points must have shape " +
                            shapeText(zpShape) + ", not " +
                            shapeText(shapeOf(arrayOf(zp))));
  }
  py::object indexArray = asArray(indices);
  SmallVector<int64_t, 8> resultShape(shapeOf(arrayOf(indexArray)));
  llvm::append_range(resultShape, between);
  resultShape.push_back(width);
  py::object ids =
      signedIds(function, "indices", function, indexArray, num, mode);
  int64_t count = PyArray_SIZE(arrayOf(ids));
  // C-contiguous `a` as a [rows, columns] array.
  auto asMatrix = [](const py::object &a, int64_t rows, int64_t columns) {
    npy_intp shape[2] = {rows, columns};
    PyArray_Dims dims{shape, 2};
    auto m = py::reinterpret_steal<py::object>(
        PyArray_Newshape(arrayOf(a), &dims, NPY_CORDER));
    if (!m)
      throw py::error_already_set();
    return m;
  };
  GatherMode kernelMode = mode;
  if (rank > 2) {
    // Each index picks `inner` rows of the 2-D table: they are resolved
    // here, by the mode against the first axis (an error names the index),
    // and the kernel reads rows in range as they are, and zeros (fill) for
    // the others. Rows of no value are not picked (only checked): a dim
    // between may be huge beside them.
    if (width == 0)
      inner = 0;
    py::object given = contiguous(ids, NPY_INT64);
    const auto *in = static_cast<const int64_t *>(PyArray_DATA(arrayOf(given)));
    npy_intp expandedSize = count * inner;
    PyObject *expanded = PyArray_SimpleNew(1, &expandedSize, NPY_INT64);
    if (!expanded)
      throw py::error_already_set();
    ids = py::reinterpret_steal<py::object>(expanded);
    auto *rows = static_cast<int64_t *>(PyArray_DATA(arrayOf(ids)));
    for (int64_t k = 0; k < count; ++k) {
      std::optional<int64_t> row = resolveIndex(
          in[k], num, mode == GatherMode::unchecked ? GatherMode::check : mode);
      if (!row && mode != GatherMode::fill && mode != GatherMode::unchecked)
        throw py::index_error(
            indexErrorText(function, std::to_string(in[k]), num));
      for (int64_t m = 0; m < inner; ++m)
        rows[k * inner + m] = row ? *row * inner + m : INT64_MAX;
    }
    kernelMode = GatherMode::fill;
    count *= inner;
  }
  // Bags of one id each: [n, 1].
  ids = asMatrix(ids, count, 1);

  table = asMatrix(packedBytes(table), num * inner, rowBytes);
  scaleArray = asMatrix(contiguous(scaleArray, scaleType), num * inner, blocks);
  SmallVector<PyArrayObject *, 4> operands{arrayOf(table), arrayOf(ids),
                                           arrayOf(scaleArray)};
  if (zp) {
    zp = asMatrix(packedBytes(zp), num * inner, zpBytes);
    operands.push_back(arrayOf(zp));
  }
  KernelCache::Entry kernel = blockKernel(BlockKey{
      rowBytes, static_cast<int>(PyArray_ITEMSIZE(arrayOf(ids))), scaleElement,
      *bits, *blockSize, !!zp, kernelMode, reducesOnThreads(count * width)});
  PyArray_Descr *resultDescr = PyArray_DescrFromType(scaleType);
  auto resultDtype = py::reinterpret_steal<py::object>(
      reinterpret_cast<PyObject *>(resultDescr));
  py::object result =
      resultArray(function, resultDescr, resultShape, out.ptr(), operands);
  // The kernel writes [ids, width]: a view of the C-contiguous result.
  py::object rows = asMatrix(result, count, width);
  return callKernel(kernel, operands, arrayOf(rows), result, out,
                    PyArray_NBYTES(arrayOf(ids)), function.c_str());
}

} // namespace

void mlir::gather::python::bindEmbeddingBags(py::module_ &m) {
  m.def("embedding_bag", &embeddingBag, py::arg("function"), py::arg("input"),
        py::arg("weight"), py::arg("offsets"), py::arg("mode"),
        py::arg("per_sample_weights"), py::arg("include_last_offset"),
        py::arg("padding_idx"), py::arg("oob_mode"), py::arg("out"),
        py::arg("rowwise_bits"), py::arg("bfloat16") = false,
        "gather_mlir.embedding_bag (`rowwise_bits` None) or "
        "embedding_bag_rowwise_quantized (8 or 4) on arrays and array-likes "
        "(torch tensors viewed as arrays by the caller; `bfloat16`: weight, "
        "per_sample_weights and out are bfloat16 viewed as int16); errors "
        "name `function`. Returns `out` or a new array.");
  m.def("gather_block_quantized", &gatherBlockQuantized, py::arg("data"),
        py::arg("indices"), py::arg("scales"), py::arg("zero_points"),
        py::arg("gather_axis"), py::arg("quantize_axis"), py::arg("block_size"),
        py::arg("bits"), py::arg("mode"), py::arg("out"),
        "gather_mlir.gather_block_quantized on arrays and array-likes "
        "(torch tensors viewed as arrays by the caller). Returns `out` or a "
        "new array.");
}
