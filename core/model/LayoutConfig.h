// The layout from a configuration file (`.impactd.yaml` at the repository root, or
// `impact report --config FILE`): any Layout field may be overridden; the rest keep the
// monorepo's defaults. Keys: provider_root, library_root, python_roots, cpp_roots,
// manifest_roots, descriptor_roots, import_roots, generic_target_table, packs_dir.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "model/Layout.h"

namespace impact {

inline constexpr const char* kLayoutConfigFile = ".impactd.yaml";

// Errors name the line and the key ("line 3: python_roots must be a list of paths").
absl::StatusOr<Layout> layoutFromYaml(std::string_view content, Layout defaults = {});

}  // namespace impact
