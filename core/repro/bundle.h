// A session as the playground's bundle (wasm-bindings/lib/bundle.mjs holds
// the format's description and the decoder): the JSON a bundle file holds,
// and the share link's fragment of it. The native `linklab -save-bundle`
// and `-share-url` write what the page writes, so `linklab-run --replay`,
// `replayBundle` and the page replay a CLI session as one of their own.
#pragma once

#include "support/error.h"

#include <optional>
#include <string>
#include <vector>

namespace linklab::repro {

// 3: run.stdin, run.argv0, outcome.stderr and outcome.fault (a reader of 2
// would replay without the stdin); wasm-bindings/lib/bundle.mjs's BUNDLE_VERSION.
inline constexpr int BundleFormatVersion = 3;

struct BundleObject {
  std::string name; // as the page names it: the file's base name
  bool harness = false;
  std::string bytes;
};

// How the run ended: a run's status and output, or the link's error.
struct BundleOutcome {
  std::optional<std::string> error;
  std::string status; // executor::runStatusName
  std::optional<int64_t> exitCode;
  std::string stdout_, stderr_;
  struct Fault {
    std::string kind; // executor::faultKindName
    uint64_t pc = 0, address = 0;
    std::string symbol; // the symbol holding pc, as exec::Program::symbolize names it
  };
  std::optional<Fault> fault;
};

struct Bundle {
  std::string linklabVersion, arch;
  std::vector<BundleObject> objects;
  std::string entry;
  bool phonyExternals = false, runtime = true;
  std::vector<std::string> absolutes;             // NAME=ADDR
  std::string argv0;                              // the program's argv[0] (the page's default: the first object's stem)
  std::vector<std::string> args;                  // argv[1..]
  std::string instructions, wallMillis, memoryMB; // limits as the page's fields hold them ("" for none)
  std::string stdin_;                             // what the program read
  std::optional<BundleOutcome> outcome;
};

// The bundle file's JSON; an error names an argument the page's argument
// field cannot hold (one with both kinds of quote).
Expected<std::string> bundleJson(const Bundle &B);

// The share link's fragment of a bundle's JSON: "#s=" and the JSON deflated
// (stored blocks, which every inflater reads) in base64url.
std::string shareFragment(const std::string &Json);
// Past this many characters the page offers a file instead of a link.
inline constexpr size_t MaxShareFragment = 48 * 1024;

} // namespace linklab::repro
