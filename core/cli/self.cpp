#include "cli/self.h"

#include <cstdio>
#include <string>
#include <unistd.h>

namespace linklab::cli {

static std::string ProgramName = "linklab";

void setProgramName(const char *Argv0) {
  std::string_view Name = Argv0 ? Argv0 : "";
  Name = Name.substr(Name.rfind('/') + 1);
  if (!Name.empty())
    ProgramName = Name;
}

int fail(const Error &E) {
  std::fprintf(stderr, "%s error: %s\n", ProgramName.c_str(), E.message().c_str());
  return 1;
}

std::string selfPath() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  return N > 0 ? std::string(Buf, size_t(N)) : "linklab";
}

} // namespace linklab::cli
