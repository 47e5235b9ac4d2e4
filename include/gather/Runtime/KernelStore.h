//===- KernelStore.h - Compiled kernels kept on disk ------------*- C++ -*-===//
//
// The runtime keeps the object file of every kernel it compiles in a
// directory, so that a new process links it instead of compiling it again.
// An entry is one file named after a hash of its key; its header holds the
// whole key, the object's length and a checksum, and a file that does not
// match all of them is ignored (and later replaced), never loaded. Entries
// are written to a temporary file and renamed into place, so readers in
// other processes see a whole entry or none.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELSTORE_H
#define GATHER_RUNTIME_KERNELSTORE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlir::gather::runtime {

/// The directory kernels are kept in: $GATHER_MLIR_CACHE_DIR if it is set
/// (std::nullopt if it is empty: the store is off), else
/// ~/.cache/gather_mlir (std::nullopt without a home directory). Read on
/// every call, so a process may change it.
std::optional<std::string> getKernelStoreDir();

/// What identifies this build of the runtime in a key: the GNU build ID of
/// the binary this code is linked into (the lowering is linked into it
/// too), or its path, size and modification time if it has none.
const std::string &getBuildIdentity();

/// An entry read back.
struct StoredKernel {
  /// The flags it was written with.
  uint32_t flags = 0;
  /// The object file.
  std::unique_ptr<llvm::MemoryBuffer> object;
};

enum class StoreReadResult {
  /// There is no entry for the key.
  Missing,
  /// There is a file where the entry would be, but it is not a valid entry
  /// for the key: truncated, corrupt, of another format or another key.
  Rejected,
  /// The entry was read and checked.
  Found,
};

/// Reads and checks the entry for `key` in `dir` (magic, format version,
/// the whole key, lengths, checksum).
StoreReadResult readStoredKernel(llvm::StringRef dir, llvm::StringRef key,
                                 StoredKernel &result);

/// Writes the entry for `key` atomically, creating `dir` if needed; false if
/// that failed (an unwritable directory is not an error: the kernel is only
/// not kept).
bool writeStoredKernel(llvm::StringRef dir, llvm::StringRef key, uint32_t flags,
                       llvm::ArrayRef<char> object);

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELSTORE_H
