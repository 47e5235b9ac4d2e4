//===- KernelStore.cpp - Compiled kernels kept on disk ----------*- C++ -*-===//
//
// An entry (numbers little-endian):
//
//   offset  0  magic "GMLIRKRN"
//           8  checksum: xxh3_64 of every byte from offset 16 to the end
//          16  format version (u32), flags (u32)
//          24  key length (u64), object length (u64)
//          40  the key, then the object file
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/KernelStore.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

using namespace llvm;
using namespace mlir::gather::runtime;

namespace {
constexpr char kMagic[8] = {'G', 'M', 'L', 'I', 'R', 'K', 'R', 'N'};
constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderSize = 40;
constexpr size_t kChecksummedFrom = 16;
/// Larger files are not entries (kernel objects are tens of kilobytes).
constexpr uint64_t kMaxEntrySize = 256 << 20;
} // namespace

std::optional<std::string> mlir::gather::runtime::getKernelStoreDir() {
  if (const char *dir = std::getenv("GATHER_MLIR_CACHE_DIR"))
    return *dir ? std::optional<std::string>(dir) : std::nullopt;
  SmallString<128> home;
  if (!sys::path::home_directory(home))
    return std::nullopt;
  sys::path::append(home, ".cache", "gather_mlir");
  return std::string(home);
}

//===----------------------------------------------------------------------===//
// The identity of this build
//===----------------------------------------------------------------------===//

namespace {
struct BuildIdSearch {
  uintptr_t address = 0;
  bool found = false;
  std::string id;
};
} // namespace

/// The GNU build ID note of the loaded object that contains
/// `search->address`, if it has one.
static int findBuildId(dl_phdr_info *info, size_t, void *data) {
  auto *search = static_cast<BuildIdSearch *>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    if (segment.p_type == PT_LOAD && search->address >= start &&
        search->address < start + segment.p_memsz)
      contains = true;
  }
  if (!contains)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    auto *p = reinterpret_cast<const char *>(info->dlpi_addr + segment.p_vaddr);
    const char *end = p + segment.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto *note = reinterpret_cast<const ElfW(Nhdr) *>(p);
      const char *name = p + sizeof(ElfW(Nhdr));
      const char *desc = name + alignTo(note->n_namesz, 4);
      if (desc + note->n_descsz > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        raw_string_ostream os(search->id);
        for (uint32_t b = 0; b < note->n_descsz; ++b)
          os << format_hex_no_prefix(static_cast<uint8_t>(desc[b]), 2);
        search->found = true;
        return 1;
      }
      p = desc + alignTo(note->n_descsz, 4);
    }
  }
  return 1;
}

const std::string &mlir::gather::runtime::getBuildIdentity() {
  static const std::string identity = [] {
    BuildIdSearch search;
    search.address = reinterpret_cast<uintptr_t>(&findBuildId);
    dl_iterate_phdr(findBuildId, &search);
    if (search.found)
      return "build-id " + search.id;
    // Without a build ID, any rebuild must still miss old entries.
    Dl_info info;
    struct stat st;
    if (dladdr(reinterpret_cast<void *>(&findBuildId), &info) &&
        info.dli_fname && stat(info.dli_fname, &st) == 0)
      return "file " + std::string(info.dli_fname) + " " +
             std::to_string(st.st_size) + " " + std::to_string(st.st_mtime);
    return std::string("unknown");
  }();
  return identity;
}

//===----------------------------------------------------------------------===//
// Entries
//===----------------------------------------------------------------------===//

/// `dir/<hash of key>.kernel`.
static SmallString<256> entryPath(StringRef dir, StringRef key) {
  SmallString<256> path(dir);
  std::string name;
  raw_string_ostream(name) << format_hex_no_prefix(xxh3_64bits(key), 16)
                           << ".kernel";
  sys::path::append(path, name);
  return path;
}

StoreReadResult mlir::gather::runtime::readStoredKernel(StringRef dir,
                                                        StringRef key,
                                                        StoredKernel &result) {
  SmallString<256> path = entryPath(dir, key);
  uint64_t size;
  if (sys::fs::file_size(path, size))
    return StoreReadResult::Missing;
  if (size < kHeaderSize || size > kMaxEntrySize)
    return StoreReadResult::Rejected;
  // Read, not mapped: nothing another process does to the file can change
  // the bytes once they are checked.
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false,
                            /*IsVolatile=*/true);
  if (!file)
    return StoreReadResult::Missing;
  StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < kHeaderSize ||
      std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return StoreReadResult::Rejected;
  using namespace llvm::support;
  const char *p = bytes.data();
  uint64_t checksum = endian::read64le(p + 8);
  uint32_t version = endian::read32le(p + 16);
  uint32_t flags = endian::read32le(p + 20);
  uint64_t keyLength = endian::read64le(p + 24);
  uint64_t objectLength = endian::read64le(p + 32);
  uint64_t rest = bytes.size() - kHeaderSize;
  if (version != kFormatVersion || keyLength > rest ||
      objectLength != rest - keyLength || objectLength == 0 ||
      bytes.substr(kHeaderSize, keyLength) != key ||
      xxh3_64bits(bytes.drop_front(kChecksummedFrom)) != checksum)
    return StoreReadResult::Rejected;
  result.flags = flags;
  result.object = MemoryBuffer::getMemBufferCopy(
      bytes.drop_front(kHeaderSize + keyLength), path);
  return StoreReadResult::Found;
}

bool mlir::gather::runtime::writeStoredKernel(StringRef dir, StringRef key,
                                              uint32_t flags,
                                              ArrayRef<char> object) {
  std::string entry(kHeaderSize, '\0');
  std::memcpy(entry.data(), kMagic, sizeof(kMagic));
  using namespace llvm::support;
  endian::write32le(entry.data() + 16, kFormatVersion);
  endian::write32le(entry.data() + 20, flags);
  endian::write64le(entry.data() + 24, key.size());
  endian::write64le(entry.data() + 32, object.size());
  entry += key;
  entry.append(object.begin(), object.end());
  endian::write64le(entry.data() + 8,
                    xxh3_64bits(StringRef(entry).drop_front(kChecksummedFrom)));

  if (sys::fs::create_directories(dir))
    return false;
  SmallString<256> path = entryPath(dir, key), temp;
  int fd;
  if (sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, temp))
    return false;
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << entry;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      sys::fs::remove(temp);
      return false;
    }
  }
  // rename() replaces an entry atomically: readers see the old file or the
  // new one, whole (writers of a kernel's key write the same bytes; of a
  // measured choice's, the last one stays).
  if (sys::fs::rename(temp, path)) {
    sys::fs::remove(temp);
    return false;
  }
  return true;
}
