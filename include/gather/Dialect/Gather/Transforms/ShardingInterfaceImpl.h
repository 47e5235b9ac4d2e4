//===- ShardingInterfaceImpl.h - ShardingInterface for the gather ops -*- C++ -*-===//

#ifndef GATHER_DIALECT_GATHER_TRANSFORMS_SHARDINGINTERFACEIMPL_H
#define GATHER_DIALECT_GATHER_TRANSFORMS_SHARDINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace gather {

/// Attaches upstream's ShardingInterface (the shard dialect's) to the gather
/// ops and gather.embedding_bag, so sharding-propagation and shard-partition
/// partition modules whose tables are sharded over a shard.grid: dims that
/// are not gathered pass through; a table split along a gathered dim becomes
/// a local `fill` op on ids shifted by the shard's offset plus a
/// shard.all_reduce (sum).
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_TRANSFORMS_SHARDINGINTERFACEIMPL_H
