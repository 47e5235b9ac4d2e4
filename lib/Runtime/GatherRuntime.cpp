//===- GatherRuntime.cpp - Runtime support of lowered gathers ---*- C++ -*-===//

#include "gather-c/Runtime.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

extern "C" const char *gatherMlirOpName(int64_t op) {
  switch (op) {
  case 0:
    return "gather.gather";
  case 1:
    return "gather.gather_elements";
  case 2:
    return "gather.gather_nd";
  default:
    return "gather op";
  }
}

extern "C" int gatherMlirFormatIndexError(char *buffer, size_t size, int64_t op,
                                          int64_t dataDim, int64_t index,
                                          int64_t dimSize) {
  if (dimSize == 0)
    return std::snprintf(buffer, size,
                         "%s: index %" PRId64 " selects along data dimension "
                         "%" PRId64 ", which is empty (size 0)",
                         gatherMlirOpName(op), index, dataDim);
  return std::snprintf(
      buffer, size,
      "%s: index %" PRId64 " is out of range [%" PRId64 ", %" PRId64
      "] for data dimension %" PRId64 " of size %" PRId64,
      gatherMlirOpName(op), index, -dimSize, dimSize - 1, dataDim, dimSize);
}

extern "C" void gather_mlir_index_error(int64_t op, int64_t dataDim,
                                        int64_t index, int64_t dimSize) {
  char message[256];
  gatherMlirFormatIndexError(message, sizeof(message), op, dataDim, index,
                             dimSize);
  std::fflush(stdout);
  std::fprintf(stderr, "error: %s\n", message);
  std::exit(1);
}
