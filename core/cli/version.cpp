#include "cli/version.h"

namespace linklab::cli {

// LINKLAB_VERSION: the npm package's version (CMakeLists.txt reads it from
// wasm-bindings/package.json), which bundles record.
const char *linklabVersion() { return LINKLAB_VERSION; }

} // namespace linklab::cli
