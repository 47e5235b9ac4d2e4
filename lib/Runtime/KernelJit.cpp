//===- KernelJit.cpp - Kernel objects for the host, linked in process -----===//
//
// Compilation follows what mlir::ExecutionEngine does for a module (translate,
// set the target's triple and data layout, LLVM's default pipeline as
// makeOptimizingTransformer builds it, code generation for the host), but
// stops at an object file, which can be kept;
// linking is a plain LLJIT, which needs no MLIR at all.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/KernelJit.h"
#include "gather/Runtime/OpenMPRuntime.h"

#include "gather/Pipelines/Pipelines.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <optional>

#include <fcntl.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::gather::runtime;

const HostTarget &HostTarget::get() {
  static const HostTarget host = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    HostTarget t;
    t.triple = sys::getProcessTriple();
    t.cpu = sys::getHostCPUName().str();
    SmallVector<std::string> features;
    for (const auto &feature : sys::getHostCPUFeatures())
      features.push_back((feature.second ? "+" : "-") + feature.first().str());
    llvm::sort(features);
    t.features = join(features, ",");
    return t;
  }();
  return host;
}

orc::JITTargetMachineBuilder HostTarget::getMachineBuilder() const {
  orc::JITTargetMachineBuilder builder{Triple(triple)};
  builder.setCPU(cpu)
      .setFeatures(features)
      .setCodeGenOptLevel(CodeGenOptLevel::Aggressive)
      .setRelocationModel(Reloc::PIC_)
      .setCodeModel(CodeModel::Small);
  return builder;
}

unsigned HostTarget::vectorBits() const {
  // What LLVM's cost model takes for a fixed-width vector register: the
  // preferred vector width, where the CPU's tuning sets one.
  static const unsigned bits = [this]() -> unsigned {
    unsigned fallback = mlir::gather::GatherToLLVMOptions().vectorBits;
    auto machine = getMachineBuilder().createTargetMachine();
    if (!machine) {
      consumeError(machine.takeError());
      return fallback;
    }
    LLVMContext context;
    llvm::Module module("vector-width", context);
    llvm::Function *probe = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                /*isVarArg=*/false),
        GlobalValue::ExternalLinkage, "probe", module);
    probe->addFnAttr("target-cpu", cpu);
    probe->addFnAttr("target-features", features);
    TypeSize width =
        (*machine)->getTargetTransformInfo(*probe).getRegisterBitWidth(
            TargetTransformInfo::RGK_FixedWidthVector);
    return std::clamp<unsigned>(width.getFixedValue(), 128, 512);
  }();
  return bits;
}

void mlir::gather::runtime::optimizeForHost(llvm::Module &module,
                                            TargetMachine *machine,
                                            unsigned optLevel) {
  // The lowering emits the loops it wants: vector chunks of a row, one
  // element or one row an iteration. LLVM's partial and runtime unrolling
  // of them doubled the IR that code generation (loop strength reduction
  // above all) then had to digest, for no measurable speed
  // (docs/decisions/compile-time.md). Full unrolling of
  // constant trip counts stays.
  PipelineTuningOptions tuning;
  tuning.LoopUnrolling = false;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  PassBuilder pb(machine, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  OptimizationLevel level = optLevel >= 3   ? OptimizationLevel::O3
                            : optLevel == 2 ? OptimizationLevel::O2
                            : optLevel == 1 ? OptimizationLevel::O1
                                            : OptimizationLevel::O0;
  ModulePassManager mpm = optLevel == 0
                              ? pb.buildO0DefaultPipeline(level)
                              : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

Expected<SmallVector<char, 0>>
mlir::gather::runtime::compileToObject(ModuleOp module) {
  Expected<std::unique_ptr<TargetMachine>> machine =
      HostTarget::get().getMachineBuilder().createTargetMachine();
  if (!machine)
    return machine.takeError();
  LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "gather_mlir_kernel");
  if (!llvmModule)
    return createStringError("cannot translate the kernel to LLVM IR");
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(),
                                                  machine->get());
  optimizeForHost(*llvmModule, machine->get(), 3);
  // The JIT runs no initializers for objects it links.
  if (llvmModule->getNamedGlobal("llvm.global_ctors"))
    return createStringError("the kernel has static initializers");

  SmallVector<char, 0> object;
  raw_svector_ostream os(object);
  legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, os, nullptr,
                                      CodeGenFileType::ObjectFile))
    return createStringError("the host target cannot emit object files");
  codegen.run(*llvmModule);
  return object;
}

//===----------------------------------------------------------------------===//
// Profilers
//===----------------------------------------------------------------------===//

/// Appends the functions of every object the JIT links to perf's map of JIT
/// code, /tmp/perf-<pid>.map (one `<start> <size> <name>` line each, in
/// hex), which perf reads to name addresses in JIT pages. The file stays
/// after the process exits, for `perf report`.
class KernelLinker::PerfMap : public orc::ObjectLinkingLayer::Plugin {
public:
  /// The map when GATHER_MLIR_PERF=1 and the file opens; else null.
  static std::unique_ptr<PerfMap> createFromEnvironment() {
    const char *enabled = std::getenv("GATHER_MLIR_PERF");
    if (!enabled || StringRef(enabled) != "1")
      return nullptr;
    std::string path = "/tmp/perf-" + std::to_string(::getpid()) + ".map";
    int fd =
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
      return nullptr;
    return std::unique_ptr<PerfMap>(new PerfMap(fd));
  }
  ~PerfMap() override { ::close(fd); }

