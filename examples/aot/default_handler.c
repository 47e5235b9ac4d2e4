/*===- default_handler.c - An AOT kernel with its default error hook -----===*\
|*                                                                            *|
|* Links embedding.mlir's object alone (no GatherMLIR library, no hook of its *|
|* own): a bad id makes the kernel's weak default gather_mlir_index_error     *|
|* print the error on stderr and exit with status 1.                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *basePtr, *data;
  int64_t offset, sizes[2], strides[2];
} Table;
typedef struct {
  int64_t *basePtr, *data;
  int64_t offset, sizes[1], strides[1];
} Ids;

void _mlir_ciface_embedding_lookup(Table *result, Table *table, Ids *ids);

int main(int argc, char **argv) {
  float values[2 * 2] = {1, 2, 3, 4};
  int64_t id = argc > 1 ? atoll(argv[1]) : 0;
  Table table = {values, values, 0, {2, 2}, {2, 1}};
  Ids ids = {&id, &id, 0, {1}, {1}};
  Table result;
  _mlir_ciface_embedding_lookup(&result, &table, &ids);
  printf("row: %g %g\n", result.data[0], result.data[1]);
  free(result.basePtr);
  return 0;
}
