// The names llvm-readelf prints for ELF's small enumerations (symbol type
// and binding, section type, special section indices), so every tool that
// shows an object (the inspector, the page, the package) uses one spelling.
#pragma once

#include <cstdint>

namespace linklab::elf {

const char *symbolTypeName(uint8_t Type);   // "FUNC"; null if unknown
const char *symbolBindName(uint8_t Bind);   // "GLOBAL"; null if unknown
const char *sectionTypeName(uint32_t Type); // "PROGBITS"; null if unknown
// "UND", "ABS", "COMMON" for the special indices; null for others.
const char *specialSectionIndexName(uint32_t Index);

} // namespace linklab::elf
