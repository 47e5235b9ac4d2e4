//===- gather-fuzz.cpp - libFuzzer target of the compiler -------*- C++ -*-===//
//
// Input: MLIR text. It is parsed with the upstream dialects and the gather
// dialect registered (as gather-opt registers them), verified, and then each
// of these runs on its own clone of the module:
//   --canonicalize
//   --gather-shape-inference (with and without refine-function-signatures)
//   --gather-warn-constant-indices
//   --convert-tensor-to-gather (mode from the hash)
//   --convert-gather-to-linalg, then --canonicalize
//   --convert-embedding-bag-to-scf, then --canonicalize
//   --one-shot-bufferize (bufferize-function-boundaries: the gathers' and
//   the scatters' bufferization models)
//   --gather-dispatch-unranked --convert-gather-to-loops (options from the
//   hash), then --canonicalize
//   --gather-to-llvm (options picked from a hash of the input)
//   --canonicalize, then --gather-to-llvm (constants that folding exposes
//     behind casts and slices reach the kernels)
//   with a transform schedule in the input (`@__transform_main`, as the
//   tiling tests hold): --transform-interpreter, then --gather-to-llvm on
//   the payload (the schedule removed; the passes above see the payload
//   only)
// A module with shard annotations (tables of any element type split over a
// grid, extra annotations on the ids and the results) runs only
//   --gather-shard-partition, then --gather-to-llvm
// and what it lowers must hold no shard op any more (the LLVM tools could
// not read it).
// After --gather-to-llvm, a masked load, store, gather or scatter of a bf16
// or f16 vector is a finding too: some hosts' instruction selection cannot
// lower them.
// A custom mutator also swaps whole numbers for extreme ones (huge dims,
// INT64_MIN indices) that byte mutations rarely make.
// Diagnostics are swallowed: a parse, verify or pass failure is a normal
// outcome. A crash, an abort, an ASan or UBSan report is a finding, and so is
// a pass that succeeds but leaves IR that does not verify (the fuzzer aborts
// and names the pass), unless a scatter of the input must fail when it runs
// and canonicalization's cast folding shows it (failsOnceRefined).
//
// Reproduce a finding: `gather-fuzz crash-<sha1>` (GATHER_FUZZ_VERBOSE=1
// prints each pipeline as a gather-opt flag), or `gather-opt` with that flag.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherToLoops/GatherToLoops.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/InitAll.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// Inputs longer than this are not parsed (libFuzzer's -max_len is the
/// first cap; this one holds when the target is run by hand).
constexpr size_t kMaxInputBytes = 16 * 1024;

/// The dialects the fuzzed pipelines take as input. A module with an op of
/// any other dialect is rejected, so the fuzzer does not spend its time (and
/// report its crashes) in upstream dialects the gather pipeline never sees.
const llvm::StringSet<> &pipelineDialects() {
  static const llvm::StringSet<> names = {
      "builtin", "func",   "arith", "tensor", "bufferization", "memref",
      "linalg",  "affine", "scf",   "cf",     "vector",        "complex",
      "index",   "math",   "ub",    "gather", "shard",         "transform"};
  return names;
}

/// Whether `text` uses a result number of 65536 or more (`%name#N`).
/// Upstream's parser (MLIR 22.1.8) grows a vector of placeholders to such a
/// number before it checks it against the op's results, and runs out of
/// memory (test/fuzz-crashes/upstream-parser-huge-result-number.mlir, the
/// open finding; depending on N libFuzzer or ASan reports it, under two
/// signatures). Such inputs are not parsed: nothing of ours runs before.
bool usesHugeResultNumber(llvm::StringRef text) {
  auto isNameChar = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == '$' || c == '.' || c == '-';
  };
  for (size_t at = text.find('#'); at != llvm::StringRef::npos;
       at = text.find('#', at + 1)) {
    size_t start = at;
    while (start > 0 && isNameChar(text[start - 1]))
      --start;
    if (start == at || start == 0 || text[start - 1] != '%')
      continue;
    llvm::StringRef digits = text.drop_front(at + 1).take_while(
        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (digits.size() > 5 ||
        (!digits.empty() && std::stoul(digits.str()) >= 65536))
      return true;
  }
  return false;
}

