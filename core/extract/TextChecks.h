// The text checks that decide whether a file can be read at all (NUL bytes, size, UTF-8), kept
// per open buffer so that an edit re-checks only the bytes it changed (issue 18): the state of
// the rest of the document is carried over. `reason` gives the same message as a full check.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "model/Facts.h"

namespace impact {

struct TextChecks {
  size_t nuls = 0;                              // NUL bytes in the text
  size_t firstBadUtf8 = std::string_view::npos;  // offset of the first invalid UTF-8 sequence

  static TextChecks of(std::string_view text);
  // `before` had these checks; bytes [start, oldEnd) of it were replaced, giving `after`, whose
  // replacement ends at newEnd. Scans only the replaced bytes (and the UTF-8 sequences that
  // cross their ends) while `before` was valid UTF-8; otherwise checks `after` again whole.
  void update(std::string_view before, std::string_view after, size_t start, size_t oldEnd, size_t newEnd);
  // Why a file of this kind with this text cannot be analysed, or "".
  std::string reason(FileKind kind, std::string_view text) const;
};

// Byte offset of the first invalid UTF-8 sequence of s, or npos.
size_t invalidUtf8(std::string_view s);

}  // namespace impact
