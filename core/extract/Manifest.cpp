#include "extract/Manifest.h"

#include <yaml-cpp/yaml.h>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "extract/ProseLocator.h"
#include "parse/Syntax.h"

namespace impact {

namespace {
std::string scalar(const YAML::Node& n, const char* key) {
  const YAML::Node v = n[key];
  if (!v || !v.IsScalar()) return "";
  return v.as<std::string>();
}

std::vector<std::string> scalarList(const YAML::Node& n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const auto& x : n)
      if (x.IsScalar()) out.push_back(x.as<std::string>());
  return out;
}

std::string noneToEmpty(std::string s) {
  std::string t(absl::StripAsciiWhitespace(s));
  return t == "none" || t == "None" || t == "null" ? std::string() : t;
}

void hashNode(const YAML::Node& n, uint64_t& h) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar:
      h = fnv1a("s", h);
      h = fnv1a(n.Scalar(), h);
      break;
    case YAML::NodeType::Sequence:
      h = fnv1a("[", h);
      for (const auto& x : n) hashNode(x, h);
      h = fnv1a("]", h);
      break;
    case YAML::NodeType::Map: {
      // Key order is not a value: hash entries sorted by key.
      std::vector<std::pair<std::string, uint64_t>> entries;
      for (const auto& kv : n) {
        uint64_t eh = 1469598103934665603ULL;
        hashNode(kv.second, eh);
        entries.emplace_back(kv.first.IsScalar() ? kv.first.Scalar() : std::string("?"), eh);
      }
      std::sort(entries.begin(), entries.end());
      h = fnv1a("{", h);
      for (auto& [k, v] : entries) {
        h = fnv1a(k, h);
        h = fnv1a(std::string_view(reinterpret_cast<const char*>(&v), sizeof v), h);
      }
      h = fnv1a("}", h);
      break;
    }
    default:
      h = fnv1a("~", h);
  }
}
}  // namespace

void splitLocator(std::string_view locator, std::string& path, std::string& symbol) {
  std::string_view s = locator;
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  // Trailing prose starts at the first whitespace.
  auto ws = s.find_first_of(" \t\n");
  if (ws != std::string_view::npos) s = s.substr(0, ws);
  // "path.py:symbol" — the symbol follows the last ':' after the file name.
  auto slash = s.rfind('/');
  auto colon = s.find(':', slash == std::string_view::npos ? 0 : slash);
  if (colon == std::string_view::npos) {
    path = std::string(s);
    symbol.clear();
  } else {
    // Both read before either is written: `locator` may view `path` itself.
    std::string p(s.substr(0, colon)), sym(s.substr(colon + 1));
    path = std::move(p);
    symbol = std::move(sym);
    while (!symbol.empty() && (symbol.back() == ',' || symbol.back() == ';')) symbol.pop_back();
  }
}

namespace {

bool symbolChar(char ch) { return absl::ascii_isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == ':'; }

}  // namespace

