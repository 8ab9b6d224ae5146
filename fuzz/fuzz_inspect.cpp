// Object inspection (the package's inspect(), the page's Inspect panel): the
// bytes are one file, inspected as inspectObjectJson does. Its MachO and COFF
// paths build the format's graph, then read the section flags and relocation
// entries through the same builder (forEachRelocation); the seeds are the
// MachO (thin and universal) and COFF objects of the object target's corpus
// (fuzz/make-seeds.py). Any input either inspects to one JSON object or is
// refused with a message.
#include "api/json_export.h"
#include "fuzz_support.h"

using namespace linklab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::span<const char> Bytes(reinterpret_cast<const char *>(Data), Size);
  auto Json = api::inspectObjectJson("fuzz.o", Bytes);
  if (!Json) {
    FUZZ_EXPECT(!Json.takeError().message().empty(), "an error without a message");
    return 0;
  }
  FUZZ_EXPECT(Json->size() >= 2 && Json->front() == '{' && Json->back() == '}', "not one JSON object: %.200s",
              Json->c_str());
  return 0;
}
