#include "extract/TextChecks.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace impact {

namespace {
constexpr size_t kMaxSourceBytes = 4u << 20;       // a source file larger than this is not parsed
constexpr size_t kMaxDescriptorBytes = 64u << 20;  // the real KDP is 1.2 MB
constexpr size_t npos = std::string_view::npos;

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// One decoding step at i: the length of the valid sequence there, or 0 when it is invalid.
size_t sequenceAt(std::string_view s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if (!continuation(static_cast<unsigned char>(s[i + k]))) return 0;
  if (len == 2 && c < 0xC2) return 0;  // overlong
  return len;
}
}  // namespace

size_t invalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t len = sequenceAt(s, i);
    if (len == 0) return i;
    i += len;
  }
  return npos;
}

TextChecks TextChecks::of(std::string_view text) {
  TextChecks c;
  c.nuls = static_cast<size_t>(std::count(text.begin(), text.end(), '\0'));
  c.firstBadUtf8 = invalidUtf8(text);
  return c;
}

void TextChecks::update(std::string_view before, std::string_view after, size_t start, size_t oldEnd,
                        size_t newEnd) {
  bool consistent = start <= oldEnd && oldEnd <= before.size() && start <= newEnd && newEnd <= after.size() &&
                    before.size() - (oldEnd - start) + (newEnd - start) == after.size();
  if (!consistent || firstBadUtf8 != npos) {
    *this = of(after);
    return;
  }
  nuls -= static_cast<size_t>(std::count(before.begin() + start, before.begin() + oldEnd, '\0'));
  nuls += static_cast<size_t>(std::count(after.begin() + start, after.begin() + newEnd, '\0'));
  // `before` was valid: every byte that is not a continuation byte starts a sequence, and the
  // text from any sequence start on is valid. Decode from the sequence holding `start` (the
  // bytes before it are unchanged) up to the first sequence start at or after newEnd, from where
  // the text is `before`'s valid rest.
  size_t i = start;
  for (int back = 0; back < 3 && i > 0 && i < before.size() && continuation(static_cast<unsigned char>(before[i])); ++back) --i;
  while (i < after.size() && (i < newEnd || continuation(static_cast<unsigned char>(after[i])))) {
    size_t len = sequenceAt(after, i);
    if (len == 0) {
      firstBadUtf8 = i;
      return;
    }
    i += len;
  }
}

std::string TextChecks::reason(FileKind kind, std::string_view text) const {
  if (nuls > 0) return "binary content (NUL byte)";
  size_t limit = kind == FileKind::Descriptor ? kMaxDescriptorBytes : kMaxSourceBytes;
  if (text.size() > limit) return absl::StrCat("file too large to analyse (", text.size(), " bytes; limit ", limit, ")");
  if (firstBadUtf8 != npos) {
    size_t line = 1 + std::count(text.begin(), text.begin() + firstBadUtf8, '\n');
    return absl::StrCat("line ", line, ": invalid UTF-8 at byte ", firstBadUtf8);
  }
  return "";
}

}  // namespace impact
