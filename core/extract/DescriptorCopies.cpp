#include "extract/DescriptorCopies.h"

#include "extract/Descriptor.h"
#include "extract/python/RockeTypes.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "parse/Syntax.h"

// A descriptor's copies of the argument list (packed UKD signatures, AOT catalog entries) and its
// symbol strings and KMD fields, each with the line of its value in the text.

namespace impact {

using nlohmann::json;
using descriptor_detail::specOf;

namespace {
// Lines of JSON values. nlohmann/json keeps no positions, so a small scanner walks the text and
// records the 0-based line of every value at or below a key of interest, by JSON pointer
// ("/kernelDescriptors/3/kernel_source/signature/0"), built from the raw key text.
class LineIndex {
 public:
  LineIndex(std::string_view s, std::set<std::string> keys) : keys_(std::move(keys)) { scan(s); }
  std::optional<uint32_t> line(const std::string& pointer) const {
    auto it = lines_.find(pointer);
    if (it == lines_.end()) return std::nullopt;
    return it->second;
  }
  // The line of the bracket that closes the array or object at `pointer`.
  std::optional<uint32_t> endLine(const std::string& pointer) const {
    auto it = ends_.find(pointer);
    if (it == ends_.end()) return std::nullopt;
    return it->second;
  }

 private:
  struct Frame {
    bool object = false;
    bool expectKey = false;
    std::string key;
    size_t index = 0;
  };

  void value(uint32_t line, bool closing = false) {
    bool wanted = false;
    for (const Frame& f : stack_)
      if (f.object && keys_.count(f.key)) wanted = true;
    if (!wanted) return;
    std::string p;
    for (const Frame& f : stack_) p += "/" + (f.object ? f.key : std::to_string(f.index));
    if (closing) ends_[std::move(p)] = line;
    else lines_.emplace(std::move(p), line);
  }

  void scan(std::string_view s) {
    uint32_t line = 0;
    size_t i = 0, n = s.size();
    while (i < n) {
      char c = s[i];
      if (c == '\n') { ++line; ++i; continue; }
      if (c == ' ' || c == '\t' || c == '\r' || c == ':') { ++i; continue; }
      if (c == '{' || c == '[') {
        value(line);
        stack_.push_back({c == '{', c == '{', "", 0});
        ++i;
        continue;
      }
      if (c == '}' || c == ']') {
        if (!stack_.empty()) {
          stack_.pop_back();
          value(line, true);
        }
        ++i;
        continue;
      }
      if (c == ',') {
        if (!stack_.empty()) {
          if (stack_.back().object) stack_.back().expectKey = true;
          else ++stack_.back().index;
        }
        ++i;
        continue;
      }
      if (c == '"') {
        size_t start = ++i;
        uint32_t at = line;
        while (i < n && s[i] != '"') {
          if (s[i] == '\\') ++i;
          else if (s[i] == '\n') ++line;
          ++i;
        }
        std::string_view text = s.substr(start, std::min(i, n) - start);
        ++i;
        if (!stack_.empty() && stack_.back().object && stack_.back().expectKey) {
          stack_.back().key = std::string(text);
          stack_.back().expectKey = false;
        } else {
          value(at);
        }
        continue;
      }
      // number, true, false, null
      value(line);
      while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != '\n' && s[i] != ' ') ++i;
    }
  }

