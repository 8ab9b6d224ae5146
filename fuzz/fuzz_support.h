// What the fuzz targets share: a linked -noexec session over bytes, the way
// the linklab CLI builds one (slab at the CLI's test address, phony
// externals, every object's .linklab.callconv section), and a trap for a
// broken invariant that libFuzzer reports as a crash with its input.
#pragma once

#include "driver/conventions.h"
#include "link/slab_memory_manager.h"
#include "session/link_info.h"
#include "session/session.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

namespace linklab::fuzz {

inline std::shared_ptr<const std::vector<char>> bytesOf(const uint8_t *Data, size_t Size) {
  return std::make_shared<const std::vector<char>>(reinterpret_cast<const char *>(Data),
                                                   reinterpret_cast<const char *>(Data) + Size);
}

// Aborts (a libFuzzer crash, reproducer saved) when a property fails.
#define FUZZ_EXPECT(Cond, ...)                                                                                         \
  do {                                                                                                                 \
    if (!(Cond)) {                                                                                                     \
      std::fprintf(stderr, "fuzz invariant failed: %s: ", #Cond);                                                      \
      std::fprintf(stderr, __VA_ARGS__);                                                                               \
      std::fputc('\n', stderr);                                                                                        \
      std::abort();                                                                                                    \
    }                                                                                                                  \
  } while (0)

// Splits Text at the first '\n' (Rest is empty when there is none).
inline std::string_view takeLine(std::string_view &Rest) {
  size_t N = Rest.find('\n');
  std::string_view Line = Rest.substr(0, N);
  Rest = N == std::string_view::npos ? std::string_view() : Rest.substr(N + 1);
  return Line;
}

// Links everything added to S (errors are the expected outcome for most
// inputs; they only have to be errors).
inline void linkAll(Session &S) {
  bool Done = false;
  S.linkAll([&](Error E) {
    consumeError(std::move(E));
    Done = true;
  });
  FUZZ_EXPECT(Done, "linkAll did not finish with a slab memory manager");
}

} // namespace linklab::fuzz
