// Descriptor JSON files (KDP, UKD, KMD, UED, UMD, UDD, UHD; DOMAIN.md §4), read with nlohmann/json.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "model/Facts.h"

namespace impact {

// The descriptor type from the file name ("x.kdp.json" -> "kdp"); "" when not a descriptor name.
std::string descriptorType(std::string_view path);

// Error text: "byte N: <parser message>" or "<what is wrong>".
absl::StatusOr<DescriptorFacts> parseDescriptor(std::string_view path, std::string_view content);

// Fingerprint of the JSON value: whitespace, key order and number spelling edits keep it.
uint64_t jsonValueFingerprint(std::string_view content);

}  // namespace impact
