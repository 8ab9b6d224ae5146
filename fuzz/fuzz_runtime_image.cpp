// The prepared runtime image cache's reader (program/runtime_image.h): a
// cache file is hostile bytes. The first byte picks the run's architecture,
// the rest is a file's body, framed here with a right header (so mutations
// reach the fields rather than stopping at the checksum) and also read as
// it is. What parses must serialize back to the same bytes, decode its link
// info and apply its entry fixups for any entry address.
#include "fuzz_support.h"

#include "program/runtime_image.h"
#include "target/target.h"

using namespace linklab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 1)
    return 0;
  const Arch Arches[] = {Arch::X86_64, Arch::AArch64, Arch::RISCV64, Arch::I386, Arch::Arm};
  Arch A = Arches[Data[0] % std::size(Arches)];
  std::span<const uint8_t> Body(Data + 1, Size - 1);
  std::vector<uint8_t> File = exec::frameRuntimeImage(Body);
  for (std::span<const uint8_t> Bytes : {std::span<const uint8_t>(File), Body}) {
    auto I = exec::parseRuntimeImage(Bytes, A);
    if (!I)
      continue;
    std::vector<uint8_t> Again = exec::serializeRuntimeImage(*I);
    FUZZ_EXPECT(Again.size() == Bytes.size() && std::equal(Again.begin(), Again.end(), Bytes.begin()),
                "a parsed image serializes to other bytes (%zu, read %zu)", Again.size(), Bytes.size());
    (void)I->linkInfo();
    for (uint64_t Entry : {uint64_t(0), uint64_t(0x10000000), ~uint64_t(0)}) {
      auto W = exec::entryFixupBytes(*I, A, Entry);
      if (!W)
        consumeError(W.takeError());
    }
  }
  return 0;
}
