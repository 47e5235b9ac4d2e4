//===- EmbeddingBagOps.td - Embedding bags ------------------*- tablegen -*-===//
//
// Included by GatherOps.td: gathers that reduce bags of table rows.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_IR_EMBEDDINGBAGOPS_TD
#define GATHER_DIALECT_GATHER_IR_EMBEDDINGBAGOPS_TD

def Gather_FloatElement : AnyTypeOf<[F16, BF16, F32, F64],
                                    "f16, bf16, f32 or f64">;
def Gather_BagTableElement
    : AnyTypeOf<[F16, BF16, F32, F64, I8],
                "f16, bf16, f32, f64, or i8 (a row-wise quantized table)">;

def Gather_EmbeddingBagOp : Gather_Op<"embedding_bag", [
    AttrSizedOperandSegments, NoMemoryEffect,
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>]> {
  let summary = "reduce bags of table rows (torch.nn.EmbeddingBag, FBGEMM)";
  let description = !strconcat([{
    Gathers rows of the 2-D table `weight` [num, dim] by `ids` and reduces
    each bag of rows to one row of the result [bags, dim]:

    * with `offsets` (1-D), `ids` is 1-D and bag `b` holds the ids at
      positions `[offsets[b], offsets[b + 1])`; the last bag runs to the end
      of `ids`, or, with `include_last_offset`, `offsets` has one entry more
      and its last entry ends the last bag;
    * without `offsets`, `ids` is 2-D [bags, n]: fixed-length bags.

    `offsets` follows torch's rules, checked when the op runs (in every mode
    but `unchecked`): `offsets[0] == 0`, non-decreasing, none past the end
    of `ids`.

    `reduction` is `sum`, `mean` (default) or `max` of the bag's rows; an
    empty bag is zeros. `per_sample_weights` (the shape of `ids`, the
    table's element type, `sum` only) scales each row. An id whose row is
    `padding_idx` (in `[-num, num)`, negative counts from the end) is
    skipped and not counted by `mean`. f16 and bf16 tables accumulate in
    f32.

    Ids follow the index rules of every gather op along the table's rows:
  }], Gather_ModeDoc, [{
    `fill` makes that id's row zeros (it still counts in `mean` and takes
    part in `max`); `clamp` and `wrap` pick a row as gather does, and the
    row they pick is compared with `padding_idx`.

    With `rowwise_bits` (8 or 4), `weight` is a row-wise quantized table in
    FBGEMM's fused layout (what torch's `embedding_bag_byte_prepack` and
    `embedding_bag_4bit_prepack` produce), its bytes as `i8` read unsigned:
    each row holds its values, 8-bit or 4-bit (two a byte, low nibble
    first), followed by its scale and bias (f32 each for 8 bits, f16 each
    for 4 bits); value = q * scale + bias. A row of `n` bytes holds `n - 8`
    values (8 bits) or `2 * (n - 4)` (4 bits): the result's dim. Rows are
    dequantized as they are accumulated; the result and
    `per_sample_weights` are f32. A row shorter than its scale and bias is
    an error when the op runs.

    With `scales` (and `block_bits`, `block_size`), `weight` is a
    block-quantized table (ONNX Runtime's GatherBlockQuantized layout), its
    bytes as `i8` read unsigned: each row holds `block_bits`-bit values (8,
    4 or 2; low bits first), `8 / block_bits` a byte, so a row of `n` bytes
    holds `n * 8 / block_bits` values: the result's dim. `scales`
    [num, ceil(values / block_size)] (f16 or f32) holds one scale per
    `block_size` values (a power of two >= 16) of each row;
    `zero_points` (optional, `i8` read unsigned) packs one zero point per
    block like the data (default `2^(block_bits - 1)`); value =
    (q - zero_point) * scale. The result and `per_sample_weights` have the
    scales' element type; rows accumulate in f32. A gather of quantized rows
    is the fixed-length bags of one id each.

    ```mlir
    %r = gather.embedding_bag %table[%ids] offsets(%offsets)
        per_sample_weights(%w) {reduction = #gather<reduction sum>}
        : (tensor<1000x64xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>)
          -> tensor<?x64xf32>
    %m = gather.embedding_bag %table[%bags] {reduction = #gather<reduction max>,
        padding_idx = 0 : i64, mode = #gather<mode fill>}
        : (tensor<1000x64xf16>, tensor<8x20xi32>) -> tensor<8x64xf16>
    // 8-bit rows of 64 values, an f32 scale and an f32 bias: 72 bytes.
    %q = gather.embedding_bag %packed[%ids] offsets(%offsets)
        {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64}
        : (tensor<1000x72xi8>, tensor<?xi64>, tensor<?xi64>)
          -> tensor<?x64xf32>
    // 4-bit rows of 4096 values in blocks of 128: 2048 bytes, 32 scales.
    %b = gather.embedding_bag %data[%ids] scales(%scales)
        zero_points(%zps) {reduction = #gather<reduction sum>,
        block_bits = 4 : i64, block_size = 128 : i64}
        : (tensor<128256x2048xi8>, tensor<?x1xi64>, tensor<128256x32xf16>,
           tensor<128256x16xi8>) -> tensor<?x4096xf16>
    ```
  }]);
  let arguments = (ins TensorOf<[Gather_BagTableElement]>:$weight,
                       Gather_IndexTensor:$ids,
                       Optional<Gather_IndexTensor>:$offsets,
                       Optional<TensorOf<[Gather_FloatElement]>>:
                           $per_sample_weights,
                       DefaultValuedAttr<Gather_ReductionAttr,
                           "::mlir::gather::BagReduction::mean">:$reduction,
                       OptionalAttr<I64Attr>:$padding_idx,
                       UnitAttr:$include_last_offset,
                       DefaultValuedAttr<Gather_ModeAttr,
                                         Gather_ModeDefault>:$mode,
                       OptionalAttr<I64Attr>:$rowwise_bits,
                       Optional<TensorOf<[F16, F32]>>:$scales,
                       Optional<TensorOf<[I8]>>:$zero_points,
                       OptionalAttr<I64Attr>:$block_bits,
                       OptionalAttr<I64Attr>:$block_size);
  let results = (outs TensorOf<[Gather_FloatElement]>:$result);
  let assemblyFormat = [{
    $weight `[` $ids `]` (`offsets` `(` $offsets^ `)`)?
    (`per_sample_weights` `(` $per_sample_weights^ `)`)?
    (`scales` `(` $scales^ `)`)? (`zero_points` `(` $zero_points^ `)`)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// A static dimension refines a dynamic one.
    static bool isCompatibleReturnTypes(::mlir::TypeRange l,
                                        ::mlir::TypeRange r);
    /// The element type rows are accumulated in: f32 for f16 and bf16
    /// tables, the table's own otherwise (f32 for quantized ones).
    ::mlir::Type getAccumulatorType();
    /// The element type of the result and of per_sample_weights: f32 for a
    /// row-wise quantized table, the table's own otherwise.
    ::mlir::Type getValueType();
    /// The layout of a row-wise quantized table (none without
    /// rowwise_bits).
    std::optional<::mlir::gather::RowwiseLayout> getRowwiseLayout();
    /// The layout of a block-quantized table (none without scales).
    std::optional<::mlir::gather::BlockLayout> getBlockLayout();
    /// The size of the result's dim: the table's row size, or the values a
    /// row-wise quantized row holds (none for a row too short for its scale
    /// and bias).
    ::mlir::OpFoldResult getRowValues(::mlir::OpBuilder &b,
                                      ::mlir::Location loc);
  }];
}

#endif // GATHER_DIALECT_GATHER_IR_EMBEDDINGBAGOPS_TD
