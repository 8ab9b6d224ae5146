// Object -> LinkGraph -> -noexec link: the bytes are one relocatable object,
// linked as `linklab -noexec -phony-externals -show-graphs=.* -show-addrs
// -show-relocated-section-contents` would. The object's header picks the
// registry row (createLinkGraph), so every format x arch pair is fuzzed; the
// seeds hold objects compiled for every row (fuzz/make-seeds.py). A
// universal MachO file links as its first slice, as the command picks one.
// x86-64 graphs also go through -add-self-relocations' instruction decoder.
#include "arch/x86_64_self_relocations.h"
#include "fuzz_support.h"
#include "macho/universal.h"

using namespace linklab;

namespace {
struct SelfRelocations : Plugin {
  void modifyPassConfig(const MaterializationInfo &, LinkGraph &G, PassConfiguration &Config) override {
    if (G.triple().arch == Arch::X86_64)
      Config.postPrunePasses.push_back(x86_64::addSelfRelocations);
  }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SlabMemoryManager MM(0x10000, 4096, 64 << 20);
  Session S(Triple(), MM);
  auto Recorder = std::make_shared<LinkInfoRecorder>();
  std::vector<std::regex> All;
  All.emplace_back(".*");
  Recorder->setDumpPatterns(std::move(All));
  Recorder->setRecordContents(true);
  S.addPlugin(Recorder);
  S.addPlugin(std::make_shared<SelfRelocations>());
  S.setPhonyExternals(true);
  SharedBytes Bytes = fuzz::bytesOf(Data, Size);
  if (macho::isUniversal(Bytes.span())) {
    auto Slices = macho::readUniversal("fuzz.o", Bytes);
    if (!Slices) {
      FUZZ_EXPECT(!Slices.takeError().message().empty(), "an error without a message");
      return 0;
    }
    if (Slices->empty())
      return 0;
    Bytes = Slices->front().bytes;
  }
  auto K = S.addObject("fuzz.o", Bytes);
  if (!K) {
    FUZZ_EXPECT(!K.takeError().message().empty(), "an error without a message");
    return 0;
  }
  driver::SessionConventions Conventions(S, [](const std::string &) {});
  if (Error E = Conventions.addObject("fuzz.o", Bytes.span()))
    return 0;
  fuzz::linkAll(S);
  (void)formatAddresses(Recorder->objects());
  // Contents past what the input could hold are zero fill (a .bss whose
  // size a mutation raised): dumping them finds nothing and outlasts the
  // fuzzer's per-input time limit.
  for (auto &O : Recorder->objects()) {
    size_t Bytes = 0;
    for (auto &Sec : O.sections)
      Bytes += Sec.content.size();
    if (Bytes <= 4 * Size + 4096)
      (void)formatRelocatedContents(O);
  }
  return 0;
}
