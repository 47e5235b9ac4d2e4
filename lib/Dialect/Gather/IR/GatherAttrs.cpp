//===- GatherAttrs.cpp - Syntax of the gather attributes --------*- C++ -*-===//
//
// `#gather<mode fill>`, `#gather<reduction sum>`, `#gather<combine add>`:
// the dialect's attribute parser has read the mnemonic; the case name
// follows.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::gather;

/// The case named by the next keyword, or an error listing the cases.
template <typename Enum, typename Symbolize, typename Stringify>
static std::optional<Enum> parseCase(AsmParser &parser, StringRef what,
                                     uint64_t maxValue, Symbolize symbolize,
                                     Stringify stringify) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (failed(parser.parseKeywordOrString(&name)))
    return std::nullopt;
  if (std::optional<Enum> value = symbolize(name))
    return value;
  InFlightDiagnostic diag = parser.emitError(loc)
                            << "unknown " << what << " '" << name
                            << "', expected one of: ";
  for (uint64_t value = 0; value <= maxValue; ++value)
    diag << (value ? ", " : "") << stringify(static_cast<Enum>(value));
  return std::nullopt;
}

Attribute GatherModeAttr::parse(AsmParser &parser, Type) {
  std::optional<GatherMode> mode = parseCase<GatherMode>(
      parser, "gather mode", getMaxEnumValForGatherMode(),
      [](StringRef s) { return symbolizeGatherMode(s); },
      [](GatherMode m) { return stringifyGatherMode(m); });
  return mode ? GatherModeAttr::get(parser.getContext(), *mode) : Attribute();
}

void GatherModeAttr::print(AsmPrinter &printer) const {
  printer << ' ' << stringifyGatherMode(getValue());
}

Attribute BagReductionAttr::parse(AsmParser &parser, Type) {
  std::optional<BagReduction> reduction = parseCase<BagReduction>(
      parser, "bag reduction", getMaxEnumValForBagReduction(),
      [](StringRef s) { return symbolizeBagReduction(s); },
      [](BagReduction r) { return stringifyBagReduction(r); });
  return reduction ? BagReductionAttr::get(parser.getContext(), *reduction)
                   : Attribute();
}

void BagReductionAttr::print(AsmPrinter &printer) const {
  printer << ' ' << stringifyBagReduction(getValue());
}

Attribute ScatterCombineAttr::parse(AsmParser &parser, Type) {
  std::optional<ScatterCombine> combine = parseCase<ScatterCombine>(
      parser, "scatter combine", getMaxEnumValForScatterCombine(),
      [](StringRef s) { return symbolizeScatterCombine(s); },
      [](ScatterCombine c) { return stringifyScatterCombine(c); });
  return combine ? ScatterCombineAttr::get(parser.getContext(), *combine)
                 : Attribute();
}

void ScatterCombineAttr::print(AsmPrinter &printer) const {
  printer << ' ' << stringifyScatterCombine(getValue());
}
