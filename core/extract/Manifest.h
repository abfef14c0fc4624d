// *.profile.yaml (launch-surface manifest, DOMAIN.md §5), read with yaml-cpp.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "model/Facts.h"

namespace YAML {
class Node;
}

namespace impact {

// Error text: "line N: <yaml-cpp message>" or "launch_surface entry N: <what is wrong>".
absl::StatusOr<Manifest> parseManifest(std::string_view content);
// The same, and yamlValueFingerprint(content) into *fingerprint, from one parse of the YAML
// (a profile is read once per extraction, not twice: issue 37).
absl::StatusOr<Manifest> parseManifest(std::string_view content, uint64_t* fingerprint);

// Splits a locator "path.py:symbol  trailing prose" into path and symbol ("" when path-only).
void splitLocator(std::string_view locator, std::string& path, std::string& symbol);

// The further symbols a locator names after its first one, joined by "and" or a comma
// ("…Native.cpp:gfx950AttentionDenseGraphMatches\n and kernelMatches" → {"kernelMatches"});
// other trailing prose names none.
std::vector<std::string> moreLocatorSymbols(std::string_view locator);

// Fingerprint of the YAML's values: comment, whitespace and layout edits keep it.
uint64_t yamlValueFingerprint(std::string_view content);
// The same of a parsed document (yamlValueFingerprint = this of YAML::Load(content)).
uint64_t yamlValueFingerprint(const YAML::Node& root);

}  // namespace impact
