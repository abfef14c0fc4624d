// SPEC R2.5: descriptor symbol strings (UED graph_match.native, UMD match_symbol, UHD payload,
// UDD dispatch_symbol) against the packs' string constants; the KMD fields the C++ reads
// (get*Metadata through *_FIELD constants; tryGetMetadata is not a read) against the fields the
// manifest's kmd_fields and the bundle's KMD schema declare. A break is a mismatch; a row is
// given only when a file involved was touched.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "judge/Contracts.h"

namespace impact {

namespace {

std::string pathDirOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string pathBaseName(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string stem(const std::string& path) {
  std::string b = pathBaseName(path);
  auto dot = b.find('.');
  return dot == std::string::npos ? b : b.substr(0, dot);
}

// The bundle a descriptor belongs to: its folder (descriptors/rocKE/<bundle>/x.ued.json).
std::string bundleOf(const std::string& path) { return pathBaseName(pathDirOf(path)); }

// "gfx950_attention_dense" -> "Gfx950AttentionDense"
std::string camel(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char c : snake) {
    if (c == '_' || c == '-' || c == '.') {
      up = true;
      continue;
    }
    out.push_back(up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    up = false;
  }
  return out;
}

// Does a C++ file belong to a bundle / slug: its stem starts with the bundle in CamelCase
// (Gfx950AttentionDenseNative.cpp, TestGfx950AttentionDenseSignature.cpp).
bool fileOfBundle(const std::string& cppPath, const std::string& bundle) {
  if (bundle.empty()) return false;
  std::string s = stem(cppPath), c = camel(bundle);
  if (s.starts_with("Test")) s = s.substr(4);
  return s.size() >= c.size() && s.compare(0, c.size(), c) == 0 &&
         (s.size() == c.size() || std::isupper(static_cast<unsigned char>(s[c.size()])));
}

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

struct SymbolFinding {
  std::string key;
  std::string contract;
  Location python, mirror;
  std::string message;
  std::set<std::string> involved;  // a row is given when one of these was touched
  std::string arch;
};

struct PackConstant {
  std::string path;
  const CppStringConstant* constant;
};

std::vector<SymbolFinding> symbolFindings(const TreeFacts& facts, const Layout& layout) {
  std::vector<SymbolFinding> out;
  std::vector<PackConstant> constants;
  for (const auto& [path, f] : facts.files)
    if (f->kind == FileKind::Cpp && path.starts_with(layout.packsDir))
      for (const auto& k : f->symbols.constants) constants.push_back({path, &k});

  for (const auto& [path, f] : facts.files) {
    if (f->kind != FileKind::Descriptor || f->symbols.descriptorSymbols.empty()) continue;
    std::string bundle = bundleOf(path);
    for (const auto& s : f->symbols.descriptorSymbols) {
      bool found = false;
      for (const auto& pc : constants) found = found || pc.constant->value == s.value;
      if (found) continue;
      // The closest constant: in the packs of the descriptor's bundle first, else anywhere.
      const PackConstant* closest = nullptr;
      size_t best = SIZE_MAX;
      std::set<std::string> bundlePacks;
      for (const auto& [p, pf] : facts.files)
        if (pf->kind == FileKind::Cpp && p.starts_with(layout.packsDir) && fileOfBundle(p, bundle)) bundlePacks.insert(p);
      for (int pass = 0; pass < 2 && !closest; ++pass)
        for (const auto& pc : constants) {
          if (pass == 0 && !bundlePacks.count(pc.path)) continue;
          size_t d = editDistance(s.value, pc.constant->value);
          if (d < best) {
            best = d;
            closest = &pc;
          }
        }
      SymbolFinding fd;
      fd.contract = "symbols";
      fd.key = absl::StrCat("symbols|", path, "|", s.key);
      fd.python = {path, s.line + 1, s.key, {s.line, 0, s.line, 0}, {s.line, 0, s.line, 0}};
      fd.message = absl::StrCat("descriptor ", s.key, " \"", s.value, "\"",
                                s.scope.empty() ? "" : absl::StrCat(" (scope ", s.scope, ")"),
                                " equals no pack constant");
      if (closest) {
        const auto& k = *closest->constant;
        fd.mirror = {closest->path, k.line + 1, k.name, {k.line, k.col, k.line, k.col}, {k.line, k.col, k.line, k.col}};
        absl::StrAppend(&fd.message, "; closest: ", k.name, " = \"", k.value, "\" in ", pathBaseName(closest->path));
        fd.involved.insert(closest->path);
      } else {
        absl::StrAppend(&fd.message, "; the packs under ", layout.packsDir, " hold no string constants");
      }
      fd.involved.insert(path);
      fd.involved.insert(bundlePacks.begin(), bundlePacks.end());
      fd.arch = archFromPath(path);
      if (fd.arch.empty() && closest) fd.arch = archFromPath(closest->path);
      out.push_back(std::move(fd));
    }
  }
  return out;
}

std::vector<SymbolFinding> kmdFindings(const TreeFacts& facts, const Layout& layout) {
  std::vector<SymbolFinding> out;
  for (const auto& [cpp, f] : facts.files) {
    if (f->kind != FileKind::Cpp || f->symbols.kmdReads.empty()) continue;
    // What declares the fields this file may read: manifests that name it (cpp_mirror, test) or
    // whose slug is its pack, and the KMD schemas of its bundle.
    std::set<std::string> declared, sources;
    for (const auto& [mp, mf] : facts.files) {
      if (mf->manifest) {
        const Manifest& m = *mf->manifest;
        bool names = fileOfBundle(cpp, m.slug);
        for (const auto& s : m.surfaces) names = names || s.cppPath == cpp || s.testPath == cpp;
        if (!names) continue;
        sources.insert(mp);
        for (const auto& k : m.kmdFields) declared.insert(k.name);
        for (const auto& s : m.surfaces)
          if (s.cppPath == cpp)
            for (const auto& k : s.kmdFields) declared.insert(k);
      } else if (mf->kind == FileKind::Descriptor && mf->symbols.kmdSchema && fileOfBundle(cpp, bundleOf(mp))) {
        sources.insert(mp);
        for (const auto& k : mf->symbols.kmdFields) declared.insert(k.name);
      }
    }
    if (sources.empty()) continue;  // nothing declares this file's fields: nothing to compare
    std::set<std::string> reported;
    for (const auto& r : f->symbols.kmdReads) {
      if (declared.count(r.field) || !reported.insert(r.field).second) continue;
      SymbolFinding fd;
      fd.contract = "kmd-fields";
      fd.key = absl::StrCat("kmd-fields|", cpp, "|", r.field);
      std::string what = r.constant.empty() ? r.method : r.constant;
      fd.mirror = {cpp, r.line + 1, what, {r.line, r.col, r.line, r.col}, {r.line, r.col, r.line, r.col}};
      fd.python = {*sources.begin(), 0, "", {}, {}};
      std::vector<std::string> names;
      for (const auto& s : sources) names.push_back(pathBaseName(s));
      fd.message = absl::StrCat("reads KMD field \"", r.field, "\"",
                                r.constant.empty() ? "" : absl::StrCat(" through ", r.constant), " (", r.method,
                                ") that ", absl::StrJoin(names, ", "), sources.size() > 1 ? " do" : " does",
                                " not declare");
      fd.involved = sources;
      fd.involved.insert(cpp);
      fd.arch = archFromPath(cpp);
      out.push_back(std::move(fd));
    }
  }
  return out;
}

}  // namespace

ContractRows judgeSymbols(const JudgeContext& cx) {
  const Revision& base = cx.base;
  const Revision& head = cx.head;
  const Layout& layout = cx.layout;
  ContractRows out;
  std::vector<SymbolFinding> now = symbolFindings(head.facts, layout), before = symbolFindings(base.facts, layout);
  for (auto& f : kmdFindings(head.facts, layout)) now.push_back(std::move(f));
  for (auto& f : kmdFindings(base.facts, layout)) before.push_back(std::move(f));
  std::set<std::string> beforeKeys;
  for (const auto& f : before) beforeKeys.insert(f.key);
  for (const auto& f : now) {
    bool any = false;
    for (const auto& p : f.involved) any = any || touched(base, head, p);
    if (!any) continue;
    Row r;
    r.contract = f.contract;
    r.status = Status::Mismatch;
    r.python = f.python;
    r.mirror = f.mirror;
    r.key = f.key;
    r.message = f.message;
    r.preexisting = beforeKeys.count(f.key) > 0;
    if (r.preexisting) r.message += " (already so at the base)";
    if (!f.arch.empty()) r.archs = {f.arch};
    for (const auto& p : f.involved)
      if (touched(base, head, p)) out.explained.insert(p);
    out.covered.insert(f.involved.begin(), f.involved.end());
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