  /// What the objects linked into `dylib` are called in the map.
  void name(orc::JITDylib &dylib, StringRef name) {
    std::lock_guard<std::mutex> lock(mu);
    names[&dylib] = name.str();
  }

  void modifyPassConfig(orc::MaterializationResponsibility &mr,
                        jitlink::LinkGraph &,
                        jitlink::PassConfiguration &config) override {
    std::string suffix;
    {
      std::lock_guard<std::mutex> lock(mu);
      auto it = names.find(&mr.getTargetJITDylib());
      if (it != names.end() && !it->second.empty())
        suffix = " [" + it->second + "]";
    }
    // After fixups the symbols have their final addresses.
    config.PostFixupPasses.push_back([this, suffix](jitlink::LinkGraph &graph) {
      std::string lines;
      raw_string_ostream os(lines);
      for (jitlink::Symbol *symbol : graph.defined_symbols())
        if (symbol->isCallable() && symbol->hasName() && symbol->getSize())
          os << format_hex_no_prefix(symbol->getAddress().getValue(), 1) << " "
             << format_hex_no_prefix(symbol->getSize(), 1) << " "
             << *symbol->getName() << suffix << "\n";
      // One write per object: O_APPEND keeps it whole among other
      // writers. A map that cannot be written leaves kernels unnamed.
      ssize_t written = ::write(fd, lines.data(), lines.size());
      (void)written;
      return Error::success();
    });
  }

  Error notifyFailed(orc::MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(orc::JITDylib &, orc::ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(orc::JITDylib &, orc::ResourceKey,
                                   orc::ResourceKey) override {}

private:
  explicit PerfMap(int fd) : fd(fd) {}

  int fd;
  std::mutex mu;
  DenseMap<orc::JITDylib *, std::string> names;
};

Expected<std::unique_ptr<KernelLinker>>
KernelLinker::create(ArrayRef<std::pair<StringRef, void *>> hostSymbols) {
  // Kernels need no platform support (no initializers, no TLS); the
  // inactive platform spares compiling the generic one's runtime IR.
  Expected<std::unique_ptr<orc::LLJIT>> jit =
      orc::LLJITBuilder()
          .setJITTargetMachineBuilder(HostTarget::get().getMachineBuilder())
          .setPlatformSetUp(orc::setUpInactivePlatform)
          .create();
  if (!jit)
    return jit.takeError();
  // Failures reach the caller as errors; nothing is printed.
  (*jit)->getExecutionSession().setErrorReporter(consumeError);
  // Kernels in gdb's and lldb's backtraces, as MLIR's ExecutionEngine
  // registers its code with GDB's JIT interface; a JIT without it still
  // runs kernels.
  if (Error error = orc::enableDebuggerSupport(**jit))
    consumeError(std::move(error));
  PerfMap *perfMap = nullptr;
  if (auto *layer =
          dyn_cast<orc::ObjectLinkingLayer>(&(*jit)->getObjLinkingLayer()))
    if (std::unique_ptr<PerfMap> plugin = PerfMap::createFromEnvironment()) {
      perfMap = plugin.get();
      layer->addPlugin(std::move(plugin));
    }
  orc::MangleAndInterner mangle((*jit)->getExecutionSession(),
                                (*jit)->getDataLayout());
  orc::SymbolMap symbols;
  for (auto [name, address] : hostSymbols)
    symbols[mangle(name)] = {orc::ExecutorAddr::fromPtr(address),
                             JITSymbolFlags::Exported |
                                 JITSymbolFlags::Absolute};
  if (Error error = (*jit)->getMainJITDylib().define(
          orc::absoluteSymbols(std::move(symbols))))
    return std::move(error);
  return std::unique_ptr<KernelLinker>(
      new KernelLinker(std::move(*jit), perfMap));
}

KernelLinker::~KernelLinker() = default;

Expected<void *> KernelLinker::link(std::unique_ptr<MemoryBuffer> object,
                                    bool needsOpenMP, StringRef entry,
                                    StringRef name) {
  if (needsOpenMP && !openMPLinked) {
    // KernelCache loaded it (KernelCache::prepare) before reading or
    // compiling a threaded kernel; this only makes sure no other path
    // links it unset.
    if (Error error = loadOpenMP())
      return std::move(error);
    auto openMP = orc::DynamicLibrarySearchGenerator::Load(
        getOpenMPLibrary().data(), jit->getDataLayout().getGlobalPrefix());
    if (!openMP)
      return openMP.takeError();
    jit->getMainJITDylib().addGenerator(std::move(*openMP));
    openMPLinked = true;
  }
  // Every kernel defines the same entry name: each gets a JITDylib, which
  // links against the main one (host symbols, libomp) and the process.
  Expected<orc::JITDylib &> dylib =
      jit->createJITDylib("gather_mlir_kernel_" + std::to_string(linked++));
  if (!dylib)
    return dylib.takeError();
  dylib->addToLinkOrder(jit->getMainJITDylib());
  if (perfMap)
    perfMap->name(*dylib, name);
  if (Error error = jit->addObjectFile(*dylib, std::move(object)))
    return std::move(error);
  Expected<orc::ExecutorAddr> address = jit->lookup(*dylib, entry);
  if (!address)
    return address.takeError();
  return address->toPtr<void *>();
}
