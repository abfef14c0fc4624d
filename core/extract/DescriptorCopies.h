// Internal to the descriptor extraction (Descriptor.cpp reads a descriptor's facts,
// DescriptorCopies.cpp its copies of the argument list and its symbol strings).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/Facts.h"

namespace impact::descriptor_detail {

// A `spec` object's scalar fields as text (strings as they are, booleans true/false, numbers and
// null as JSON prints them); none when it is not an object.
std::map<std::string, std::string> specOf(const nlohmann::json& spec);

// The symbol strings of UED/UMD/UHD/UDD files and the fields of a KMD (f.symbols), and the
// descriptor copies of the argument list (f.lists): packed UKD `kernel_source.signature` arrays
// and, in an AOT catalog (`catalog`), the `args_signature` lists; each with the line of its value
// in `content`. `j` is `content` parsed, `type` its descriptorType. Throws json::exception.
void extractCopiesAndSymbols(std::string_view path, std::string_view content, const nlohmann::json& j,
                             const std::string& type, bool catalog, FileFacts& f);

}  // namespace impact::descriptor_detail
