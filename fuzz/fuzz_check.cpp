// jitlink-check rules against a linked graph. The first line names a fixture
// object (the objects tests/lit assembles, linked -noexec at startup, as the
// lit runs link them, with phony externals); the rest is a check file whose
// "# jitlink-check:" lines are evaluated against it, as `linklab -check`
// does: symbols, GOT entries, stubs, sections, loads of linked bytes and
// decode_operand on every architecture.
#include "fuzz_support.h"

#include "check/check.h"
#include "check/link_info_env.h"

#include <dirent.h>
#include <fstream>
#include <iterator>
#include <map>

using namespace linklab;

namespace {

struct Fixture {
  std::unique_ptr<SlabMemoryManager> MM;
  std::unique_ptr<Session> S;
  std::shared_ptr<LinkInfoRecorder> Info;
};
std::map<std::string, Fixture, std::less<>> Fixtures;

void loadFixture(const std::string &Dir, const std::string &Name) {
  std::ifstream In(Dir + "/" + Name, std::ios::binary);
  auto Bytes =
      std::make_shared<const std::vector<char>>(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
  Fixture F;
  F.MM = std::make_unique<SlabMemoryManager>(0x10000, 4096, 1 << 20);
  F.S = std::make_unique<Session>(Triple(), *F.MM);
  F.Info = std::make_shared<LinkInfoRecorder>();
  F.Info->setRecordContents(true);
  F.S->addPlugin(F.Info);
  F.S->setPhonyExternals(true);
  auto K = F.S->addObject(Name, Bytes);
  if (!K) {
    std::fprintf(stderr, "fuzz_check: fixture %s: %s\n", Name.c_str(), K.takeError().message().c_str());
    return;
  }
  fuzz::linkAll(*F.S);
  if (!F.Info->objects().empty())
    Fixtures.emplace(Name, std::move(F));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *Env = std::getenv("LINKLAB_FUZZ_FIXTURES");
  std::string Dir = Env ? Env : LINKLAB_FUZZ_FIXTURES;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      if (std::string_view(E->d_name).ends_with(".o"))
        loadFixture(Dir, E->d_name);
    closedir(D);
  }
  if (Fixtures.empty()) {
    std::fprintf(stderr, "fuzz_check: no linked fixture objects in %s (run fuzz/make-seeds.py)\n", Dir.c_str());
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Rest(reinterpret_cast<const char *>(Data), Size);
  std::string_view Name = fuzz::takeLine(Rest);
  auto It = Fixtures.find(Name);
  if (It == Fixtures.end()) // an unknown name still checks against something
    It = std::next(Fixtures.begin(), Name.size() % Fixtures.size());
  Fixture &F = It->second;
  check::LinkInfoCheckEnv Env(*F.Info, F.S->triple().arch, [&F](std::string_view N) { return F.S->addressOf(N); });
  check::CheckResult R = check::checkBuffer(Rest, "fuzz.s", "jitlink-check", Env);
  FUZZ_EXPECT(R.failures.size() <= R.rules || R.rules == 0, "%zu failures for %u rules", R.failures.size(), R.rules);
  return 0;
}
