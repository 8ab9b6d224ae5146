// A link's settings from text, shared by the `linklab` command and the wasm
// package: numbers and sizes, the -noexec slab and its defaults, run limits,
// the entry symbol. Each value comes with the name its caller knows it by
// (the command's "-slab-address", the package's "slabAddress"), and errors
// say that name: "slabAddress: 'zz' is not a number".
#pragma once

#include "link/slab_memory_manager.h"
#include "protocol/protocol.h"
#include "support/error.h"
#include "target/triple.h"

#include <memory>
#include <string>
#include <string_view>

namespace linklab::driver {

// A setting's text and the name its errors give it.
struct Field {
  std::string_view name;
  std::string_view text;
};

// "4096", "0x1000" (strtoull base 0); sizes also "64Kb", "1Mb", "2Gb".
Expected<uint64_t> parseNumber(Field F);
Expected<uint64_t> parseSize(Field F);

// The -noexec slab: its address, page size and size; an empty text takes
// the default (0x10000000, 4096, 896Mb).
Expected<std::unique_ptr<SlabMemoryManager>> makeSlab(Field Address, Field PageSize, Field Size);

// A run's limits: instruction count, wall-clock milliseconds, memory size;
// an empty text leaves that limit to the executor.
Expected<executor::Limits> parseLimits(Field Instructions, Field TimeoutMs, Field Memory);

// Entry, or the C main as the object format spells it (llvm-jitlink's
// default: "_main" for MachO, "main" otherwise). The one place this default
// is spelled: the command, the package, the page and the reproducers ask here.
std::string entrySymbol(std::string_view Entry, const Triple &TT);

} // namespace linklab::driver
