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

/// Prints and parses as `#gather<mode fill>`.
def Gather_ModeAttr : EnumAttr<Gather_Dialect, Gather_Mode, "mode"> {
  let assemblyFormat = "$value";
}

#endif // GATHER_DIALECT_GATHER_IR_GATHERENUMS_TD