/// Whether `text` gives an `iterator_types` list an element that is neither
/// a string nor an attribute (`[4294967296]`). linalg.generic's parser
/// (MLIR 22.1.8) crashes while it formats its diagnostic for that
/// (test/fuzz-crashes/upstream-generic-iterator-types.mlir), so such
/// inputs are not parsed.
bool usesMalformedIteratorTypes(llvm::StringRef text) {
  for (size_t at = text.find("iterator_types"); at != llvm::StringRef::npos;
       at = text.find("iterator_types", at + 1)) {
    llvm::StringRef rest =
        text.drop_front(at + strlen("iterator_types")).ltrim();
    if (!rest.consume_front("="))
      continue;
    rest = rest.ltrim();
    if (!rest.consume_front("["))
      continue;
    // Each element at bracket depth 0 must start as a string or an
    // attribute does.
    int depth = 0;
    bool atElement = true;
    for (char c : rest) {
      if (atElement && !std::isspace(static_cast<unsigned char>(c))) {
        if (c == ']')
          break;
        if (c != '"' && c != '#')
          return true;
        atElement = false;
      }
      if (c == '[' || c == '<' || c == '(' || c == '{')
        ++depth;
      else if (c == '>' || c == ')' || c == '}' || (c == ']' && depth > 0))
        --depth;
      else if (c == ']')
        break;
      else if (c == ',' && depth == 0)
        atElement = true;
    }
  }
  return false;
}

const DialectRegistry &registry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry;
    registerAllDialects(*r);
    registerAllExtensions(*r);
    gather::registerAllGatherDialects(*r);
    return r;
  }();
  return *registry;
}

bool verbose() {
  static const bool on = std::getenv("GATHER_FUZZ_VERBOSE") != nullptr;
  return on;
}

/// Whether some scatter, once each operand is its tensor.casts' most
/// static source (what the tensor dialect's canonicalization folds into
/// every destination-style op), breaks a rule it can be seen to break only
/// then: such an op must fail when it runs, and canonicalization turns that
/// run-time error into a verifier error, as for upstream's linalg ops.
bool failsOnceRefined(ModuleOp module) {
  bool fails = false;
  module.walk([&](gather::ScatterOpInterface scatter) {
    Operation *op = scatter.getOperation();
    if (!tensor::hasFoldableTensorCastOperand(op))
      return WalkResult::advance();
    // The canonicalization's own rewrite, on a copy, until no cast folds.
    OpBuilder b(op);
    Operation *copy = b.clone(*op);
    while (tensor::hasFoldableTensorCastOperand(copy)) {
      SmallVector<Type> resultTypes(copy->getResultTypes());
      SmallVector<Value> operands =
          tensor::getUpdatedOperandsAfterCastOpFolding(
              cast<DestinationStyleOpInterface>(copy), resultTypes);
      copy->setOperands(operands);
      copy->getResult(0).setType(resultTypes[0]);
    }
    fails = failed(verify(copy));
    copy->erase();
    return fails ? WalkResult::interrupt() : WalkResult::advance();
  });
  return fails;
}

/// Set per input: its scatters fail once refined (failsOnceRefined), so
/// invalid IR after canonicalization is that run-time error, not a finding.
bool refinedOpsFail = false;

/// A successful pass must leave valid IR: the pass manager's own verifier
/// would turn invalid IR into a quiet failure, so verify here and abort.
struct AbortOnInvalidIR : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "gather-fuzz: pass '" << pass->getArgument()
                 << "' succeeded but produced IR that does not verify\n";
    std::abort();
  }
};

/// Runs the passes that `build` adds on a clone of `module`; returns the
/// clone when they succeed.
template <typename BuildFn>
OwningOpRef<ModuleOp> runOnClone(MLIRContext &ctx, ModuleOp module,
                                 BuildFn build) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(&ctx, ModuleOp::getOperationName());
  pm.enableVerifier(refinedOpsFail);
  if (!refinedOpsFail)
    pm.addInstrumentation(std::make_unique<AbortOnInvalidIR>());
  build(pm);
  if (verbose()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    pm.printAsTextualPipeline(os);
    llvm::errs() << "gather-fuzz: --pass-pipeline='" << text << "'\n";
  }
  if (failed(pm.run(*clone)))
    return nullptr;
  return clone;
}

