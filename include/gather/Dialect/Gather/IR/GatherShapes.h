//===- GatherShapes.h - Shape rules of the gather ops -----------*- C++ -*-===//
//
// The one home of the gather ops' shape logic. Each op's rules are written
// once, as a function from operand shapes and attributes to a GatherShape; the
// verifier, type inference, shape reification and the lowering all use it
// through the forms taking MLIR types, and hosts that hold plain shape arrays
// (the Python package, on every call) through the forms taking ShapeViews.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H
#define GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

namespace mlir::gather {

/// An operand's shape as the rules read it: sizes (ShapedType::kDynamic where
/// a size is known only at run time), or no rank at all. A view: it does not
/// own the sizes.
class ShapeView {
public:
  /// A ranked shape of these sizes.
  ShapeView(ArrayRef<int64_t> sizes) : sizes(sizes), ranked(true) {}
  /// A shape of unknown rank.
  static ShapeView getUnranked() { return ShapeView(); }
  /// The shape of `type` (unranked if `type` is).
  static ShapeView get(ShapedType type) {
    return type.hasRank() ? ShapeView(type.getShape()) : getUnranked();
  }

  bool hasRank() const { return ranked; }
  int64_t getRank() const {
    assert(ranked && "the shape is unranked");
    return sizes.size();
  }
  ArrayRef<int64_t> getShape() const { return sizes; }
  int64_t getDimSize(int64_t d) const { return sizes[d]; }

private:
  ShapeView() = default;
  ArrayRef<int64_t> sizes;
  bool ranked = false;
};

/// The operand dimensions that one result dimension equals. At least one is
/// set; batch dimensions are shared by data and indices and set both.
struct ResultDimSource {
  int64_t dataDim = -1;
  int64_t indicesDim = -1;
  /// The data dimension that a result position along this dimension reads
  /// at the same position, or -1: `dataDim`, and gather_elements' dims off
  /// the axis (where data may be larger than the result). What a tile of
  /// the result reads of data follows from it.
  int64_t readDataDim = -1;

  /// Whether a position along this dim reads data where an index value
  /// says, not at a position of its own: a dim of index positions, along
  /// which a scatter's updates may land on one element of dest (its tiling
  /// and sharding loops' reductions).
  bool walksIndexPositions() const { return readDataDim < 0; }
};

/// A rule between a dim of data and a dim of indices that the verifier
/// could not decide (one of the two is dynamic): checked when the op runs.
struct OperandDimRule {
  int64_t dataDim, indicesDim;
  /// gather_elements' dims off the axis: indices' size <= data's. Else (a
  /// batch dim) the sizes are equal.
  bool atMost;
};

/// The checked, normalized view of one gather op's operands.
struct GatherShape {
  /// False when an operand's rank is unknown so far that the result's rank is.
  bool ranked = false;
  /// A lower bound on the result's rank that holds for every operand rank the
  /// rules allow (the result's rank itself when `ranked`).
  int64_t minResultRank = 0;
  /// Where each result dimension comes from (empty when !ranked).
  SmallVector<ResultDimSource> dims;
  /// `axis` in [0, r) (gather, gather_elements); 0 for gather_nd.
  int64_t axis = 0;
  /// `batch_dims` in [0, q] (gather, gather_nd); 0 for gather_elements.
  int64_t batchDims = 0;
  /// gather_nd: the index tuple length k; 1 for the other ops.
  int64_t tupleSize = 1;
  /// The data dimension that component `c` (< tupleSize) of an index value
  /// selects along: the axis, or batch_dims + c for gather_nd.
  int64_t indexedDim(int64_t c) const { return firstIndexedDim + c; }
  int64_t firstIndexedDim = 0;

