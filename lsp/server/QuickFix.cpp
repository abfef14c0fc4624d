#include "server/QuickFix.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"

namespace impact::server {

namespace {
size_t offsetOf(const std::string& text, uint32_t line, uint32_t col) {
  size_t off = 0;
  for (uint32_t l = 0; l < line && off < text.size(); ++l) {
    size_t nl = text.find('\n', off);
    if (nl == std::string::npos) return text.size();
    off = nl + 1;
  }
  return std::min(text.size(), off + col);
}

std::string indentOf(const std::string& text, uint32_t line) {
  size_t start = offsetOf(text, line, 0), i = start;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  return text.substr(start, i - start);
}
}  // namespace

std::optional<std::string> rewriteList(const std::string& text, const CppArgList& list, const PyAbi& abi) {
  if (list.form != CppArgList::Form::Static || list.args.empty()) return std::nullopt;
  const KernelArg& first = list.args.front();
  size_t fb = offsetOf(text, first.range.line, first.range.col);
  bool compound = text.compare(fb, 14, "KernelArgument") == 0;
  bool withOffsets = false;
  std::map<std::pair<std::string, uint32_t>, std::string> sizeText;  // (kind, size) -> as written
  std::set<std::string> copyNames;
  for (const auto& a : list.args) {
    if (a.offset >= 0) withOffsets = true;
    if (!a.typeText.empty() && a.size) sizeText.emplace(std::make_pair(a.kind, a.size), a.typeText);
    if (!a.name.empty()) copyNames.insert(a.name);
  }
  std::string indent = indentOf(text, first.range.line);
  std::string closeIndent = indentOf(text, list.range.endLine);
  bool multiLine = list.range.line != first.range.line;

  std::string out = "{";
  uint32_t offset = 0;
  bool firstOut = true;
  for (const auto& a : abi.args) {
    // A conditional argument stays out unless the copy already states it.
    if (a.conditional && !copyNames.count(a.name)) continue;
    if (a.size == 0 || a.kind.empty()) return std::nullopt;  // cannot state an unresolved type
    if (a.size > 1) offset = (offset + a.size - 1) / a.size * a.size;
    auto st = sizeText.find({a.kind, a.size});
    std::string size = st != sizeText.end() ? st->second : std::to_string(a.size);
    std::string name = list.named ? a.name : "";
    std::string elem = absl::StrCat(compound ? "KernelArgument{" : "{", "\"", a.kind, "\", ", size, ", ",
                                    withOffsets ? std::to_string(offset) : "0", ", \"", name, "\"}");
    if (multiLine) absl::StrAppend(&out, "\n", indent, elem, ",");
    else absl::StrAppend(&out, firstOut ? "" : ", ", elem);
    firstOut = false;
    offset += a.size;
  }
  if (multiLine) absl::StrAppend(&out, "\n", closeIndent);
  out += "}";
  return out;
}

}  // namespace impact::server
