// linklab's version: what -version prints and bundles record.
#pragma once

namespace linklab::cli {

const char *linklabVersion();

} // namespace linklab::cli