  /// The static result shape: a dimension is static when any of its sources
  /// is. Requires `ranked`.
  SmallVector<int64_t> getStaticShape(ShapeView data, ShapeView indices) const;
  SmallVector<int64_t> getStaticShape(ShapedType data,
                                      ShapedType indices) const {
    return getStaticShape(ShapeView::get(data), ShapeView::get(indices));
  }
  /// The result type: a ranked tensor of the static shape, or unranked.
  TensorType getResultType(ShapedType data, ShapedType indices) const;
  /// The rules between operand dims that involve a dynamic dim of `data` or
  /// `indices` (the static ones the verifier checked), in result-dim order:
  /// what both lowerings check when the op runs. Requires `ranked`.
  SmallVector<OperandDimRule> getRunTimeRules(ShapeView data,
                                              ShapeView indices) const;
  SmallVector<OperandDimRule> getRunTimeRules(ShapedType data,
                                              ShapedType indices) const {
    return getRunTimeRules(ShapeView::get(data), ShapeView::get(indices));
  }
  /// Whether each row of the result (along its last dim) reads one row of
  /// data along the axis, data's last dim, at the positions of one row of
  /// indices (their last dim): gather along the last axis with an index dim
  /// past the batch dims, gather_elements along the last axis. The lowering
  /// gathers such rows a vector at a time when they are contiguous; the
  /// hosts key their kernels by it. Requires `ranked` to say true.
  bool readsRowsAlongLastAxis(int64_t dataRank, int64_t indicesRank) const {
    return !dims.empty() && axis == dataRank - 1 &&
           dims.back().indicesDim == indicesRank - 1 &&
           dims.back().readDataDim < 0;
  }
  /// Whether each row of the result (along its last dim) is a whole row of
  /// data (its last dim) read at one index: gather off the last axis,
  /// gather_nd with slices. The hosts key kernels for short such rows by
  /// their length. Requires `ranked` to say true.
  bool readsDataRows(int64_t dataRank) const {
    return !dims.empty() && dims.back().dataDim == dataRank - 1 &&
           dims.back().indicesDim < 0;
  }
  /// Places the result position `ivs` (its first ivs.size() dims) in the
  /// operands: the subscript of each data dim that a result dim reads at the
  /// same position (`readDataDim`) and of each indices dim it walks. The data
  /// dims that index values select along are left as they are. The gather
  /// lowerings read data there; the scatters write dest there.
  void placePosition(ValueRange ivs, MutableArrayRef<Value> dataSub,
                     MutableArrayRef<Value> indexSub) const {
    for (auto [d, iv] : llvm::enumerate(ivs)) {
      if (dims[d].readDataDim >= 0)
        dataSub[dims[d].readDataDim] = iv;
      if (dims[d].indicesDim >= 0)
        indexSub[dims[d].indicesDim] = iv;
    }
  }
  /// Groups of adjacent dims that the op reads and writes as one dim: result
  /// dims whose sources in every operand are adjacent dims of the same kind
  /// and whose inner dim has one size in data and indices. The same op on
  /// the operands reshaped by the groups (collapsed in row-major order) has
  /// the same elements and the same first out-of-range index; the dims the
  /// op indexes along (the axis, gather_nd's tuples) stay groups of their
  /// own. Requires `ranked` and static shapes.
  struct CollapsedDims {
    SmallVector<SmallVector<int64_t, 2>> data, indices, result;
    /// The operands' and the result's sizes, each group's product.
    SmallVector<int64_t> dataShape, indicesShape, resultShape;
    /// The collapsed `axis` and `batchDims`.
    int64_t axis = 0, batchDims = 0;

