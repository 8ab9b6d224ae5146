// Static archives: the bytes are an `ar` archive. It is parsed (members and
// symbol index), whole and as a link reads it (the same members), then linked as `linklab -noexec -phony-externals`
// links a library: each name in its symbol index (the first few) is looked up, which pulls and links the members
// defining them. The session's target comes from the first member that is an object.
#include "fuzz_support.h"

#include "object/archive.h"

#include <algorithm>

using namespace linklab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto Bytes = fuzz::bytesOf(Data, Size);
  auto A = Archive::parse("fuzz.a", Bytes);
  if (!A) {
    consumeError(A.takeError());
    return 0;
  }
  // A link's view (read as asked for) loads each member the index names
  // as the whole parse read it.
  auto L = Archive::parseForLink("fuzz.a", Bytes);
  FUZZ_EXPECT(bool(L), "parse read the archive but parseForLink did not: %s", L.takeError().message().c_str());
  for (auto &[Name, Member] : L->symbolIndex()) {
    Error E = L->load(Member);
    FUZZ_EXPECT(!E, "member %zu does not load: %s", Member, E.message().c_str());
    auto Same = std::find_if(A->members().begin(), A->members().end(),
                             [&](const Archive::Member &M) { return M.offset == L->members()[Member].offset; });
    FUZZ_EXPECT(Same != A->members().end() && Same->name == L->members()[Member].name &&
                    Same->data.data() == L->members()[Member].data.data() &&
                    Same->data.size() == L->members()[Member].data.size(),
                "member %zu loads otherwise than parse read it", Member);
  }
  std::vector<std::string> Names;
  for (auto &[Name, Member] : A->symbolIndex()) {
    FUZZ_EXPECT(Member < A->members().size(), "index names member %zu of %zu", Member, A->members().size());
    Names.emplace_back(Name);
  }
  std::sort(Names.begin(), Names.end());
  Names.resize(std::min<size_t>(Names.size(), 4));

  SlabMemoryManager MM(0x10000, 4096, 64 << 20);
  Session S(Triple(), MM);
  S.setPhonyExternals(true);
  // A -noexec link of a lone archive needs its target: the CLI's would come
  // from an object on the command line; here from the first member.
  for (auto &M : A->members()) {
    auto K = S.addObject("fuzz.a(" + std::string(M.name) + ")",
                         fuzz::bytesOf(reinterpret_cast<const uint8_t *>(M.data.data()), M.data.size()),
                         ObjectKind::Library);
    if (K)
      break;
    consumeError(K.takeError());
  }
  if (Error E = S.addArchive("fuzz.a", Bytes))
    return 0;
  if (!Names.empty()) {
    auto R = S.lookupNow(Names);
    if (!R)
      consumeError(R.takeError());
  }
  return 0;
}
