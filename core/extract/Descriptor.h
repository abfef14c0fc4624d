// Descriptor JSON files (KDP, UKD, KMD, UED, UMD, UDD, UHD; DOMAIN.md §4), read with nlohmann/json.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "model/Facts.h"

namespace impact {

// The descriptor type from the file name ("x.kdp.json" -> "kdp"; "generic_targets.json" ->
// "generic-targets", the generic-target table); "" when not a descriptor name.
std::string descriptorType(std::string_view path);

// Error text: "byte N: <parser message>" or "<what is wrong>".
absl::StatusOr<DescriptorFacts> parseDescriptor(std::string_view path, std::string_view content);

// The whole descriptor extraction of one file into `f`: descriptor facts, the symbol strings of
// UED/UMD/UHD/UDD files and the fields of a KMD (f.symbols), and the descriptor copies of the
// argument list (f.lists, Form::Static): packed UKD `kernel_source.signature` arrays
// ({kind,size,offset,name?}) and catalog `args_signature` lists ({name,type}, compared unnamed)
// of `rocke/aot_catalog/**/family.json`. Sets f.ok/f.error on malformed JSON.
void extractDescriptor(std::string_view path, std::string_view content, FileFacts& f);

// Is the path a rocKE AOT catalog (`.../aot_catalog/**/family.json`)?
bool isAotCatalog(std::string_view path);

// Kind and size of a catalog/SignatureBuilder type string: "ptr<bf16,global>" and "T*" ->
// global_buffer/8; i32, f32 -> by_value/4; i64, f64 -> 8; f16, bf16 -> 2; i8 -> 1.
// false when the type is not known.
bool catalogTypeKindSize(std::string_view type, std::string& kind, uint32_t& size);

// Fingerprint of the JSON value: whitespace, key order and number spelling edits keep it.
// (extractDescriptor leaves a symbol or metadata descriptor's `name` label out of its facts'
// fingerprint; this one keeps every value.)
uint64_t jsonValueFingerprint(std::string_view content);

}  // namespace impact
