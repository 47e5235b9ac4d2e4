//===- host.cpp - Sharded embedding kernels under mpirun --------*- C++ -*-===//
//
// The host of run.sh: each process allocates only its rows of the table
// (rows [rank * ROWS / N, (rank + 1) * ROWS / N)), fills them, and calls the
// kernels of embedding-sharded.mlir (or, with one process, those of
// embedding.mlir on the whole table) through their C interface. Every
// process draws the same ids. Rank 0 writes both results to the directory
// given as argv[1] and prints each process's share of the table, its peak
// resident memory, and the kernels' times (the slowest process's, median of
// REPEAT calls).
//
// Built by run.sh with ROWS, DIM, LOOKUPS, BAG_IDS, BAGS and REPEAT defined
// as the module's sizes.
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using Table = StridedMemRefType<float, 2>;
using Ids = StridedMemRefType<int64_t, 1>;

extern "C" void _mlir_ciface_lookup(Table *result, Table *table, Ids *ids);
extern "C" void _mlir_ciface_bag(Table *result, Table *table, Ids *ids,
                                 Ids *offsets);

/// A table value that every process computes alike from the global row:
/// small integers, so that sums are exact in any order.
static float value(int64_t row, int64_t col) {
  return static_cast<float>((row * 31 + col * 7) % 8191);
}

/// splitmix64: the same stream on every process.
static uint64_t next(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Ids in [-ROWS, ROWS): every eighth counts from the end.
static std::vector<int64_t> drawIds(uint64_t &state, int64_t count) {
  std::vector<int64_t> ids(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t id = static_cast<int64_t>(next(state) % ROWS);
    ids[i] = i % 8 == 7 ? id - ROWS : id;
  }
  return ids;
}

static Ids view(std::vector<int64_t> &v) {
  return {v.data(), v.data(), 0, {static_cast<int64_t>(v.size())}, {1}};
}

/// Calls `kernel` REPEAT times after one warm-up call and returns the
/// median over calls of the slowest process's time, in ms; `keep` receives
/// the last result (the caller frees it).
template <typename Kernel>
static double timeKernel(Kernel kernel, Table &keep) {
  std::vector<double> times;
  for (int call = 0; call <= REPEAT; ++call) {
    Table result;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    kernel(result);
    double mine = MPI_Wtime() - start, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (call > 0)
      times.push_back(slowest * 1e3);
    if (call < REPEAT)
      std::free(result.basePtr);
    else
      keep = result;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

static bool write(const std::string &path, const Table &result) {
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return false;
  // Results are contiguous rows (identity layout).
  size_t count = result.sizes[0] * result.sizes[1];
  bool ok = std::fwrite(result.data + result.offset, sizeof(float), count,
                        file) == count;
  return std::fclose(file) == 0 && ok;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2 || ROWS % size != 0) {
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: mpirun -np N %s OUTPUT_DIR (N divides %lld)\n",
                   argv[0], static_cast<long long>(ROWS));
    MPI_Finalize();
    return 2;
  }

  // This process's rows only.
  int64_t rows = ROWS / size, first = rank * rows;
  std::vector<float> shard(static_cast<size_t>(rows) * DIM);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < DIM; ++c)
      shard[r * DIM + c] = value(first + r, c);
  Table table{shard.data(), shard.data(), 0, {rows, DIM}, {DIM, 1}};

  uint64_t state = 2026;
  std::vector<int64_t> lookupIds = drawIds(state, LOOKUPS);
  std::vector<int64_t> bagIds = drawIds(state, BAG_IDS);
  // Bags of random lengths (some empty): sorted cut points from 0.
  std::vector<int64_t> offsets(BAGS);
  for (int64_t b = 1; b < BAGS; ++b)
    offsets[b] = static_cast<int64_t>(next(state) % (BAG_IDS + 1));
  std::sort(offsets.begin(), offsets.end());
  Ids lookupView = view(lookupIds), bagView = view(bagIds),
      offsetsView = view(offsets);

  Table lookupResult, bagResult;
  double lookupMs = timeKernel(
      [&](Table &r) { _mlir_ciface_lookup(&r, &table, &lookupView); },
      lookupResult);
  double bagMs = timeKernel(
      [&](Table &r) { _mlir_ciface_bag(&r, &table, &bagView, &offsetsView); },
      bagResult);

  rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double peakMiB = usage.ru_maxrss / 1024.0;
  std::vector<double> peaks(size);
  MPI_Gather(&peakMiB, 1, MPI_DOUBLE, peaks.data(), 1, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);

  int status = 0;
  if (rank == 0) {
    double tableMiB = ROWS * DIM * sizeof(float) / 1048576.0;
    std::printf("N=%d: table %lldx%lld f32 (%.0f MiB), %.0f MiB per process\n",
                size, static_cast<long long>(ROWS), static_cast<long long>(DIM),
                tableMiB, tableMiB / size);
    for (int p = 0; p < size; ++p)
      std::printf("  rank %d: rows [%lld, %lld), peak resident %.0f MiB\n", p,
                  static_cast<long long>(p * rows),
                  static_cast<long long>((p + 1) * rows), peaks[p]);
    std::printf("  lookup of %lld ids: %.2f ms; sum bag of %lld bags, %lld "
                "ids: %.2f ms (median of %d, slowest process)\n",
                static_cast<long long>(LOOKUPS), lookupMs,
                static_cast<long long>(BAGS), static_cast<long long>(BAG_IDS),
                bagMs, REPEAT);
    std::string dir = argv[1];
    if (!write(dir + "/lookup.f32", lookupResult) ||
        !write(dir + "/bag.f32", bagResult)) {
      std::fprintf(stderr, "cannot write the results to %s\n", dir.c_str());
      status = 1;
    }
  }
  std::free(lookupResult.basePtr);
  std::free(bagResult.basePtr);
  MPI_Finalize();
  return status;
}