    /// Whether any group holds more than one dim.
    bool mergesAny() const {
      auto several = [](ArrayRef<int64_t> group) { return group.size() > 1; };
      return llvm::any_of(data, several) || llvm::any_of(indices, several);
    }
  };
  CollapsedDims collapseDims(ShapeView data, ShapeView indices) const;
  /// The result's sizes as values or constants (for shape reification).
  SmallVector<OpFoldResult> getMixedSizes(OpBuilder &b, Location loc,
                                          Value data, Value indices) const;
  /// The values of the dimensions that are dynamic in `resultShape` (what a
  /// memref.alloc of the result takes).
  SmallVector<Value> getDynamicSizes(OpBuilder &b, Location loc, Value data,
                                     Value indices,
                                     ArrayRef<int64_t> resultShape) const;
};

/// The number of elements of the static `shape` (0 when a size is 0), or
/// std::nullopt when it overflows int64_t (ShapedType::getNumElements wraps
/// silently).
std::optional<int64_t> getCheckedNumElements(ArrayRef<int64_t> shape);

/// The bytes an element of `type` takes in memory once lowered: complex
/// numbers both parts, `index` the 64 bits the pipelines lower it to, integers
/// and floats their width rounded up to whole bytes (i1: one byte), and any
/// other type one byte (a lower bound: the sizes are compared with thresholds
/// that ask for "at least").
int64_t getElementSizeInBytes(Type type);

/// The size in bytes of `type`'s static shape of its elements, saturated at
/// INT64_MAX (the verifiers accept static shapes no memory holds), or
/// std::nullopt when a dim is dynamic.
std::optional<int64_t> getStaticSizeInBytes(ShapedType type);

/// Whether the static dims of `type` count their elements within int64_t
/// (dynamic dims count as 1; unranked and non-shaped types: true). The
/// verifiers take larger static shapes, which no memory can hold; lowerings
/// that collapse or stride over such dims refuse them.
bool hasCountableStaticSizes(Type type);

/// hasCountableStaticSizes for every operand and result of `op`.
bool hasCountableStaticSizes(Operation *op);

/// hasCountableStaticSizes, and for a static shape also its bytes within
/// int64_t (getStaticSizeInBytes does not saturate).
bool hasCountableStaticBytes(Type type);

/// A result's reified `sizes` in the form of its declared `type`: the static
/// dims as the type's sizes (attributes), the dynamic ones as values, so
/// that a destination built from them (tensor::getOrCreateDestination)
/// has the op's type even where the operands are more static than it.
SmallVector<OpFoldResult> asReifiedSizesOf(OpBuilder &b, Location loc,
                                           RankedTensorType type,
                                           ArrayRef<OpFoldResult> sizes);

/// Reports a rule violation; returns failure. The message starts lower-case.
using ShapeErrorFn = function_ref<LogicalResult(const Twine &)>;

/// Rules of `gather.gather`. `axis` and `batchDims` as written (may be
/// negative).
FailureOr<GatherShape> inferGatherShape(ShapeView data, ShapeView indices,
                                        int64_t axis, int64_t batchDims,
                                        GatherMode mode,
                                        ShapeErrorFn emitError);

/// Rules of `gather.gather_elements`.
FailureOr<GatherShape> inferGatherElementsShape(ShapeView data,
                                                ShapeView indices, int64_t axis,
                                                GatherMode mode,
                                                ShapeErrorFn emitError);

/// Rules of `gather.gather_nd`.
FailureOr<GatherShape> inferGatherNDShape(ShapeView data, ShapeView indices,
                                          int64_t batchDims, GatherMode mode,
                                          ShapeErrorFn emitError);

/// The shapes of the operand types `data` and `indices`, which must be
/// tensors (a report otherwise: a builder's operands reach type inference
/// before any verifier).
FailureOr<std::pair<ShapeView, ShapeView>>
getOperandShapes(Type data, Type indices, ShapeErrorFn emitError);

/// Whether `mode` gives an index that is out of range (or along an empty
/// dimension) an error rather than a defined result.
bool modeRejectsEmptyDims(GatherMode mode);

/// What a host calls an embedding bag's ids and its sum reduction in the
/// messages of the bag rules: the IR's names, or torch's (`input`,
/// `mode='sum'`).
struct BagNames {
  StringRef ids = "ids";
  StringRef sumReduction = "reduction sum";
};

/// The operand shapes and attributes the rules of `gather.embedding_bag`
/// read, but for its table's layout and element types.
struct BagOperandShapes {
  BagOperandShapes(ShapeView weight, ShapeView ids)
      : weight(weight), ids(ids) {}

