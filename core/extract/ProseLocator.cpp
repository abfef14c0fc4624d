#include "extract/ProseLocator.h"

#include <algorithm>
#include <cctype>

namespace impact {

namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "a.b_c.D" — dotted identifiers only.
bool dottedIdentifier(std::string_view s) {
  if (s.empty()) return false;
  bool start = true;
  for (char c : s) {
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (start ? !identStart(c) : !identChar(c)) {
      return false;
    } else {
      start = false;
    }
  }
  return !start;
}

// A name that reads as code rather than English: snake_case, dotted, or CamelCase past its
// first letter ("supports_tiled_2d", "Spec.__post_init__", "UnifiedAttention2DTiledSpec").
bool codeLike(std::string_view s) {
  if (!dottedIdentifier(s)) return false;
  if (s.find('_') != std::string_view::npos || s.find('.') != std::string_view::npos) return true;
  return std::any_of(s.begin() + 1, s.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }) &&
         std::any_of(s.begin(), s.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)); });
}

bool hasFileExtension(std::string_view s) {
  static const char* kExt[] = {".md", ".py", ".json", ".yaml", ".yml", ".cpp", ".hpp", ".h", ".txt", ".cc"};
  for (const char* e : kExt)
    if (s.size() > std::char_traits<char>::length(e) && s.ends_with(e)) return true;
  return false;
}

void addOnce(std::vector<std::string>& v, std::string s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

}  // namespace

std::optional<ProseMentions> proseMentions(std::string_view text) {
  // Words: runs of characters that can spell a path, a dotted name or a line range.
  std::vector<std::string_view> words;
  for (size_t i = 0; i < text.size();) {
    auto wordChar = [](char c) { return identChar(c) || c == '.' || c == '/' || c == ':' || c == '-' || c == '~'; };
    if (!wordChar(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && wordChar(text[j])) ++j;
    std::string_view w = text.substr(i, j - i);
    while (!w.empty() && (w.back() == '.' || w.back() == ':' || w.back() == '-')) w.remove_suffix(1);
    while (!w.empty() && (w.front() == '.' || w.front() == ':' || w.front() == '-' || w.front() == '~')) w.remove_prefix(1);
    if (!w.empty()) words.push_back(w);
    i = j;
  }
  if (words.empty()) return std::nullopt;
  // A locator starts with its path.
  std::string_view first = words[0];
  std::string_view firstPath = first.substr(0, first.find(':'));
  if (firstPath.ends_with(".py") || firstPath.find('/') != std::string_view::npos) {
    // The word lost its leading dots: "../platform/python/rocke/x.py:f" (a path that climbs out
    // of rocke/library) is a locator too.
    size_t ws = text.find_first_not_of(" \t\r\n");
    std::string_view rest = ws == std::string_view::npos ? std::string_view() : text.substr(ws);
    while (!rest.empty() && (rest.front() == '.' || rest.front() == ':' || rest.front() == '-' || rest.front() == '~'))
      rest.remove_prefix(1);
    if (ws != std::string_view::npos && rest.starts_with(first)) return std::nullopt;
  }
  ProseMentions out;
  for (std::string_view w : words) {
    if (auto py = w.find(".py"); py != std::string_view::npos &&
                                 (py + 3 == w.size() || w[py + 3] == ':')) {
      addOnce(out.files, std::string(w.substr(0, py + 3)));
      // "file.py:symbol" names a symbol in that file; "file.py:895-1020" a line range.
      if (py + 3 < w.size()) {
        std::string_view rest = w.substr(py + 4);
        if (dottedIdentifier(rest)) addOnce(out.symbols, std::string(rest));
      }
      continue;
    }
    if (hasFileExtension(w) || w.find('/') != std::string_view::npos) continue;
    if (codeLike(w)) addOnce(out.symbols, std::string(w));
  }
  return out;
}

}  // namespace impact
