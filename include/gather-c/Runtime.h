/*===- gather-c/Runtime.h - Error hooks of lowered gathers --------*- C -*-===*\
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
  GATHER_MLIR_OP_GATHER_ND = 2,
  GATHER_MLIR_OP_EMBEDDING_BAG = 3,
  GATHER_MLIR_OP_SCATTER = 4,
  GATHER_MLIR_OP_SCATTER_ELEMENTS = 5,
  GATHER_MLIR_OP_SCATTER_ND = 6
};

/* The messages, as printf formats. The default hooks print exactly these
 * (after "error: "); the formatters below produce them for hosts. */

/* op name, index, -size, size - 1, data dim, size */
#define GATHER_MLIR_INDEX_ERROR_FORMAT                                         \
  "%s: index %" PRId64 GATHER_MLIR_INDEX_ERROR_RANGE_FORMAT
/* The same for an unsigned index (a host's uint64 value above INT64_MAX). */
#define GATHER_MLIR_UNSIGNED_INDEX_ERROR_FORMAT                                \
  "%s: index %" PRIu64 GATHER_MLIR_INDEX_ERROR_RANGE_FORMAT
#define GATHER_MLIR_INDEX_ERROR_RANGE_FORMAT                                   \
  " is out of range [%" PRId64 ", %" PRId64 "] for data dimension %" PRId64    \
  " of size %" PRId64
/* op name, index, data dim */
#define GATHER_MLIR_EMPTY_DIM_ERROR_FORMAT                                     \
  "%s: index %" PRId64 GATHER_MLIR_EMPTY_DIM_ERROR_TAIL_FORMAT
#define GATHER_MLIR_UNSIGNED_EMPTY_DIM_ERROR_FORMAT                            \
  "%s: index %" PRIu64 GATHER_MLIR_EMPTY_DIM_ERROR_TAIL_FORMAT
#define GATHER_MLIR_EMPTY_DIM_ERROR_TAIL_FORMAT                                \
  " selects along data dimension %" PRId64 ", which is empty (size 0)"
/* Shape rules, the `rule` argument of gather_mlir_shape_error. */
enum {
  /* data.shape[dim] == indices.shape[dim] (a = data's, b = indices' size) */
  GATHER_MLIR_RULE_BATCH_DIM = 0,
  /* indices.shape[dim] <= data.shape[dim] (gather_elements; same a, b) */
  GATHER_MLIR_RULE_ELEMENTS_DIM = 1,
  /* the result's dim has the size the operands give (a = the result's) */
  GATHER_MLIR_RULE_RESULT_DIM = 2,
  /* unranked operands: ranks a (data), b (indices) within dim (the maximum) */
  GATHER_MLIR_RULE_RANK_LIMIT = 3,
  /* unranked operands: ranks a (data), b (indices) fit the op's rules */
  GATHER_MLIR_RULE_RANKS = 4,
  /* embedding bags: include_last_offset needs an offset (a = offsets' size) */
  GATHER_MLIR_RULE_OFFSETS_COUNT = 5,
  /* offsets[0] == 0 (a = offsets[0]) */
  GATHER_MLIR_RULE_OFFSETS_FIRST = 6,
  /* offsets[dim] >= offsets[dim - 1] (a = offsets[dim], b = offsets[dim-1]) */
  GATHER_MLIR_RULE_OFFSETS_ORDER = 7,
  /* offsets[dim] <= the number of ids (a = offsets[dim], b = that number) */
  GATHER_MLIR_RULE_OFFSETS_END = 8,
  /* per_sample_weights.shape[dim] == ids.shape[dim] (a = weights', b = ids') */
  GATHER_MLIR_RULE_SAMPLE_WEIGHTS_DIM = 9,
  /* a row-wise quantized table's rows hold their scale and bias (a = the
     row's bytes, b = theirs) */
  GATHER_MLIR_RULE_ROW_BYTES = 10,
  /* a block-quantized table's scales.shape[dim] (a) is what the table
     needs (b) */
  GATHER_MLIR_RULE_SCALES_DIM = 11,
  /* its zero_points.shape[dim] (a) is what the table needs (b) */
  GATHER_MLIR_RULE_ZERO_POINTS_DIM = 12,
  /* a scatter's updates.shape[dim] (a) is the gather's result dim for dest
     and indices (b) */
  GATHER_MLIR_RULE_UPDATES_DIM = 13,
  /* the number of rules above */
  GATHER_MLIR_RULE_COUNT = 14
};

#define GATHER_MLIR_BATCH_DIM_ERROR_FORMAT                                     \
  "%s: batch dimension %" PRId64 " has size %" PRId64 " in data but %" PRId64  \
  " in indices"
