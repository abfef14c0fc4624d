// FileFacts to bytes and back, for the on-disk extraction cache (core/cache/DiskCache.h).
//
// TO ADD A FIELD to a struct of model/Facts.h, CppSymbols.h or PythonModule.h: list it, in
// declaration order, in that struct's IMPACT_CODEC line in FactsCodec.cpp (the build fails
// until every field is listed: each line is a structured binding of the whole struct), and bump
// kFactsCodecVersion below. Entries written by another codec version are never read (the
// version is part of every cache key). A new field of a type the codec does not know yet needs
// an operator() in its Writer and Reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "model/Facts.h"

namespace impact {

inline constexpr uint32_t kFactsCodecVersion = 24;  // 24: CppArgList::openStart (issue 36, a list initialised from a call whose list is not read); 23: CppArgList::readThrough (issue 36, a header-only change); 22: a catalog args_signature list's range ends at its closing bracket (21, issue 39), CppArgList::openBefore (issue 36)

// The facts without their path (a cache entry is shared by every path with the same content
// and extraction kind). A flat binary encoding, one field list per struct (FactsCodec.cpp).
std::string encodeFacts(const FileFacts& facts);
// The same bytes appended to `out` (a cache entry's header and payload in one buffer).
void encodeFactsInto(const FileFacts& facts, std::string& out);

// The facts the bytes hold, with `path` set; an error (naming what is wrong) for bytes that are
// not such an encoding: truncated, corrupt, or of another shape.
absl::StatusOr<FileFacts> decodeFacts(std::string_view bytes, std::string_view path);

}  // namespace impact
