/* The floor of the add scatters that bench/peers.py times: plain C loops
 * of the same memory accesses, with no index check, on one thread. Each
 * copies dest into a new result (as every contestant returns a new array)
 * and adds the updates in row-major order.
 *
 *   clang -O2 -march=native bench/scatter_floor.c -o /tmp/scatter_floor
 *   taskset -c 1 /tmp/scatter_floor
 *
 * Prints the best of 15 runs of each loop in milliseconds. */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t state = 88172645463325252ull;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

/* scatter_add_ of 4096x1024 f32 along axis 1, int64 ids. */
static void elements(float *out, const float *dest, const int64_t *ids,
                     const float *upd, long rows, long cols) {
  memcpy(out, dest, sizeof(float) * rows * cols);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      out[r * cols + ids[r * cols + c]] += upd[r * cols + c];
}

/* index_add of 200000 rows of 64 f32 into 100000 rows. */
static void rows_add(float *out, const float *dest, const int64_t *ids,
                     const float *upd, long n, long num, long dim) {
  memcpy(out, dest, sizeof(float) * num * dim);
  for (long i = 0; i < n; ++i) {
    float *to = out + ids[i] * dim;
    const float *from = upd + i * dim;
    for (long d = 0; d < dim; ++d)
      to[d] += from[d];
  }
}

#define BEST(call)                                                             \
  ({                                                                           \
    double best = 1e30;                                                        \
    for (int k = 0; k < 15; ++k) {                                             \
      double t0 = now();                                                       \
      call;                                                                    \
      double t = now() - t0;                                                   \
      if (t < best)                                                            \
        best = t;                                                              \
    }                                                                          \
    best * 1e3;                                                                \
  })

int main(void) {
  long rows = 4096, cols = 1024, n = rows * cols;
  float *dest = calloc(n, sizeof(float)), *out = malloc(sizeof(float) * n);
  float *upd = malloc(sizeof(float) * n);
  int64_t *ids = malloc(sizeof(int64_t) * n);
  for (long i = 0; i < n; ++i) {
    ids[i] = (int64_t)(next() % cols);
    upd[i] = (float)(next() % 1000) / 1000.0f;
  }
  printf("scatter_elements 4096x1024 f32 axis 1: %.2f ms\n",
         BEST(elements(out, dest, ids, upd, rows, cols)));

  long num = 100000, dim = 64, count = 200000;
  float *table = calloc(num * dim, sizeof(float));
  float *result = malloc(sizeof(float) * num * dim);
  float *grads = malloc(sizeof(float) * count * dim);
  int64_t *rowids = malloc(sizeof(int64_t) * count);
  for (long i = 0; i < count; ++i) {
    /* 1e6 / x - 1 for x uniform in [1, 1e6]: a heavy head of small rows
     * and a long tail, as a Zipf law has. */
    uint64_t x = next() % 1000000 + 1;
    rowids[i] = (int64_t)((1000000 / x - 1) % num);
  }
  for (long i = 0; i < count * dim; ++i)
    grads[i] = (float)(next() % 1000) / 1000.0f;
  printf("index_add 100000x64 f32, 200000 ids: %.2f ms\n",
         BEST(rows_add(result, table, rowids, grads, count, num, dim)));
  return (int)(out[0] + result[0] > 1e30f);
}