#define GATHER_MLIR_ELEMENTS_DIM_ERROR_FORMAT                                  \
  "%s: indices dimension %" PRId64 " has size %" PRId64                        \
  ", larger than data dimension %" PRId64 " of size %" PRId64
#define GATHER_MLIR_RESULT_DIM_ERROR_FORMAT                                    \
  "%s: result dimension %" PRId64 " has size %" PRId64                         \
  ", but the operands give %" PRId64
#define GATHER_MLIR_RANK_LIMIT_ERROR_FORMAT                                    \
  "%s: unranked operands of rank %" PRId64 " (data) and %" PRId64              \
  " (indices) exceed the maximum rank %" PRId64 " the lowering dispatches on"
#define GATHER_MLIR_RANKS_ERROR_FORMAT                                         \
  "%s: data of rank %" PRId64 " and indices of rank %" PRId64                  \
  " do not satisfy the op's rank rules for its attributes"

#define GATHER_MLIR_OFFSETS_COUNT_ERROR_FORMAT                                 \
  "%s: include_last_offset needs at least one offset, but offsets has "        \
  "%" PRId64 " entries"
#define GATHER_MLIR_OFFSETS_FIRST_ERROR_FORMAT                                 \
  "%s: offsets[0] is %" PRId64 ", but the first bag must start at 0"
#define GATHER_MLIR_OFFSETS_ORDER_ERROR_FORMAT                                 \
  "%s: offsets[%" PRId64 "] is %" PRId64 ", less than offsets[%" PRId64        \
  "] = %" PRId64 " (offsets must be non-decreasing)"
/* clang-format would split "ids" to fit the line. */
/* clang-format off */
#define GATHER_MLIR_OFFSETS_END_ERROR_FORMAT                                   \
  "%s: offsets[%" PRId64 "] is %" PRId64 ", past the end of the %" PRId64     \
  " ids"
/* clang-format on */
#define GATHER_MLIR_SAMPLE_WEIGHTS_DIM_ERROR_FORMAT                            \
  "%s: per_sample_weights dimension %" PRId64 " has size %" PRId64             \
  ", but ids has %" PRId64

#define GATHER_MLIR_ROW_BYTES_ERROR_FORMAT                                     \
  "%s: rows of %" PRId64 " bytes are shorter than the %" PRId64                \
  " bytes of their scale and bias (a row-wise quantized table)"

#define GATHER_MLIR_SCALES_DIM_ERROR_FORMAT                                    \
  "%s: scales dimension %" PRId64 " has size %" PRId64                         \
  ", but the table needs %" PRId64
#define GATHER_MLIR_ZERO_POINTS_DIM_ERROR_FORMAT                               \
  "%s: zero_points dimension %" PRId64 " has size %" PRId64                    \
  ", but the table needs %" PRId64

#define GATHER_MLIR_UPDATES_DIM_ERROR_FORMAT                                   \
  "%s: updates dimension %" PRId64 " has size %" PRId64                        \
  ", but dest and indices give %" PRId64

