// -weak_library's inputs: the bytes are a text stub (.tbd) or a MachO dylib,
// thin or universal, read for each link arch that has a MachO CPU type
// (x86-64, arm64, arm64e) as `linklab -weak_library FILE` reads them. The
// seeds are the stubs and dylibs the lit tests use (fuzz/make-seeds.py).
#include "fuzz_support.h"
#include "macho/dylib_interface.h"

using namespace linklab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  SharedBytes Bytes = fuzz::bytesOf(Data, Size);
  for (const char *T : {"x86_64-apple-darwin", "arm64-apple-darwin", "arm64e-apple-darwin"}) {
    auto Names = macho::dylibInterface("fuzz.tbd", Bytes, Triple::parse(T));
    if (!Names) {
      FUZZ_EXPECT(!Names.takeError().message().empty(), "an error without a message");
      continue;
    }
    for (const std::string &N : *Names)
      FUZZ_EXPECT(!N.empty(), "an empty exported name for %s", T);
  }
  return 0;
}
