//===- ShardingInterfaceImpl.h - Sharding of the gather ops -----*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_SHARDINGINTERFACEIMPL_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_SHARDINGINTERFACEIMPL_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class Operation;
namespace gather {

/// Attaches upstream's ShardingInterface (the shard dialect's) to the gather
/// ops and gather.embedding_bag, so sharding-propagation and shard-partition
/// partition modules whose tables are sharded over a shard.grid: dims that
/// are not gathered pass through; a table split along a gathered dim becomes
/// a local `fill` op on ids shifted by the shard's offset plus a
/// shard.all_reduce (sum).
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

/// Checks that the shard.shard annotations around `op` (a gather op or
/// gather.embedding_bag; other ops succeed), as shard-partition reads them
/// after sharding-propagation, split each of its loops one way and use a
/// grid axis for one loop at most. LLVM 22's shard-partition crashes on
/// annotations that do not; this emits an error on `op` instead.
LogicalResult verifyPartitionableShardings(Operation *op);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_SHARDINGINTERFACEIMPL_H
