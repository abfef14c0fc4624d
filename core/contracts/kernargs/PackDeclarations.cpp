#include "contracts/kernargs/PackDeclarations.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace impact::kernargs_detail {

namespace {

std::string lastComponent(const std::string& name) {
  auto p = name.rfind("::");
  return p == std::string::npos ? name : name.substr(p + 2);
}

bool isTestPath(const std::string& path) { return path.find("/tests/") != std::string::npos; }

// Of several C++ files, the pack: a file in the packs folder first, then any that is no test.
std::string preferPack(const std::vector<std::string>& files, const Layout& layout) {
  for (const auto& f : files)
    if (f.starts_with(layout.packsDir)) return f;
  for (const auto& f : files)
    if (!isTestPath(f)) return f;
  return "";
}

// The C++ files defining a function of that name (its last component).
std::vector<std::string> definingFiles(const TreeFacts& facts, const std::string& function) {
  std::vector<std::string> out;
  for (const auto& [path, f] : facts.files) {
    if (!f || f->kind != FileKind::Cpp) continue;
    for (const auto& d : f->module.defs)
      if (d.kind == PyDef::Kind::Function && lastComponent(d.name) == function) {
        out.push_back(path);
        break;
      }
  }
  return out;
}

void addBuilder(PackDeclaration& d, const std::string& module, const std::string& builder) {
  std::pair<std::string, std::string> b{module, builder};
  if (std::find(d.builders.begin(), d.builders.end(), b) == d.builders.end()) d.builders.push_back(std::move(b));
}

void addArchs(PackDeclaration& d, const std::vector<std::string>& archs) {
  for (const auto& a : archs)
    if (std::find(d.archs.begin(), d.archs.end(), a) == d.archs.end()) d.archs.push_back(a);
}

// The pack file a KDP names: the file holding its dispatch symbol (the UDD its `dispatch` id
// names), else a file holding `<ns>.<slug>.` symbols for its name `<ns>:<slug>`.
std::optional<PackFile> kdpPackFile(const TreeFacts& facts, const Layout& layout, const DescriptorFacts& kdp) {
  std::string symbol, udd;
  if (!kdp.dispatch.empty())
    for (const auto& [path, f] : facts.files)
      if (f && f->descriptor && f->descriptor->type == "udd" && f->descriptor->id == kdp.dispatch)
        for (const auto& s : f->symbols.descriptorSymbols)
          if (s.key == "dispatch_symbol" && !s.value.empty()) symbol = s.value, udd = path;
  std::string prefix;
  if (auto colon = kdp.name.find(':'); colon != std::string::npos && colon > 0 && colon + 1 < kdp.name.size())
    prefix = kdp.name.substr(0, colon) + "." + kdp.name.substr(colon + 1) + ".";
  if (symbol.empty() && prefix.empty()) return std::nullopt;
  std::vector<std::string> bySymbol, byPrefix;
  for (const auto& [path, f] : facts.files) {
    if (!f || f->kind != FileKind::Cpp) continue;
    bool s = false, p = false;
    for (const auto& c : f->symbols.constants) {
      s = s || (!symbol.empty() && c.value == symbol);
      p = p || (!prefix.empty() && c.value.starts_with(prefix));
    }
    if (s) bySymbol.push_back(path);
    if (p) byPrefix.push_back(path);
  }
  if (std::string file = preferPack(bySymbol, layout); !file.empty())
    return PackFile{file, absl::StrCat("holds its dispatch symbol ", symbol, " (", udd, ")")};
  if (std::string file = preferPack(byPrefix, layout); !file.empty())
    return PackFile{file, absl::StrCat("holds the ", prefix, "* symbols of ", kdp.name)};
  return std::nullopt;
}

}  // namespace

std::optional<PackFile> enginePackFile(const TreeFacts& facts, const Layout& layout, const std::string& engine) {
  auto colon = engine.find(':');
  const std::string name = colon == std::string::npos ? engine : engine.substr(colon + 1);
  // The ingestor's pack table names the function that registers the engine's pack.
  for (const auto& [path, f] : facts.files) {
    if (!f || f->kind != FileKind::Cpp) continue;
    for (const auto& r : f->symbols.engineRegistrations)
      if (r.engine == engine)
        if (std::string file = preferPack(definingFiles(facts, r.function), layout); !file.empty())
          return PackFile{file, absl::StrCat("defines ", r.function, ", which ", path, " registers for ", engine)};
  }
  if (name.empty()) return std::nullopt;
  const std::string conventional = "register" + name + "Symbols";
  if (std::string file = preferPack(definingFiles(facts, conventional), layout); !file.empty())
    return PackFile{file, absl::StrCat("defines ", conventional)};
  const std::string byName = layout.packsDir + name + "Native.cpp";
  if (const FileFacts* f = facts.find(byName); f && f->kind == FileKind::Cpp)
    return PackFile{byName, absl::StrCat("is named ", name, "Native.cpp (no registration of ", engine, " found)"), true};
  return std::nullopt;
}

std::map<std::string, std::vector<PackDeclaration>> packDeclarations(const TreeFacts& facts, const Layout& layout) {
  std::map<std::string, std::vector<PackDeclaration>> out;
  // Shipped KDPs.
  for (const auto& [path, f] : facts.files) {
    if (!f || !f->descriptor || f->descriptor->type != "kdp") continue;
    const DescriptorFacts& d = *f->descriptor;
    if (d.launches.empty() && d.legacyLaunches.empty()) continue;
    auto pack = kdpPackFile(facts, layout, d);
    if (!pack) continue;
    PackDeclaration decl;
    decl.pairedBy = absl::StrCat("KDP ", path, " kernel_source");
    decl.path = path;
    decl.packVia = pack->via;
    for (const auto* ls : {&d.launches, &d.legacyLaunches})
      for (const auto& l : *ls) addBuilder(decl, layout.libraryPath(l.source), l.builder);
    addArchs(decl, d.arch);
    out[pack->path].push_back(std::move(decl));
  }
  // Generator configs: one declaration per (config, engine).
  std::map<std::string, PackFile> packOfEngine;
  std::set<std::string> unresolved;
  for (const auto& [path, f] : facts.files) {
    if (!f || !f->generator) continue;
    std::map<std::string, PackDeclaration> byEngine;
    for (const GeneratorSource& s : f->generator->sources) {
      if (s.engine.empty() || !s.namesBuilder()) continue;
      if (!packOfEngine.count(s.engine) && !unresolved.count(s.engine)) {
        if (auto p = enginePackFile(facts, layout, s.engine)) packOfEngine.emplace(s.engine, *p);
        else unresolved.insert(s.engine);
      }
      auto pf = packOfEngine.find(s.engine);
      if (pf == packOfEngine.end()) continue;
      PackDeclaration& decl = byEngine[s.engine];
      decl.pairedBy = absl::StrCat("generator config ", path, " pack ", s.engine);
      decl.path = path;
      decl.packVia = pf->second.via;
      decl.byFileName = pf->second.byFileName;
      addBuilder(decl, layout.libraryPath(s.source), s.builder);
      addArchs(decl, s.arch);
    }
    for (auto& [engine, decl] : byEngine) out[packOfEngine.at(engine).path].push_back(std::move(decl));
  }
  return out;
}

}  // namespace impact::kernargs_detail
