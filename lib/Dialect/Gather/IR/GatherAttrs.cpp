//===- GatherAttrs.cpp - Syntax of the gather attributes --------*- C++ -*-===//
//
// `#gather<mode fill>`: the dialect's attribute parser has read `mode`; the
// case name follows.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::gather;

Attribute GatherModeAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (failed(parser.parseKeywordOrString(&name)))
    return {};
  if (std::optional<GatherMode> mode = symbolizeGatherMode(name))
    return GatherModeAttr::get(parser.getContext(), *mode);

  InFlightDiagnostic diag = parser.emitError(loc)
                            << "unknown gather mode '" << name
                            << "', expected one of: ";
  for (uint64_t value = 0; value <= getMaxEnumValForGatherMode(); ++value)
    diag << (value ? ", " : "")
         << stringifyGatherMode(static_cast<GatherMode>(value));
  return {};
}

void GatherModeAttr::print(AsmPrinter &printer) const {
  printer << ' ' << stringifyGatherMode(getValue());
}
