// The process's private file system where a native run differs
// (tests/inputs/run/files_sandbox.c, run by the linklab CLI on all five
// arches): the host's files are absent, an input file given with -file is
// read-only, and files' bytes count against -max-memory (ENOSPC), as do
// empty files and folders nested as deep as it allows (the executor frees
// them without recursion). What
// matches a native run is the parity program tests/inputs/parity/files.c.
#include "test_support.h"

#include <gtest/gtest.h>

using namespace linklab::test;

namespace {

const std::string Input = "-file data/in.txt=" + sourceDir() + "/tests/inputs/parity/files.input";
const ModeCase Cases[] = {
    {"host",
     "host",
     "",
     0,
     {"open /etc/passwd: ENOENT\nstat /etc: ENOENT\nopen /proc/self/maps: ENOENT\nfopen /bin/sh: ENOENT\n"
      "create /etc/x: ENOENT\ncreate /dev/x: EACCES\ncreate in the locale: EACCES\nwrite the locale: EACCES\n"}},
    {"readonly",
     "readonly",
     Input.c_str(),
     0,
     {"write input: EACCES\nread-write input: EACCES\ntruncate input: EACCES\naccess W_OK: EACCES\n"
      "read input: 46 'An input file the program reads.\nSecond line.\n'\nmode 444 size 46\n"}},
    {"cap",
     "cap",
     "-max-memory=4Mb",
     0,
     {"write until full: ENOSPC, between 1 and 4 MiB\ngrow past the cap: ENOSPC\nunlink: ok\nroom again: yes\n"}},
    {"many", "many", "-max-memory=4Mb", 0, {"create until full: ENOSPC, 1000 to 20000 files\n"}},
    {"deep", "deep", "-max-memory=64Mb", 0, {"nest until full: ENOSPC, deeper than 100000\ngetcwd: ERANGE\n"}},
};

class FilesSandbox : public ::testing::TestWithParam<ModeParam> {};

TEST_P(FilesSandbox, AnswersAsDocumented) {
  expectModeRun("files_sandbox", std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(All, FilesSandbox,
                         ::testing::Combine(::testing::ValuesIn(Cases), ::testing::ValuesIn(AllArches)), modeParamName);

} // namespace