  std::set<std::string> keys_;
  std::vector<Frame> stack_;
  std::unordered_map<std::string, uint32_t> lines_, ends_;
};

std::string str(const json& o, const char* key) {
  if (!o.is_object()) return "";
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The whole line of a JSON value (nlohmann keeps no columns): editors underline the line and a
// hover anywhere on it finds the entry. Columns past the line's end are clamped by readers.
SourceRange lineRange(const LineIndex& idx, const std::string& pointer) {
  SourceRange r;
  if (auto l = idx.line(pointer)) {
    r.line = r.endLine = *l;
    r.endCol = 1u << 20;
  }
  return r;
}

uint64_t listFingerprint(const CppArgList& l, const json& raw) {
  uint64_t h = fnv1a(raw.dump());
  if (l.builderHint) h = fnv1a(l.builderHint->source + "|" + l.builderHint->builder, h);
  for (const auto& [k, v] : l.spec) h = fnv1a(k + "=" + v + ";", h);
  return h;
}

std::optional<CppArgList::BuilderHint> hintOf(const json& o) {
  std::string builder = str(o, "builder");
  if (builder.empty()) return std::nullopt;
  return CppArgList::BuilderHint{str(o, "source"), builder};
}

// A packed UKD's kernel_source (kind kpack) signature: [{kind, size, offset, name?}].
void addKpackSignature(const json& ks, const std::string& ukdName, const std::string& pointer,
                       const LineIndex& idx, std::vector<CppArgList>& out) {
  if (!ks.is_object()) return;
  if (str(ks, "kind") == "kpack") {
    auto sig = ks.find("signature");
    if (sig != ks.end() && sig->is_array()) {
      CppArgList l;
      l.form = CppArgList::Form::Static;
      l.symbol = ukdName;
      l.variable = "signature";
      l.range = lineRange(idx, pointer + "/signature");
      l.builderHint = hintOf(ks);
      if (auto sp = ks.find("spec"); sp != ks.end()) l.spec = specOf(*sp);
      size_t i = 0;
      for (const auto& e : *sig) {
        KernelArg a;
        a.range = lineRange(idx, pointer + "/signature/" + std::to_string(i++));
        if (e.is_object()) {
          a.kind = str(e, "kind");
          a.name = str(e, "name");
          if (auto it = e.find("size"); it != e.end() && it->is_number_unsigned()) a.size = it->get<uint32_t>();
          else if (it != e.end() && it->is_number_integer() && it->get<int64_t>() > 0) a.size = uint32_t(it->get<int64_t>());
          if (auto it = e.find("offset"); it != e.end() && it->is_number_integer()) a.offset = it->get<int64_t>();
          a.typeText = e.dump();
        }
        if (a.kind.empty() || a.size == 0) {
          a.resolved = false;
          a.unresolvedReason = "signature entry without kind or size";
        }
        l.named = l.named || !a.name.empty();
        l.args.push_back(std::move(a));
      }
      l.fingerprint = listFingerprint(l, ks);
      out.push_back(std::move(l));
    }
  }
  // Multi-launch: launches listed under "sources" (a list or a map).
  if (auto it = ks.find("sources"); it != ks.end()) {
    if (it->is_array()) {
      for (size_t i = 0; i < it->size(); ++i)
        addKpackSignature((*it)[i], ukdName + "/" + std::to_string(i), pointer + "/sources/" + std::to_string(i), idx, out);
    } else if (it->is_object()) {
      for (const auto& [k, v] : it->items()) addKpackSignature(v, ukdName + "/" + k, pointer + "/sources/" + k, idx, out);
    }
  }
}

std::string ukdNameOf(const json& ukd, const std::string& fallback) {
  std::string n = str(ukd, "name");
  if (n.empty()) n = str(ukd, "id");
  return n.empty() ? fallback : n;
}

// Catalog entries: every object holding an `args_signature` array, with the builder named by it
// or the nearest enclosing object, compared unnamed (the catalog's own vocabulary).
// `<...>/aot_catalog/<arch>/<family>/family.json` -> {arch, family}; empty when laid out otherwise.
std::pair<std::string, std::string> catalogFolder(std::string_view path) {
  std::string p(path);
  auto at = p.rfind("aot_catalog/");
  if (at == std::string::npos) return {};
  std::string rest = p.substr(at + 12);  // "<arch>/<family>/family.json"
  auto s1 = rest.find('/');
  if (s1 == std::string::npos) return {};
  auto s2 = rest.find('/', s1 + 1);
  if (s2 == std::string::npos || rest.substr(s2 + 1) != "family.json") return {};
  return {rest.substr(0, s1), rest.substr(s1 + 1, s2 - s1 - 1)};
}

void addCatalogEntries(const json& j, const std::string& pointer, std::optional<CppArgList::BuilderHint> hint,
                       const LineIndex& idx, std::vector<CppArgList>& out, int depth,
                       const std::pair<std::string, std::string>& folder) {
  if (depth > 32) return;
  if (j.is_object()) {
    if (auto h = hintOf(j)) hint = h;
    if (auto ks = j.find("kernel_source"); ks != j.end())
      if (auto h = hintOf(*ks)) hint = h;
    if (auto sig = j.find("args_signature"); sig != j.end() && sig->is_array()) {
      CppArgList l;
      l.form = CppArgList::Form::Static;
      l.symbol = str(j, "name");
      if (l.symbol.empty()) l.symbol = str(j, "kernel_name");
      if (l.symbol.empty()) l.symbol = str(j, "symbol");
      if (l.symbol.empty()) l.symbol = str(j, "id");
      if (l.symbol.empty()) l.symbol = pointer.empty() ? "/" : pointer;
      l.variable = "args_signature";
      l.range = lineRange(idx, pointer + "/args_signature");
      if (auto end = idx.endLine(pointer + "/args_signature")) l.range.endLine = *end;  // the quick fix rewrites it whole
      l.builderHint = hint;
      if (auto sp = j.find("spec"); sp != j.end()) l.spec = specOf(*sp);
      if (!hint && !folder.first.empty()) {
        // The real format: no builder named; the folder and the symbol say which kernel, and
        // `_persist<N>` which of its bodies (the persistent early return) the entry restates.
        CppArgList::CatalogEntry ce;
        ce.arch = folder.first;
        ce.family = folder.second;
        ce.symbol = str(j, "symbol");
        ce.persistent = ce.symbol.find("_persist") != std::string::npos;
        if (auto g = j.find("grid"); g != j.end()) ce.grid = g->dump();
        if (auto b = j.find("block"); b != j.end()) ce.block = b->dump();
        ce.geometry = lineRange(idx, pointer + (j.contains("grid") ? "/grid" : "/block"));
        if (l.spec.empty()) l.spec["persistent"] = ce.persistent ? "true" : "false";
        l.catalog = std::move(ce);
      }
      size_t i = 0;
      for (const auto& e : *sig) {
        KernelArg a;
        a.range = lineRange(idx, pointer + "/args_signature/" + std::to_string(i++));
        std::string type = str(e, "type");
        std::string name = str(e, "name");
        a.typeText = name.empty() ? type : name + ": " + type;
        if (!catalogTypeKindSize(type, a.kind, a.size)) {
          a.resolved = false;
          a.unresolvedReason = "catalog type '" + type + "' not known";
        } else if (auto sb = e.find("size_bytes"); sb != e.end() && sb->is_number_unsigned()) {
          a.size = sb->get<uint32_t>();  // an explicit size overrides the type's
        } else if (a.kind == "by_value") {
          a.typeClass = pyextract::typeStringClass(type);  // "f32", "i32", "i64": stated
        }
        l.args.push_back(std::move(a));
      }
      // A real catalog entry's grid/block are judged by the catalog-geometry rule, not here.
      l.fingerprint = listFingerprint(l, l.catalog ? *sig : j);
      out.push_back(std::move(l));
    }
    for (const auto& [k, v] : j.items())
      if (k != "args_signature" && (v.is_object() || v.is_array()))
        addCatalogEntries(v, pointer + "/" + k, hint, idx, out, depth + 1, folder);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i)
      if (j[i].is_object() || j[i].is_array())
        addCatalogEntries(j[i], pointer + "/" + std::to_string(i), hint, idx, out, depth + 1, folder);
  }
}

void addSymbols(const std::string& type, const json& j, const LineIndex& idx, CppSymbolFacts& out) {
  auto add = [&](const char* key, const json* v, const std::string& pointer, const std::string& scope) {
    if (!v || !v->is_string()) return;
    DescriptorSymbol s;
    s.key = key;
    s.value = v->get<std::string>();
    s.scope = scope;
    if (auto l = idx.line(pointer)) s.line = *l;
    out.descriptorSymbols.push_back(std::move(s));
  };
  auto at = [&](const json& o, const char* k) -> const json* {
    if (!o.is_object()) return nullptr;
    auto it = o.find(k);
    return it == o.end() ? nullptr : &*it;
  };
  if (type == "ued") {
    if (const json* gm = at(j, "graph_match")) add("graph_match.native", at(*gm, "native"), "/graph_match/native", "");
  } else if (type == "umd") {
    add("match_symbol", at(j, "match_symbol"), "/match_symbol", str(j, "scope"));
  } else if (type == "uhd") {
    if (const json* p = at(j, "payload"); p && p->is_object()) add("payload", at(*p, "symbol"), "/payload/symbol", "");
    else add("payload", p, "/payload", "");
  } else if (type == "udd") {
    add("dispatch_symbol", at(j, "dispatch_symbol"), "/dispatch_symbol", "");
  } else if (type == "kmd") {
    out.kmdSchema = true;
    if (const json* fs = at(j, "fields"); fs && fs->is_array()) {
      for (size_t i = 0; i < fs->size(); ++i) {
        const json& e = (*fs)[i];
        KmdSchemaField k;
        k.name = str(e, "name");
        if (k.name.empty()) continue;
        k.type = str(e, "type");
        k.hasDefault = e.is_object() && e.contains("default_value");
        if (auto l = idx.line("/fields/" + std::to_string(i))) k.line = *l;
        out.kmdFields.push_back(std::move(k));
      }
    }
  }
}
}  // namespace