/** The op's name for an `op` code. */
static inline const char *gatherMlirOpName(int64_t op) {
  switch (op) {
  case GATHER_MLIR_OP_GATHER:
    return "gather.gather";
  case GATHER_MLIR_OP_GATHER_ELEMENTS:
    return "gather.gather_elements";
  case GATHER_MLIR_OP_GATHER_ND:
    return "gather.gather_nd";
  case GATHER_MLIR_OP_EMBEDDING_BAG:
    return "gather.embedding_bag";
  case GATHER_MLIR_OP_SCATTER:
    return "gather.scatter";
  case GATHER_MLIR_OP_SCATTER_ELEMENTS:
    return "gather.scatter_elements";
  case GATHER_MLIR_OP_SCATTER_ND:
    return "gather.scatter_nd";
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

/** The same for an unsigned index value (a host's uint64 indices). */
static inline int gatherMlirFormatUnsignedIndexError(char *buffer, size_t size,
                                                     int64_t op,
                                                     int64_t dataDim,
                                                     uint64_t index,
                                                     int64_t dimSize) {
  if (dimSize == 0)
    return snprintf(buffer, size, GATHER_MLIR_UNSIGNED_EMPTY_DIM_ERROR_FORMAT,
                    gatherMlirOpName(op), index, dataDim);
  return snprintf(buffer, size, GATHER_MLIR_UNSIGNED_INDEX_ERROR_FORMAT,
                  gatherMlirOpName(op), index, -dimSize, dimSize - 1, dataDim,
                  dimSize);
}

/* A shape rule's message: its format, and what it prints after the op's
 * name, one letter a value in the order printed ('d': dim, 'a': a, 'b': b,
 * 'p': dim - 1; gatherMlirShapeValueSlot). The default hook and
 * gatherMlirFormatShapeError both read this table. */
typedef struct {
  int64_t rule;
  const char *format;
  const char *values;
} GatherMlirShapeMessage;

/** The message of rule `rule` (GATHER_MLIR_RULE_*); an unknown rule gets
 * the batch dimension's. */
static inline const GatherMlirShapeMessage *
gatherMlirShapeMessage(int64_t rule) {
  static const GatherMlirShapeMessage messages[] = {
      {GATHER_MLIR_RULE_BATCH_DIM, GATHER_MLIR_BATCH_DIM_ERROR_FORMAT, "dab"},
      {GATHER_MLIR_RULE_ELEMENTS_DIM, GATHER_MLIR_ELEMENTS_DIM_ERROR_FORMAT,
       "dbda"},
      {GATHER_MLIR_RULE_RESULT_DIM, GATHER_MLIR_RESULT_DIM_ERROR_FORMAT, "dab"},
      {GATHER_MLIR_RULE_RANK_LIMIT, GATHER_MLIR_RANK_LIMIT_ERROR_FORMAT, "abd"},
      {GATHER_MLIR_RULE_RANKS, GATHER_MLIR_RANKS_ERROR_FORMAT, "ab"},
      {GATHER_MLIR_RULE_OFFSETS_COUNT, GATHER_MLIR_OFFSETS_COUNT_ERROR_FORMAT,
       "a"},
      {GATHER_MLIR_RULE_OFFSETS_FIRST, GATHER_MLIR_OFFSETS_FIRST_ERROR_FORMAT,
       "a"},
      {GATHER_MLIR_RULE_OFFSETS_ORDER, GATHER_MLIR_OFFSETS_ORDER_ERROR_FORMAT,
       "dapb"},
      {GATHER_MLIR_RULE_OFFSETS_END, GATHER_MLIR_OFFSETS_END_ERROR_FORMAT,
       "dab"},
      {GATHER_MLIR_RULE_SAMPLE_WEIGHTS_DIM,
       GATHER_MLIR_SAMPLE_WEIGHTS_DIM_ERROR_FORMAT, "dab"},
      {GATHER_MLIR_RULE_ROW_BYTES, GATHER_MLIR_ROW_BYTES_ERROR_FORMAT, "ab"},
      {GATHER_MLIR_RULE_SCALES_DIM, GATHER_MLIR_SCALES_DIM_ERROR_FORMAT, "dab"},
      {GATHER_MLIR_RULE_ZERO_POINTS_DIM,
       GATHER_MLIR_ZERO_POINTS_DIM_ERROR_FORMAT, "dab"},
      {GATHER_MLIR_RULE_UPDATES_DIM, GATHER_MLIR_UPDATES_DIM_ERROR_FORMAT,
       "dab"}};
  size_t i;
  for (i = 0; i < sizeof messages / sizeof messages[0]; ++i)
    if (messages[i].rule == rule)
      return &messages[i];
  return &messages[0];
}

/** Where a letter of GatherMlirShapeMessage::values finds its value in
 * {dim, a, b, dim - 1}. */
static inline int gatherMlirShapeValueSlot(char which) {
  switch (which) {
  case 'd':
    return 0;
  case 'a':
    return 1;
  case 'b':
    return 2;
  default: /* 'p' */
    return 3;
  }
}

/** Writes the message of a shape error: rule `rule` (GATHER_MLIR_RULE_*)
 * fails for `dim`, `a` and `b`. */
static inline int gatherMlirFormatShapeError(char *buffer, size_t size,
                                             int64_t op, int64_t rule,
                                             int64_t dim, int64_t a,
                                             int64_t b) {
  const GatherMlirShapeMessage *message = gatherMlirShapeMessage(rule);
  /* dim - 1 wraps as the default hook's subtraction does. */
  const int64_t slots[4] = {dim, a, b, (int64_t)((uint64_t)dim - 1)};
  int64_t values[4] = {0, 0, 0, 0};
  int i;
  for (i = 0; i < 4 && message->values[i]; ++i)
    values[i] = slots[gatherMlirShapeValueSlot(message->values[i])];
  /* The format prints as many values as it names; the rest are unused. */
  return snprintf(buffer, size, message->format, gatherMlirOpName(op),
                  values[0], values[1], values[2], values[3]);
}

/** Called for an index that is out of range (`check`), or along a dimension
 * of size 0 (`check`, `clamp`, `wrap`). */
void gather_mlir_index_error(int64_t op, int64_t dataDim, int64_t index,
                             int64_t dimSize);

/** Called when a shape rule fails at run time (never in `unchecked` mode,
 * except for the ranks of unranked operands, which every mode checks). */
void gather_mlir_shape_error(int64_t op, int64_t rule, int64_t dim, int64_t a,
                             int64_t b);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_RUNTIME_H */
