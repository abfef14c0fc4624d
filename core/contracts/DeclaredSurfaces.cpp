#include "contracts/DeclaredSurfaces.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "extract/CppFunctions.h"

namespace impact {

namespace {

const PyBuilder* builderIn(const TreeFacts& facts, const std::string& module, const std::string& name) {
  const FileFacts* f = module.empty() || name.empty() ? nullptr : facts.find(module);
  if (!f) return nullptr;
  for (const auto& b : f->builders)
    if (b.name == name || b.name.ends_with("." + name)) return &b;
  return nullptr;
}

// The builder a prose python_source names: a code name it mentions that is a builder of a
// Python file it mentions.
const PyBuilder* proseBuilder(const TreeFacts& facts, const Layout& layout, const SurfaceEntry& e) {
  for (const auto& file : e.proseFiles)
    for (const auto& [path, f] : facts.files) {
      if (!f || f->kind != FileKind::Python) continue;
      if (path != layout.libraryPath(file) && !path.ends_with("/" + file)) continue;
      for (const auto& sym : e.proseSymbols)
        if (const PyBuilder* b = builderIn(facts, path, sym)) return b;
    }
  return nullptr;
}

std::string locator(const std::string& path, const std::string& symbol) {
  return symbol.empty() ? path : path + ":" + symbol;
}

std::string sidesKey(const Layout& l, const SurfaceEntry& s) {
  return absl::StrCat(s.pythonProse ? "" : l.libraryPath(s.pythonPath), ":", s.pythonSymbol, "|", s.cppPath, ":",
                      s.cppSymbol);
}

}  // namespace

Layout profileLayout(const Manifest& m, const Layout& layout) {
  Layout l = layout;
  if (!m.providerRoot.empty()) l.libraryRoot = m.providerRoot + "/rocke/library";
  return l;
}

std::vector<DeclaredSurface> declaredSurfaces(const TreeFacts& facts, const Layout& layout) {
  std::vector<DeclaredSurface> out;
  for (const auto& [path, f] : facts.files) {
    if (!f || !f->manifest) continue;
    const Manifest& m = *f->manifest;
    const Layout l = profileLayout(m, layout);
    // An entry whose two sides are those of the profile's `kernargs` entry guards something else
    // of the same code (gfx950 dense: `matcher`, build_attention_dense <-> the Native's
    // kernelMatches): it stays a launch surface.
    std::set<std::string> namedSides;
    for (const SurfaceEntry& s : m.surfaces)
      if (s.name == "kernargs") namedSides.insert(sidesKey(l, s));
    for (const SurfaceEntry& s : m.surfaces) {
      DeclaredSurface d;
      d.manifest = path;
      d.profile = &m;
      d.entry = &s;
      d.module = s.pythonProse ? "" : l.libraryPath(s.pythonPath);
      d.builder = s.pythonSymbol.empty() ? m.builder : s.pythonSymbol;
      d.sourceModule = m.source.empty() ? "" : l.libraryPath(m.source);
      const bool named = s.name == "kernargs";

      // The Python side: the builder the locator names (a path-only locator: the profile's
      // builder in that module); an entry named kernargs also pairs through the profile's
      // builder when its symbol is a restatement or no builder (CopyPairing).
      const PyBuilder* pb = s.pythonProse ? proseBuilder(facts, l, s) : builderIn(facts, d.module, d.builder);
      if (named && (!pb || pb->style == PyBuilder::Style::SignatureBuilder))
        for (const std::string& mod : {d.module, d.sourceModule})
          if (const PyBuilder* own = builderIn(facts, mod, m.builder); own && (!pb || own->style == PyBuilder::Style::Params)) {
            pb = own;
            break;
          }
      if (pb) d.pythonBuilder = pb->name;

      // The C++ side: the launch calls and KernelArgument lists under its symbol (the whole
      // file for a bare path).
      const FileFacts* cf = s.cppPath.empty() ? nullptr : facts.find(s.cppPath);
      if (cf)
        for (const auto& list : cf->lists)
          if (s.cppSymbol.empty() || cppSymbolMatches(list.symbol, s.cppSymbol)) d.copies.push_back(&list);

      d.kernargs = named || (pb && !d.copies.empty() && !namedSides.count(sidesKey(l, s)));
      if (named) {
        // Say why a side cannot be compared, when the side exists (a missing module, symbol or
        // file is its own row).
        std::vector<std::string> why;
        const FileFacts* pf = d.module.empty() ? nullptr : facts.find(d.module);
        if (!pb && pf && pf->ok)
          why.push_back(absl::StrCat("python_source ", locator(s.pythonPath, s.pythonSymbol),
                                     " declares no b.param list or SignatureBuilder chain"));
        if (!s.cppPath.empty() && d.copies.empty()) {
          if (!cf)
            why.push_back(absl::StrCat("cpp_mirror ", s.cppPath, " is not a C++ file impactd analyses"));
          else if (cf->ok)
            why.push_back(absl::StrCat("cpp_mirror ", locator(s.cppPath, s.cppSymbol),
                                       " holds no launch call or KernelArgument list"));
        }
        if (!why.empty()) d.notCompared = absl::StrCat("not compared: ", absl::StrJoin(why, "; "));
      }
      out.push_back(std::move(d));
    }
  }
  return out;
}

}  // namespace impact
