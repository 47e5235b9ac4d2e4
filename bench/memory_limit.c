/* The memory limit the benchmarks hold a gather against: a copy of the
 * result's bytes with non-temporal stores (whole 64-byte lines written
 * past the caches, no read for ownership), on `threads` OpenMP threads
 * (the runtime gather_mlir's kernels use) when it moves at least 1 MiB.
 * bench/memory_limit.py compiles it for the host. */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef float line_half __attribute__((vector_size(32)));

void nt_copy(char *dst, const char *src, size_t bytes, int threads) {
  size_t head = (size_t)(-(uintptr_t)dst) & 63;
  if (head > bytes)
    head = bytes;
  memcpy(dst, src, head);
  char *to = dst + head;
  const char *from = src + head;
  long lines = (long)((bytes - head) / 64);
#pragma omp parallel for num_threads(threads)                                  \
    schedule(static) if (bytes >= (1 << 20))
  for (long i = 0; i < lines; ++i) {
    line_half a, b;
    memcpy(&a, from + 64 * i, 32);
    memcpy(&b, from + 64 * i + 32, 32);
    __builtin_nontemporal_store(a, (line_half *)(to + 64 * i));
    __builtin_nontemporal_store(b, (line_half *)(to + 64 * i + 32));
  }
  size_t done = head + 64 * (size_t)lines;
  memcpy(dst + done, src + done, bytes - done);
  /* Non-temporal stores are weakly ordered: fence before the caller reads. */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
