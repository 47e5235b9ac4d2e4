/*===- gather-c/Runtime.h - The run-time error hooks of lowered gathers -*- C -*-===*\
|*                                                                            *|
|* A lowered gather that cannot run (a `check`-mode index out of range, an    *|
|* index along an empty dimension in `clamp`/`wrap` mode, or operand shapes   *|
|* that break a rule the verifier could not check because a dim was dynamic)  *|
|* calls one of the two hooks below and returns without reading `data`.       *|
|*                                                                            *|
|* `gather-to-llvm` gives every module that calls a hook a weak default       *|
|* definition of it that prints the message below on stderr and exits with 1 *|
|* (what mlir-runner wants), so lowered code needs no library of ours. A host *|
|* that must survive defines the hooks itself (a strong definition wins over  *|
|* the weak one at link time) and turns the call into an error status; the   *|
|* pipeline option `default-error-handlers=false` leaves the hooks undefined  *|
|* for hosts that resolve them another way (a JIT symbol map).                *|
|*                                                                            *|
|* Everything here is header-only: including it links nothing.                *|
|*                                                                            *|
\*===------------------------------------------------------------------------===*/

#ifndef GATHER_C_RUNTIME_H
#define GATHER_C_RUNTIME_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `op` codes the hooks receive. */
enum {
  GATHER_MLIR_OP_GATHER = 0,
  GATHER_MLIR_OP_GATHER_ELEMENTS = 1,
  GATHER_MLIR_OP_GATHER_ND = 2
};

/* The messages, as printf formats. The default hooks print exactly these
 * (after "error: "); the formatters below produce them for hosts. */

/* op name, index, -size, size - 1, data dim, size */
#define GATHER_MLIR_INDEX_ERROR_FORMAT                                         \
  "%s: index %" PRId64 " is out of range [%" PRId64 ", %" PRId64              \
  "] for data dimension %" PRId64 " of size %" PRId64
/* op name, index, data dim */
#define GATHER_MLIR_EMPTY_DIM_ERROR_FORMAT                                     \
  "%s: index %" PRId64 " selects along data dimension %" PRId64               \
  ", which is empty (size 0)"
/* op name, dim, data size, indices size (gather and gather_nd) */
#define GATHER_MLIR_BATCH_DIM_ERROR_FORMAT                                     \
  "%s: batch dimension %" PRId64 " has size %" PRId64                         \
  " in data but %" PRId64 " in indices"
/* op name, dim, indices size, dim, data size (gather_elements) */
#define GATHER_MLIR_ELEMENTS_DIM_ERROR_FORMAT                                  \
  "%s: indices dimension %" PRId64 " has size %" PRId64                       \
  ", larger than data dimension %" PRId64 " of size %" PRId64

/** The op's name for an `op` code. */
static inline const char *gatherMlirOpName(int64_t op) {
  switch (op) {
  case GATHER_MLIR_OP_GATHER:
    return "gather.gather";
  case GATHER_MLIR_OP_GATHER_ELEMENTS:
    return "gather.gather_elements";
  case GATHER_MLIR_OP_GATHER_ND:
    return "gather.gather_nd";
  default:
    return "gather op";
  }
}

/** Writes the message of an index error (at most `size` bytes, NUL
 * terminated); returns the length it wanted, as snprintf does. */
static inline int gatherMlirFormatIndexError(char *buffer, size_t size,
                                             int64_t op, int64_t dataDim,
                                             int64_t index, int64_t dimSize) {
  if (dimSize == 0)
    return snprintf(buffer, size, GATHER_MLIR_EMPTY_DIM_ERROR_FORMAT,
                    gatherMlirOpName(op), index, dataDim);
  return snprintf(buffer, size, GATHER_MLIR_INDEX_ERROR_FORMAT,
                  gatherMlirOpName(op), index, -dimSize, dimSize - 1, dataDim,
                  dimSize);
}

/** Writes the message of a shape error: dimension `dim` of data and indices
 * breaks the op's rule (equal batch dims; for gather_elements, indices no
 * larger than data off the axis). */
static inline int gatherMlirFormatShapeError(char *buffer, size_t size,
                                             int64_t op, int64_t dim,
                                             int64_t dataSize,
                                             int64_t indicesSize) {
  if (op == GATHER_MLIR_OP_GATHER_ELEMENTS)
    return snprintf(buffer, size, GATHER_MLIR_ELEMENTS_DIM_ERROR_FORMAT,
                    gatherMlirOpName(op), dim, indicesSize, dim, dataSize);
  return snprintf(buffer, size, GATHER_MLIR_BATCH_DIM_ERROR_FORMAT,
                  gatherMlirOpName(op), dim, dataSize, indicesSize);
}

/** Called for an index that is out of range (`check`), or along a dimension
 * of size 0 (`check`, `clamp`, `wrap`). */
void gather_mlir_index_error(int64_t op, int64_t dataDim, int64_t index,
                             int64_t dimSize);

/** Called when a shape rule fails at run time (never in `unchecked` mode). */
void gather_mlir_shape_error(int64_t op, int64_t dim, int64_t dataSize,
                             int64_t indicesSize);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_RUNTIME_H */
