/*===- gather-c/Runtime.h - Runtime support of lowered gathers ----*- C -*-===*\
|*                                                                            *|
|* Lowered `check`-mode gathers (and `clamp`/`wrap` ones along an empty       *|
|* dimension) call gather_mlir_index_error instead of reading out of bounds,  *|
|* then return without gathering. libGatherRuntime.so defines it to print the *|
|* message on stderr and exit(1), which is what mlir-runner wants; a host     *|
|* that must survive defines its own (e.g. registers it with the JIT) and     *|
|* turns the call into an error status.                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GATHER_C_RUNTIME_H
#define GATHER_C_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `op` codes of the hook: 0 gather.gather, 1 gather.gather_elements,
/// 2 gather.gather_nd.
const char *gatherMlirOpName(int64_t op);

/// Writes the message for an index error (at most `size` bytes, NUL
/// terminated); returns the length it wanted, as snprintf does.
int gatherMlirFormatIndexError(char *buffer, size_t size, int64_t op,
                               int64_t dataDim, int64_t index, int64_t dimSize);

/// The hook lowered kernels call: prints the message and exits with 1.
void gather_mlir_index_error(int64_t op, int64_t dataDim, int64_t index,
                             int64_t dimSize);

#ifdef __cplusplus
}
#endif

#endif /* GATHER_C_RUNTIME_H */
