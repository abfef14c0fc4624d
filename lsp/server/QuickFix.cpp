#include "server/QuickFix.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "contracts/kernargs/NameKeyedComparison.h"

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
  if (!abi.tailHelper.empty()) return std::nullopt;  // the builder's list is known only up to a helper
  const KernelArg& first = list.args.front();
  size_t fb = offsetOf(text, first.range.line, first.range.col);
  bool compound = text.compare(fb, 14, "KernelArgument") == 0;
  bool withOffsets = false;
  // How the copy writes sizes: per (kind, size) every text it uses (PTR, I32, F32, 8, 4...),
  // per builder type (Python text) the copy's text for an argument both state, and per name.
  std::map<std::pair<std::string, uint32_t>, std::set<std::string>> sizeTexts;
  std::map<std::string, std::string> byType;
  std::map<std::string, const KernelArg*> copyByName;
  for (const auto& a : list.args) {
    if (a.offset >= 0) withOffsets = true;
    if (!a.typeText.empty() && a.size) sizeTexts[{a.kind, a.size}].insert(a.typeText);
    if (!a.name.empty()) copyByName.emplace(a.name, &a);
  }
  auto learn = [&](const KernelArg& b, const KernelArg& c) {
    if (!b.typeText.empty() && !c.typeText.empty() && b.kind == c.kind && b.size == c.size)
      byType.emplace(b.typeText, c.typeText);
  };
  if (list.named) {
    for (const auto& b : abi.args)
      if (auto it = copyByName.find(b.name); it != copyByName.end()) learn(b, *it->second);
  } else {
    for (size_t i = 0; i < std::min(abi.args.size(), list.args.size()); ++i) learn(abi.args[i], list.args[i]);
  }
  // The size as this copy would write it for builder argument `a`.
  auto sizeFor = [&](const KernelArg& a) -> std::string {
    if (auto it = copyByName.find(a.name); list.named && it != copyByName.end() && it->second->kind == a.kind &&
                                           it->second->size == a.size && !it->second->typeText.empty())
      return it->second->typeText;  // the element as it is written
    if (auto it = byType.find(a.typeText); it != byType.end()) return it->second;
    if (auto it = sizeTexts.find({a.kind, a.size}); it != sizeTexts.end()) {
      if (it->second.size() == 1) return *it->second.begin();
      if (it->second.count(a.typeText)) return a.typeText;  // I32 written I32
    }
    return std::to_string(a.size);
  };
  std::string indent = indentOf(text, first.range.line);
  std::string closeIndent = indentOf(text, list.range.endLine);
  bool multiLine = list.range.line != first.range.line;

  std::string out = "{";
  uint32_t offset = 0;
  bool firstOut = true;
  for (const auto& a : abi.args) {
    // A conditional argument stays out unless the copy already states it.
    if (a.conditional && !copyByName.count(a.name)) continue;
    if (a.size == 0 || a.kind.empty()) return std::nullopt;  // cannot state an unresolved type
    if (a.size > 1) offset = (offset + a.size - 1) / a.size * a.size;
    std::string size = sizeFor(a);
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

std::optional<CatalogRewrite> rewriteCatalogSignature(const std::string& text, const CppArgList& list,
                                                      const PyAbi& abi) {
  // A list with an open end (a helper called after the declarations) is written as the comparison
  // read it: the arguments known, which the comparison found the entry disagreeing with.
  if (!list.catalog) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> elems;  // name, catalog type
  for (size_t i = 0; i < abi.args.size(); ++i) {
    const KernelArg& a = abi.args[i];
    std::string type = a.kind == "global_buffer" ? "ptr" : kernargs_detail::scalarClass(a, false);

    if (type != "ptr" && type != "f32" && type != "i32" && type != "i64") return std::nullopt;
    std::string name = a.name;
    if (!list.named && list.args.size() == abi.args.size()) {
      const std::string& t = list.args[i].typeText;  // "X: ptr"
      auto colon = t.rfind(": ");
      if (colon != std::string::npos) name = t.substr(0, colon);
    }
    if (name.empty()) return std::nullopt;
    elems.push_back({name, type});
  }
  const uint32_t first = list.range.line, last = list.range.endLine;
  size_t to = text.find('\n', offsetOf(text, last, 0));
  if (to == std::string::npos) to = text.size();
  std::string lastLine = text.substr(offsetOf(text, last, 0), to - offsetOf(text, last, 0));
  while (!lastLine.empty() && (lastLine.back() == ' ' || lastLine.back() == '\r')) lastLine.pop_back();
  const bool comma = !lastLine.empty() && lastLine.back() == ',';
  const std::string indent = indentOf(text, first);
  auto elem = [](const std::pair<std::string, std::string>& e) {
    return absl::StrCat("{\"name\": \"", e.first, "\", \"type\": \"", e.second, "\"}");
  };
  std::string out = indent + "\"args_signature\": [";
  if (first == last) {
    for (size_t i = 0; i < elems.size(); ++i) absl::StrAppend(&out, i ? ", " : "", elem(elems[i]));
    out += "]";
  } else {
    std::string inner = indent + "    ";
    if (!list.args.empty() && list.args.front().range.line != first) inner = indentOf(text, list.args.front().range.line);
    // json.dumps(indent=…) style: each element's keys on lines of their own.
    const bool expanded = list.args.size() > 1 && list.args[1].range.line > list.args[0].range.line + 1;
    const std::string step = inner.size() > indent.size() ? inner.substr(indent.size()) : "    ";
    for (size_t i = 0; i < elems.size(); ++i) {
      const char* sep = i + 1 < elems.size() ? "," : "";
      if (expanded)
        absl::StrAppend(&out, "\n", inner, "{\n", inner, step, "\"name\": \"", elems[i].first, "\",\n", inner, step,
                        "\"type\": \"", elems[i].second, "\"\n", inner, "}", sep);
      else
        absl::StrAppend(&out, "\n", inner, elem(elems[i]), sep);
    }
    absl::StrAppend(&out, "\n", indent, "]");
  }
  if (comma) out += ",";
  CatalogRewrite r;
  r.range.line = first;
  r.range.col = 0;
  r.range.endLine = last;
  r.range.endCol = uint32_t(to - offsetOf(text, last, 0));
  r.text = std::move(out);
  return r;
}

}  // namespace impact::server
