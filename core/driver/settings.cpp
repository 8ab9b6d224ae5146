#include "driver/settings.h"

#include <cerrno>
#include <cstdlib>

namespace linklab::driver {

Expected<uint64_t> parseNumber(Field F) {
  std::string Name(F.name), Text(F.text);
  if (Text.empty())
    return makeError(Name + ": empty value");
  char *End = nullptr;
  errno = 0;
  uint64_t N = std::strtoull(Text.c_str(), &End, 0);
  if (errno || *End)
    return makeError(formatv("%s: '%s' is not a number", Name.c_str(), Text.c_str()));
  return N;
}

Expected<uint64_t> parseSize(Field F) {
  static const struct {
    const char *suffix;
    uint64_t unit;
  } Units[] = {{"Kb", 1024}, {"kb", 1024}, {"Mb", 1 << 20}, {"mb", 1 << 20}, {"Gb", 1ull << 30}, {"gb", 1ull << 30}};
  for (auto &U : Units)
    if (F.text.size() > 2 && F.text.ends_with(U.suffix)) {
      auto N = parseNumber({F.name, F.text.substr(0, F.text.size() - 2)});
      if (!N)
        return N.takeError();
      return *N * U.unit;
    }
  return parseNumber(F);
}

Expected<std::unique_ptr<SlabMemoryManager>> makeSlab(Field Address, Field PageSize, Field Size) {
  auto Base = Address.text.empty() ? Expected<uint64_t>(0x10000000) : parseNumber(Address);
  if (!Base)
    return Base.takeError();
  auto Page = PageSize.text.empty() ? Expected<uint64_t>(4096) : parseNumber(PageSize);
  if (!Page)
    return Page.takeError();
  if (*Page == 0 || (*Page & (*Page - 1)))
    return makeError(
        formatv("%s: %llu is not a power of two", std::string(PageSize.name).c_str(), (unsigned long long)*Page));
  // 1 GiB less 128 MiB: the C runtime's region follows the slab, and the
  // tables a link lays out there (Arm's unwind index, whose PREL31 words
  // reach +-1 GiB) must reach the slab's first objects.
  auto Bytes = Size.text.empty() ? Expected<uint64_t>((uint64_t(1) << 30) - (uint64_t(128) << 20)) : parseSize(Size);
  if (!Bytes)
    return Bytes.takeError();
  return std::make_unique<SlabMemoryManager>(*Base, *Page, *Bytes);
}

Expected<executor::Limits> parseLimits(Field Instructions, Field TimeoutMs, Field Memory) {
  executor::Limits L;
  if (!Instructions.text.empty()) {
    auto N = parseNumber(Instructions);
    if (!N)
      return N.takeError();
    L.instructions = *N;
  }
  if (!TimeoutMs.text.empty()) {
    auto N = parseNumber(TimeoutMs);
    if (!N)
      return N.takeError();
    if (*N > 0xffffffffu) // the protocol's field is 32 bits
      return makeError(
          formatv("%s: %s ms is too long", std::string(TimeoutMs.name).c_str(), std::string(TimeoutMs.text).c_str()));
    L.wallMillis = uint32_t(*N);
  }
  if (!Memory.text.empty()) {
    auto N = parseSize(Memory);
    if (!N)
      return N.takeError();
    L.memoryBytes = *N;
  }
  return L;
}

std::string entrySymbol(std::string_view Entry, const Triple &TT) {
  return !Entry.empty() ? std::string(Entry) : TT.format == ObjectFormat::MachO ? "_main" : "main";
}

} // namespace linklab::driver
