/* Compiled as C99 and run by check-gather: the messages of
 * include/gather-c/Runtime.h, the header hosts format the hooks' errors
 * with. Each shape rule's format takes the op's name and then exactly the
 * values its table entry names, and prints them in that order.
 *
 * RUN: %clang -std=c99 -Wall -Wextra -Werror %s -I%gather_src_root/include -o %t
 * RUN: %t | FileCheck %s
 */

#include "gather-c/Runtime.h"

#include <stdio.h>
#include <string.h>

/* The number of conversions in a printf format (%% is none). */
static int conversions(const char *format) {
  int n = 0;
  for (; *format; ++format)
    if (format[0] == '%') {
      if (format[1] == '%')
        ++format;
      else
        ++n;
    }
  return n;
}

int main(void) {
  char message[256];
  int64_t rule;
  for (rule = 0; rule < GATHER_MLIR_RULE_COUNT; ++rule) {
    const GatherMlirShapeMessage *m = gatherMlirShapeMessage(rule);
    if (m->rule != rule)
      printf("rule %d: the table's entry is rule %d\n", (int)rule,
             (int)m->rule);
    if (conversions(m->format) != 1 + (int)strlen(m->values))
      printf("rule %d: %d conversions for %d values\n", (int)rule,
             conversions(m->format), (int)strlen(m->values));
    gatherMlirFormatShapeError(message, sizeof message,
                               GATHER_MLIR_OP_EMBEDDING_BAG, rule, 2, 5, 7);
    printf("%s\n", message);
  }
  /* An unknown rule gets the batch dimension's message. */
  gatherMlirFormatShapeError(message, sizeof message, GATHER_MLIR_OP_GATHER,
                             99, 2, 5, 7);
  printf("%s\n", message);
  return 0;
}

// CHECK-NOT: rule
// CHECK: gather.embedding_bag: batch dimension 2 has size 5 in data but 7 in indices
// CHECK-NEXT: gather.embedding_bag: indices dimension 2 has size 7, larger than data dimension 2 of size 5
// CHECK-NEXT: gather.embedding_bag: result dimension 2 has size 5, but the operands give 7
// CHECK-NEXT: gather.embedding_bag: unranked operands of rank 5 (data) and 7 (indices) exceed the maximum rank 2 the lowering dispatches on
// CHECK-NEXT: gather.embedding_bag: data of rank 5 and indices of rank 7 do not satisfy the op's rank rules for its attributes
// CHECK-NEXT: gather.embedding_bag: include_last_offset needs at least one offset, but offsets has 5 entries
// CHECK-NEXT: gather.embedding_bag: offsets[0] is 5, but the first bag must start at 0
// CHECK-NEXT: gather.embedding_bag: offsets[2] is 5, less than offsets[1] = 7 (offsets must be non-decreasing)
// CHECK-NEXT: gather.embedding_bag: offsets[2] is 5, past the end of the 7 ids
// CHECK-NEXT: gather.embedding_bag: per_sample_weights dimension 2 has size 5, but ids has 7
// CHECK-NEXT: gather.embedding_bag: rows of 5 bytes are shorter than the 7 bytes of their scale and bias (a row-wise quantized table)
// CHECK-NEXT: gather.embedding_bag: scales dimension 2 has size 5, but the table needs 7
// CHECK-NEXT: gather.embedding_bag: zero_points dimension 2 has size 5, but the table needs 7
// CHECK-NEXT: gather.embedding_bag: updates dimension 2 has size 5, but dest and indices give 7
// CHECK-NEXT: gather.gather: batch dimension 2 has size 5 in data but 7 in indices