std::vector<std::string> moreLocatorSymbols(std::string_view locator) {
  std::vector<std::string> out;
  std::string_view s = locator;
  auto skipSpace = [&] {
    while (!s.empty() && absl::ascii_isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  };
  skipSpace();
  auto ws = s.find_first_of(" \t\n");
  if (ws == std::string_view::npos || s.substr(0, ws).find(':') == std::string_view::npos) return out;
  bool separated = s.substr(0, ws).ends_with(",");  // "path:f, g"
  s.remove_prefix(ws);
  for (;;) {
    skipSpace();
    if (separated) separated = false;
    else if (s.starts_with(",")) s.remove_prefix(1);
    else if (s.starts_with("and") && s.size() > 3 && absl::ascii_isspace(static_cast<unsigned char>(s[3])))
      s.remove_prefix(3);
    else if (s.starts_with("&&")) s.remove_prefix(2);
    else break;
    skipSpace();
    size_t n = 0;
    while (n < s.size() && symbolChar(s[n])) ++n;
    // A name, not prose: it starts with a letter or '_' and is followed by a separator or the end.
    if (n == 0 || absl::ascii_isdigit(static_cast<unsigned char>(s[0])) || s[0] == ':') break;
    std::string_view name = s.substr(0, n);
    std::string_view rest = s.substr(n);
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    if (!rest.empty() && rest.front() == '(') break;  // a call in prose: "and prepare() trusts"
    out.emplace_back(name);
    s = s.substr(n);
    if (s.starts_with(",")) {  // "g, h"
      s.remove_prefix(1);
      separated = true;
    }
  }
  return out;
}

absl::StatusOr<Manifest> parseManifest(std::string_view content) { return parseManifest(content, nullptr); }

absl::StatusOr<Manifest> parseManifest(std::string_view content, uint64_t* fingerprint) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(content));
  } catch (const YAML::Exception& e) {
    if (fingerprint) *fingerprint = fnv1a(content);
    return absl::InvalidArgumentError(absl::StrCat("line ", e.mark.line + 1, ": ", e.msg));
  }
  if (fingerprint) *fingerprint = yamlValueFingerprint(root);
  Manifest m;
  if (!root || root.IsNull()) return m;
  if (!root.IsMap()) return absl::InvalidArgumentError("line 1: a profile is a YAML mapping");
  try {
    m.arch = scalar(root, "arch");
    m.slug = scalar(root, "slug");
    m.providerRoot = scalar(root, "provider_root");
    m.source = scalar(root, "source");
    m.builder = scalar(root, "builder");
    if (const YAML::Node f = root["kmd_fields"]; f && f.IsSequence()) {
      for (const auto& x : f) {
        if (!x.IsMap()) continue;
        KmdField k{scalar(x, "name"), scalar(x, "type"), std::nullopt};
        if (x["default_value"] && x["default_value"].IsScalar()) k.defaultValue = x["default_value"].as<std::string>();
        m.kmdFields.push_back(std::move(k));
      }
    }
    const YAML::Node ls = root["launch_surface"];
    if (ls && !ls.IsSequence()) return absl::InvalidArgumentError(
        absl::StrCat("line ", ls.Mark().line + 1, ": launch_surface is not a list"));
    if (ls) {
      int i = 0;
      for (const auto& e : ls) {
        ++i;
        if (!e.IsMap())
          return absl::InvalidArgumentError(
              absl::StrCat("line ", e.Mark().line + 1, ": launch_surface entry ", i, " is not a mapping"));
        SurfaceEntry s;
        s.name = scalar(e, "name");
        const std::string pythonSource = scalar(e, "python_source");
        if (auto prose = proseMentions(pythonSource)) {
          s.pythonProse = true;
          s.proseFiles = std::move(prose->files);
          s.proseSymbols = std::move(prose->symbols);
        } else {
          splitLocator(pythonSource, s.pythonPath, s.pythonSymbol);
        }
        splitLocator(scalar(e, "cpp_mirror"), s.cppPath, s.cppSymbol);
        if (!s.cppSymbol.empty()) s.cppMoreSymbols = moreLocatorSymbols(scalar(e, "cpp_mirror"));
        s.kmdFields = scalarList(e["kmd_fields"]);
        s.guard = noneToEmpty(scalar(e, "guard"));
        s.testPath = noneToEmpty(scalar(e, "test"));
        if (!s.testPath.empty()) {
          std::string sym;
          splitLocator(s.testPath, s.testPath, sym);
        }
        s.line = static_cast<uint32_t>(e.Mark().line);
        if (s.name.empty())
          return absl::InvalidArgumentError(
              absl::StrCat("line ", e.Mark().line + 1, ": launch_surface entry ", i, " has no name"));
        m.surfaces.push_back(std::move(s));
      }
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("line ", e.mark.line + 1, ": ", e.msg));
  }
  return m;
}

uint64_t yamlValueFingerprint(const YAML::Node& root) {
  uint64_t h = 1469598103934665603ULL;
  hashNode(root, h);
  return h;
}

uint64_t yamlValueFingerprint(std::string_view content) {
  try {
    return yamlValueFingerprint(YAML::Load(std::string(content)));
  } catch (const YAML::Exception&) {
    return fnv1a(content);
  }
}

}  // namespace impact