bool hasShardOp(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return op->getName().getDialectNamespace() == "shard"
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// gather-to-llvm's output must not hold a masked memory intrinsic of bf16
/// or f16 vectors (gather-legalize-masked-memory makes them i16 ones).
void checkLowered(ModuleOp lowered) {
  lowered.walk([](Operation *op) {
    if (!isa<LLVM::MaskedLoadOp, LLVM::MaskedStoreOp, LLVM::masked_gather,
             LLVM::masked_scatter, LLVM::masked_expandload,
             LLVM::masked_compressstore>(op))
      return;
    auto is16BitFloats = [](Type type) {
      auto vector = dyn_cast<VectorType>(type);
      return vector && isa<BFloat16Type, Float16Type>(vector.getElementType());
    };
    if (llvm::any_of(op->getOperandTypes(), is16BitFloats) ||
        llvm::any_of(op->getResultTypes(), is16BitFloats)) {
      llvm::errs() << "gather-fuzz: gather-to-llvm left " << op->getName()
                   << " of a 16-bit float vector\n";
      std::abort();
    }
  });
}

/// Whether `op` is a transform schedule: a transform op, or a module of
/// them (`transform.with_named_sequence`).
bool isSchedule(Operation *op) {
  return isa_and_present<transform::TransformDialect>(op->getDialect()) ||
         (isa<ModuleOp>(op) &&
          op->hasAttr(transform::TransformDialect::kWithNamedSequenceAttrName));
}

/// Whether `module` holds a transform schedule.
bool hasSchedule(ModuleOp module) {
  return module
      ->walk([](Operation *op) {
        return isSchedule(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Removes the transform schedules from `module`, leaving the payload.
void eraseSchedules(ModuleOp module) {
  SmallVector<Operation *> schedules;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module.getOperation() && isSchedule(op)) {
      schedules.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  for (Operation *op : schedules)
    op->erase();
  module->removeAttr(transform::TransformDialect::kWithNamedSequenceAttrName);
}

bool hasGatherOp(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name.starts_with("gather.") || name == "tensor.gather") {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

bool onlyPipelineDialects(ModuleOp module) {
  const llvm::StringSet<> &allowed = pipelineDialects();
  return !module
              .walk([&](Operation *op) {
                return allowed.contains(op->getName().getDialectNamespace())
                           ? WalkResult::advance()
                           : WalkResult::interrupt();
              })
              .wasInterrupted();
}

/// Numbers that break shape and index arithmetic: zero, one, powers of two
/// whose products overflow int64, the int64 extremes, and a dynamic dim.
constexpr const char *kInterestingNumbers[] = {"0",
                                               "1",
                                               "2",
                                               "3",
                                               "-1",
                                               "-2",
                                               "?",
                                               "65536",
                                               "2147483648",
                                               "4294967296",
                                               "4611686018427387904",
                                               "9223372036854775807",
                                               "-9223372036854775808"};

} // namespace

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

/// Byte-level mutations seldom turn a dim or an index of valid IR into
/// another valid but extreme number: one mutation in four replaces a whole
/// number of the input (or every occurrence of it) by one of
/// kInterestingNumbers instead.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::minstd_rand rng(seed);
  if (rng() % 4 != 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::vector<std::pair<size_t, size_t>> numbers;
  for (size_t i = 0; i < size;) {
    if (!std::isdigit(data[i])) {
      ++i;
      continue;
    }
    size_t begin = (i > 0 && data[i - 1] == '-') ? i - 1 : i;
    while (i < size && std::isdigit(data[i]))
      ++i;
    numbers.emplace_back(begin, i);
  }
  if (numbers.empty())
    return LLVMFuzzerMutate(data, size, maxSize);
  auto [begin, end] = numbers[rng() % numbers.size()];
  std::string replacement =
      kInterestingNumbers[rng() % std::size(kInterestingNumbers)];
  std::string text(reinterpret_cast<const char *>(data), size);
  // A type is spelled at each use (signature, op, result): half the time
  // replace every occurrence of the number, so that the IR still parses.
  std::string original = text.substr(begin, end - begin);
  bool everywhere = rng() % 2 == 0;
  for (auto it = numbers.rbegin(); it != numbers.rend(); ++it)
    if (it->first == begin ||
        (everywhere &&
         text.compare(it->first, it->second - it->first, original) == 0))
      text.replace(it->first, it->second - it->first, replacement);
  if (text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

/// A transform op that takes a body but has none: NamedSequenceOp's
/// verifier reads the missing block.
bool isBodilessTransform(Operation *op) {
  return isa_and_present<transform::TransformDialect>(op->getDialect()) &&
         ((op->hasTrait<OpTrait::OneRegion>() && op->getNumRegions() != 1) ||
          llvm::any_of(op->getRegions(),
                       [](Region &region) { return region.empty(); }));
}

/// tile_using_for(all) with a negative tile size or thread count, or a
/// dynamic one with no handle to give it (the transform builds slices of
/// negative size or reads a missing operand), or tile_using_forall with
/// every tile size 0 (it reads the bounds of a loop nest it did not build).
bool hasBadTileSizes(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (!name.starts_with("transform.structured.tile_using_for"))
    return false;
  bool handles = op->getNumOperands() > 1;
  for (StringRef attr :
       {"static_sizes", "static_tile_sizes", "static_num_threads"})
    if (auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(attr))
      for (int64_t size : sizes.asArrayRef())
        if (ShapedType::isDynamic(size) ? !handles : size < 0)
          return true;
  auto tiles = op->getAttrOfType<DenseI64ArrayAttr>("static_tile_sizes");
  return name == "transform.structured.tile_using_forall" && !handles &&
         tiles && !tiles.empty() &&
         llvm::all_of(tiles.asArrayRef(), [](int64_t s) { return s == 0; });
}

/// A linalg op with a dim of static size 0: upstream's linalg tiling
/// (computeTileSizes) dereferences a missing tile size.
bool isLinalgWithEmptyDim(Operation *op) {
  auto hasEmptyDim = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() &&
           llvm::is_contained(shaped.getShape(), 0);
  };
  return isa_and_present<linalg::LinalgDialect>(op->getDialect()) &&
         (llvm::any_of(op->getOperandTypes(), hasEmptyDim) ||
          llvm::any_of(op->getResultTypes(), hasEmptyDim));
}

/// A tensor.dim or memref.dim whose constant index is outside its
/// operand's rank (undefined behavior by the ops' spec): folders and
/// ValueBounds read the shape at that index unchecked. The IR is not
/// verified yet: a generic-form dim op may lack its operands.
bool isDimPastRank(Operation *op) {
  if (op->getNumOperands() != 2 || !isa<tensor::DimOp, memref::DimOp>(op))
    return false;
  std::optional<int64_t> index = getConstantIntValue(op->getOperand(1));
  auto shaped = dyn_cast<ShapedType>(op->getOperand(0).getType());
  return index && shaped && shaped.hasRank() &&
         (*index < 0 || *index >= shaped.getRank());
}

/// Whether `module` holds IR on which upstream code (MLIR 22.1.8) crashes
/// or makes invalid IR before anything of ours decides: stock `mlir-opt-22`
/// fails the same way on a linalg payload. Each has a reproducer in
/// test/fuzz-crashes/upstream-*.mlir. Such inputs are declined.
bool hitsUpstreamBug(ModuleOp module) {
  bool scheduled = hasSchedule(module);
  return module
      ->walk([&](Operation *op) {
        return isBodilessTransform(op) || hasBadTileSizes(op) ||
                       isDimPastRank(op) ||
                       (scheduled && isLinalgWithEmptyDim(op))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// LLVM's BumpPtrAllocator poisons the slabs it allocates when its header is
/// compiled with ASan (here) but unpoisons the pieces it hands out only in
/// code compiled with ASan (not Debian's libMLIR.so): without this, the first
/// attribute both halves allocate is a false use-after-poison.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInputBytes)
    return -1;
  // MLIR's lexer stops at a NUL, as file buffers end in one: libFuzzer's
  // buffer does not, and the parser would read one byte past it.
  std::string text(reinterpret_cast<const char *>(data), size);
  if (usesHugeResultNumber(text) || usesMalformedIteratorTypes(text))
    return -1;

  MLIRContext ctx(registry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler swallow(&ctx, [](Diagnostic &diag) {
    if (verbose())
      llvm::errs() << "gather-fuzz: diagnostic: " << diag << "\n";
    return success();
  });

  ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return 0;
  if (hitsUpstreamBug(*module))
    return -1;
  if (failed(verify(*module)))
    return 0;
  // Not worth keeping in the corpus: nothing of ours to exercise.
  if (!onlyPipelineDialects(*module) || !hasGatherOp(*module))
    return -1;
  refinedOpsFail = failsOnceRefined(*module);
  // The pipelines below take the payload; a schedule runs on its own
  // clone at the end.
  OwningOpRef<ModuleOp> scheduled;
  if (hasSchedule(*module)) {
    scheduled = module->clone();
    eraseSchedules(*module);
    if (failed(verify(*module)))
      return 0;
  }

  // The lowering's options from the input's hash (FNV-1a, the same in every
  // process): the same input always runs the same pipelines.
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 1099511628211ull;
  gather::GatherToLLVMOptions options;
  // Threads half the time, for every size half of that, so that static
  // shapes reach the threaded paths (check mode's threaded scan among them).
  options.parallel = (hash & 1) != 0;
  if (((hash >> 1) & 1) != 0)
    options.parallelMinBytes = 0;
  options.vectorize = ((hash >> 2) & 3) != 0;
  options.vectorBits = 128u << ((hash >> 4) % 3);
  options.validateRows = ((hash >> 6) & 1) != 0;
  static constexpr gather::GatherLoads kLoads[] = {
      gather::GatherLoads::Vector, gather::GatherLoads::Scalar,
      gather::GatherLoads::Element};
  options.gatherLoads = kLoads[(hash >> 7) % 3];
  if (((hash >> 8) & 1) != 0)
    options.streamingMinBytes = 0;
  options.prefetchDistance = ((hash >> 9) & 1) != 0 ? 4 : 0;
  options.cInterface = ((hash >> 13) & 1) != 0;
  // Unranked gathers dispatch over ranks up to 2 or 3, which reach every
  // path of the dispatch; rank 4 makes each unranked op 16 kernels, too
  // slow under ASan for the fuzzer's timeout.
  options.maxUnrankedRank = 2 + ((hash >> 14) & 1);
  auto mode = static_cast<gather::GatherMode>((hash >> 10) % 5);

  // A module with shard annotations is partitioned before anything else.
  if (hasShardOp(*module)) {
    OwningOpRef<ModuleOp> lowered =
        runOnClone(ctx, *module, [&](PassManager &pm) {
          pm.addPass(gather::createGatherShardPartition());
          gather::buildGatherToLLVMPipeline(pm, options);
        });
    if (lowered)
      checkLowered(*lowered);
    if (lowered && hasShardOp(*lowered)) {
      llvm::errs() << "gather-fuzz: gather-shard-partition and gather-to-llvm "
                      "succeeded but left shard ops\n";
      std::abort();
    }
    return 0;
  }

  runOnClone(ctx, *module,
             [](PassManager &pm) { pm.addPass(createCanonicalizerPass()); });
  runOnClone(ctx, *module, [](PassManager &pm) {
    pm.addPass(gather::createGatherShapeInference());
  });
  runOnClone(ctx, *module, [](PassManager &pm) {
    gather::GatherShapeInferenceOptions options;
    options.refineFunctionSignatures = true;
    pm.addPass(gather::createGatherShapeInference(options));
  });

  runOnClone(ctx, *module, [](PassManager &pm) {
    pm.addPass(gather::createGatherWarnConstantIndices());
  });
  runOnClone(ctx, *module, [&](PassManager &pm) {
    gather::ConvertTensorToGatherOptions raise;
    raise.mode = mode;
    pm.addPass(gather::createConvertTensorToGather(raise));
  });
  runOnClone(ctx, *module, [](PassManager &pm) {
    pm.addPass(gather::createConvertGatherToLinalg());
    pm.addPass(createCanonicalizerPass());
  });
  runOnClone(ctx, *module, [](PassManager &pm) {
    pm.addPass(gather::createConvertEmbeddingBagToSCF());
    pm.addPass(createCanonicalizerPass());
  });
  runOnClone(ctx, *module, [](PassManager &pm) {
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  });
  runOnClone(ctx, *module, [&](PassManager &pm) {
    gather::GatherDispatchUnrankedOptions dispatch;
    dispatch.maxRank = options.maxUnrankedRank;
    pm.addPass(gather::createGatherDispatchUnranked(dispatch));
    pm.addPass(
        gather::createConvertGatherToLoops(gather::loweringOptionsOf(options)));
    pm.addPass(createCanonicalizerPass());
  });
  auto lowering = [&](PassManager &pm) {
    gather::buildGatherToLLVMPipeline(pm, options);
  };
  if (OwningOpRef<ModuleOp> lowered = runOnClone(ctx, *module, lowering))
    checkLowered(*lowered);
  runOnClone(ctx, *module, [&](PassManager &pm) {
    pm.addPass(createCanonicalizerPass());
    lowering(pm);
  });
  // The schedule (tiling, fusion), then the payload it made lowered.
  if (scheduled) {
    OwningOpRef<ModuleOp> transformed =
        runOnClone(ctx, *scheduled, [](PassManager &pm) {
          pm.addPass(transform::createInterpreterPass());
        });
    if (!transformed)
      return 0;
    eraseSchedules(*transformed);
    if (failed(verify(*transformed)))
      return 0;
    if (OwningOpRef<ModuleOp> lowered = runOnClone(ctx, *transformed, lowering))
      checkLowered(*lowered);
  }
  return 0;
}
