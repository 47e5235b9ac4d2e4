//===- GatherEnums.td - Gather dialect enums and attributes -*- tablegen -*-===//

#ifndef GATHER_DIALECT_GATHER_IR_GATHERENUMS_TD
#define GATHER_DIALECT_GATHER_IR_GATHERENUMS_TD

include "gather/Dialect/Gather/IR/GatherBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Gather_ModeCheck     : I32EnumAttrCase<"check", 0>;
def Gather_ModeFill      : I32EnumAttrCase<"fill", 1>;
def Gather_ModeClamp     : I32EnumAttrCase<"clamp", 2>;
def Gather_ModeWrap      : I32EnumAttrCase<"wrap", 3>;
def Gather_ModeUnchecked : I32EnumAttrCase<"unchecked", 4>;

def Gather_Mode : I32EnumAttr<"GatherMode",
    "what an index outside [-s, s) does", [
      Gather_ModeCheck, Gather_ModeFill, Gather_ModeClamp, Gather_ModeWrap,
      Gather_ModeUnchecked]> {
  let cppNamespace = "::mlir::gather";
  let genSpecializedAttr = 0;
}

/// Prints and parses as `#gather<mode fill>`: the dialect's attribute syntax
/// with the mnemonic `mode` and the bare case name. The parser and printer are
/// hand-written (GatherAttrs.cpp) because mlir-tblgen documents every
/// declarative attribute format as `#dialect.mnemonic<...>`, which is not
/// how this attribute is spelled.
def Gather_ModeAttr : EnumAttr<Gather_Dialect, Gather_Mode, "mode"> {
  let summary = "what an out-of-range index does";
  let description = [{
    Syntax:

    ```
    mode-attribute ::= `#gather<mode ` mode-name `>`
    mode-name      ::= `check` | `fill` | `clamp` | `wrap` | `unchecked`
    ```

    The `mode` attribute of every gather op. Left out, it is `check`.

    ```mlir
    %f = gather.gather %v[%i] {mode = #gather<mode fill>}
        : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
    ```
  }];
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def Gather_ReductionSum  : I32EnumAttrCase<"sum", 0>;
def Gather_ReductionMean : I32EnumAttrCase<"mean", 1>;
def Gather_ReductionMax  : I32EnumAttrCase<"max", 2>;

def Gather_Reduction : I32EnumAttr<"BagReduction",
    "how an embedding bag reduces its rows", [
      Gather_ReductionSum, Gather_ReductionMean, Gather_ReductionMax]> {
  let cppNamespace = "::mlir::gather";
  let genSpecializedAttr = 0;
}

/// Prints and parses as `#gather<reduction sum>`, like the mode.
def Gather_ReductionAttr : EnumAttr<Gather_Dialect, Gather_Reduction,
                                    "reduction"> {
  let summary = "how an embedding bag reduces its rows";
  let description = [{
    Syntax:

    ```
    reduction-attribute ::= `#gather<reduction ` (`sum` | `mean` | `max`) `>`
    ```

    The `reduction` attribute of `gather.embedding_bag`. Left out, it is
    `mean` (torch's default).
  }];
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

def Gather_CombineNone : I32EnumAttrCase<"none", 0>;
def Gather_CombineAdd  : I32EnumAttrCase<"add", 1>;
def Gather_CombineMul  : I32EnumAttrCase<"mul", 2>;
def Gather_CombineMax  : I32EnumAttrCase<"max", 3>;
def Gather_CombineMin  : I32EnumAttrCase<"min", 4>;

def Gather_Combine : I32EnumAttr<"ScatterCombine",
    "how a scatter combines an update with the element it lands on", [
      Gather_CombineNone, Gather_CombineAdd, Gather_CombineMul,
      Gather_CombineMax, Gather_CombineMin]> {
  let cppNamespace = "::mlir::gather";
  let genSpecializedAttr = 0;
}

/// Prints and parses as `#gather<combine add>`, like the mode.
def Gather_CombineAttr : EnumAttr<Gather_Dialect, Gather_Combine, "combine"> {
  let summary = "how a scatter combines updates";
  let description = [{
    Syntax:

    ```
    combine-attribute ::= `#gather<combine ` combine-name `>`
    combine-name      ::= `none` | `add` | `mul` | `max` | `min`
    ```

    The `reduction` attribute of the scatter ops: `none` assigns (the last
    update of an element wins), the others combine the element with each
    update in turn. Left out, it is `none` (ONNX's default).
  }];
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

#endif // GATHER_DIALECT_GATHER_IR_GATHERENUMS_TD