  ShapeView weight, ids;
  std::optional<ShapeView> offsets, perSampleWeights;
  bool includeLastOffset = false;
  /// Whether the reduction is sum (the only one per_sample_weights takes).
  bool sum = true;
  std::optional<int64_t> paddingIdx;
};

/// Rules of the embedding bag's operand shapes: weight 2-D [num, dim]; ids
/// 1-D with offsets, 2-D [bags, n] without; offsets 1-D, and at least one
/// with include_last_offset, which needs them; per_sample_weights only with
/// sum, shaped like ids; padding_idx in [-num, num). Returns the number of
/// bags (kDynamic when only the run time knows it). The verifier and the
/// Python package both call it.
FailureOr<int64_t> inferEmbeddingBagCount(const BagOperandShapes &operands,
                                          ShapeErrorFn emitError,
                                          const BagNames &names = {});

/// FBGEMM's row-wise quantized layout of an embedding table (the table of a
/// gather.embedding_bag with rowwise_bits): each row of bytes holds its
/// `bits`-bit values (two a byte, low nibble first, for 4 bits), then its
/// scale and its bias, f32 each for 8 bits and f16 each for 4 bits.
struct RowwiseLayout {
  int64_t bits;

  /// Bits of the scale and of the bias.
  int64_t scaleBits() const { return bits == 8 ? 32 : 16; }
  /// The bytes after the values: scale and bias.
  int64_t trailerBytes() const { return 2 * scaleBits() / 8; }
  int64_t valuesPerByte() const { return 8 / bits; }
  /// The values in a row of `bytes` bytes (kDynamic for kDynamic; negative
  /// when the row is too short for its scale and bias; the caller checks
  /// countsValues first).
  int64_t values(int64_t bytes) const {
    return ShapedType::isDynamic(bytes)
               ? ShapedType::kDynamic
               : (bytes - trailerBytes()) * valuesPerByte();
  }
  /// Whether a row of `bytes` bytes holds a number of values an int64
  /// counts (always for kDynamic).
  bool countsValues(int64_t bytes) const {
    int64_t values;
    return ShapedType::isDynamic(bytes) ||
           !llvm::MulOverflow(bytes - trailerBytes(), valuesPerByte(), values);
  }
};

/// ONNX Runtime's block-quantized layout of a table (GatherBlockQuantized;
/// the table of a gather.embedding_bag with scales): each row of bytes
/// holds `bits`-bit values, low bits first; one scale per `blockSize`
/// values of a row, and optionally one zero point per block, packed like
/// the values.
struct BlockLayout {
  int64_t bits, blockSize;

  /// The layout of `bits`-bit values (2, 4 or 8) in blocks of `blockSize`
  /// (a power of two >= 16), or a report naming the attribute `bitsName`.
  static FailureOr<BlockLayout> get(int64_t bits, int64_t blockSize,
                                    ShapeErrorFn emitError,
                                    StringRef bitsName = "block_bits");

  int64_t valuesPerByte() const { return 8 / bits; }
  /// The values in a row of `bytes` bytes (kDynamic for kDynamic; the
  /// caller checks countsValues first).
  int64_t values(int64_t bytes) const {
    return ShapedType::isDynamic(bytes) ? ShapedType::kDynamic
                                        : bytes * valuesPerByte();
  }
  /// Whether a row of `bytes` bytes holds a number of values an int64
  /// counts (always for kDynamic).
  bool countsValues(int64_t bytes) const {
    int64_t values;
    return ShapedType::isDynamic(bytes) ||
           !llvm::MulOverflow(bytes, valuesPerByte(), values);
  }
  /// The blocks of a row of `values` values, and the bytes of its zero
  /// points (kDynamic for kDynamic; rounded up without overflow).
  int64_t blocks(int64_t values) const {
    return ShapedType::isDynamic(values)
               ? ShapedType::kDynamic
               : static_cast<int64_t>(llvm::divideCeil(values, blockSize));
  }
  int64_t zeroPointBytes(int64_t blocks) const {
    return ShapedType::isDynamic(blocks)
               ? ShapedType::kDynamic
               : static_cast<int64_t>(
                     llvm::divideCeil(blocks, valuesPerByte()));
  }
};

} // namespace mlir::gather

#endif // GATHER_DIALECT_GATHER_IR_GATHERSHAPES_H