bool catalogTypeKindSize(std::string_view type, std::string& kind, uint32_t& size) {
  std::string t;
  for (char c : type)
    if (c != ' ' && c != '\t') t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (t.empty()) return false;
  if (t.starts_with("ptr") || t.ends_with("*") || t.starts_with("pointer")) {
    kind = "global_buffer";
    size = 8;
    return true;
  }
  static const std::map<std::string, uint32_t> kSizes = {
      {"i32", 4}, {"u32", 4}, {"int32", 4}, {"uint32", 4}, {"f32", 4}, {"float32", 4}, {"float", 4},
      {"i64", 8}, {"u64", 8}, {"int64", 8}, {"uint64", 8}, {"f64", 8}, {"float64", 8}, {"double", 8},
      {"f16", 2}, {"bf16", 2}, {"fp16", 2}, {"half", 2}, {"float16", 2}, {"bfloat16", 2}, {"i16", 2}, {"u16", 2},
      {"i8", 1}, {"u8", 1}, {"i1", 1}, {"bool", 1}};
  auto it = kSizes.find(t);
  if (it == kSizes.end()) return false;
  kind = "by_value";
  size = it->second;
  return true;
}

namespace descriptor_detail {
void extractCopiesAndSymbols(std::string_view path, std::string_view content, const json& j, const std::string& type,
                             bool catalog, FileFacts& f) {
  LineIndex idx(content, {"signature", "args_signature", "grid", "block", "graph_match", "match_symbol", "payload",
                          "dispatch_symbol", "fields"});
  addSymbols(type, j, idx, f.symbols);
  if (j.is_object()) {
    if (auto it = j.find("kernelDescriptors"); it != j.end() && it->is_array())
      for (size_t i = 0; i < it->size(); ++i) {
        const json& u = (*it)[i];
        if (!u.is_object()) continue;
        std::string ptr = "/kernelDescriptors/" + std::to_string(i);
        if (auto ks = u.find("kernel_source"); ks != u.end())
          addKpackSignature(*ks, ukdNameOf(u, ptr), ptr + "/kernel_source", idx, f.lists);
      }
    if (auto ks = j.find("kernel_source"); ks != j.end())
      addKpackSignature(*ks, ukdNameOf(j, f.descriptor->name), "/kernel_source", idx, f.lists);
  }
  if (catalog) {
    addCatalogEntries(j, "", std::nullopt, idx, f.lists, 0, catalogFolder(path));
    // The family's `op_kind`: the adapter whose opKind() it is binds the entries' arguments.
    if (auto ok = j.find("op_kind"); j.is_object() && ok != j.end() && ok->is_string())
      for (auto& l : f.lists)
        if (l.catalog) l.catalog->opKind = ok->get<std::string>();
  }
}
}  // namespace descriptor_detail

}  // namespace impact
