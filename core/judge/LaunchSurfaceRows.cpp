// R2.4: launch_surface entries of every *.profile.yaml at the head. Each python_source symbol
// resolves by name anywhere in its module (functions under module-level if/try/with, methods,
// Class.method; a path-only locator needs only the module); each cpp_mirror symbol
// (`File.hpp:function`, `File.cpp:Class::method`) through the C++ function index. A missing
// symbol is a mismatch; a module that does not parse says so. A host-side surface function is
// compared together with every def, class and assignment it reaches by name (module aliases
// and other modules included): a change on either side is `changed`, naming the side that moved;
// comment-only edits are inert. kernargs entries are judged in Judge.cpp: here only whether
// their symbols exist. A python_source written as prose (extract/ProseLocator.h) is resolved
// through the files and names it mentions (a bare file name under the library, the manifest's
// source module); when none resolves, one note says so (never a mismatch).
#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/DeclaredSurfaces.h"
#include "extract/CppFunctions.h"
#include "judge/Archs.h"
#include "judge/Contracts.h"
#include "python/ModuleGraph.h"

namespace impact {

namespace {

// Python defs a locator symbol names: exact ("Cls.method", "f") or any member of that name.
std::vector<const PyDef*> pythonMatches(const FileFacts* f, const std::string& symbol) {
  std::vector<const PyDef*> out;
  if (!f) return out;
  for (const auto& d : f->module.defs)
    if (d.name == symbol) out.push_back(&d);
  if (!out.empty() || symbol.find('.') != std::string::npos) return out;
  for (const auto& d : f->module.defs)
    if (d.name.size() > symbol.size() && d.name.ends_with("." + symbol)) out.push_back(&d);
  return out;
}

std::vector<const PyDef*> cppMatches(const FileFacts* f, const std::string& symbol) {
  std::vector<const PyDef*> out;
  if (!f) return out;
  for (const auto& d : f->module.defs)
    if (cppSymbolMatches(d.name, symbol)) out.push_back(&d);
  return out;
}

uint64_t combined(const std::vector<const PyDef*>& ds) {
  std::vector<uint64_t> fps;
  for (const PyDef* d : ds) fps.push_back(d->fingerprint);
  std::sort(fps.begin(), fps.end());
  uint64_t h = fnv1a("defs");
  for (uint64_t x : fps) h = fnv1a(std::string_view(reinterpret_cast<const char*>(&x), sizeof x), h);
  return fps.empty() ? 0 : h;
}

const SurfaceEntry* baseEntry(const TreeFacts& base, const std::string& manifest, const SurfaceEntry& e) {
  const FileFacts* f = base.find(manifest);
  if (!f || !f->manifest) return nullptr;
  const SurfaceEntry* byName = nullptr;
  for (const auto& b : f->manifest->surfaces) {
    if (b.name == e.name && b.pythonPath == e.pythonPath && b.pythonSymbol == e.pythonSymbol) return &b;
    if (b.name == e.name && !byName) byName = &b;
  }
  return byName;
}

std::string locator(const std::string& path, const std::string& symbol) {
  return symbol.empty() ? path : path + ":" + symbol;
}

// A prose python_source, resolved: the module (library-relative) and the defs it names there.
struct ProseTarget {
  std::string relative;              // "" when nothing resolves
  std::string path;                  // the module's repository path
  std::vector<std::string> symbols;  // exact def names found in that module
};

// The Python file a prose mention names: a library path, or a file name found under the library
// (the manifest's source module, or its folder, first when several share the name).
std::string proseFile(const TreeFacts& facts, const Layout& layout, const Manifest& m, const std::string& mention) {
  if (mention.find('/') != std::string::npos) {
    std::string p = layout.libraryPath(mention);
    return facts.find(p) ? p : "";
  }
  std::string source = m.source.empty() ? "" : layout.libraryPath(m.source);
  std::string sourceDir = source.substr(0, source.rfind('/') + 1);
  std::vector<std::string> found;
  for (const auto& [path, f] : facts.files)
    if (f && f->kind == FileKind::Python && (path.ends_with("/" + mention) || path == mention)) found.push_back(path);
  if (found.size() == 1) return found[0];
  for (const auto& p : found)
    if (p == source) return p;
  for (const auto& p : found)
    if (!sourceDir.empty() && p.rfind(sourceDir, 0) == 0 && p.find('/', sourceDir.size()) == std::string::npos) return p;
  return "";
}

ProseTarget resolveProse(const TreeFacts& facts, const Layout& layout, const Manifest& m, const SurfaceEntry& e) {
  std::vector<std::string> modules;
  for (const auto& f : e.proseFiles)
    if (std::string p = proseFile(facts, layout, m, f); !p.empty() && std::find(modules.begin(), modules.end(), p) == modules.end())
      modules.push_back(p);
  if (!m.source.empty() && facts.find(layout.libraryPath(m.source)) &&
      std::find(modules.begin(), modules.end(), layout.libraryPath(m.source)) == modules.end())
    modules.push_back(layout.libraryPath(m.source));
  auto relative = [&](const std::string& p) {
    std::string root = layout.libraryRoot + "/";
    return p.rfind(root, 0) == 0 ? p.substr(root.size()) : p;
  };
  for (const auto& p : modules) {
    const FileFacts* f = facts.find(p);
    if (!f || f->kind != FileKind::Python) continue;
    ProseTarget t{relative(p), p, {}};
    for (const auto& sym : e.proseSymbols)
      for (const auto& d : f->module.defs)
        if (d.name == sym && d.kind != PyDef::Kind::Assign) {
          t.symbols.push_back(sym);
          break;
        }
    if (!t.symbols.empty()) return t;
  }
  // Files it names but no symbol in them: the first named file, compared as a whole.
  for (const auto& f : e.proseFiles)
    if (std::string p = proseFile(facts, layout, m, f); !p.empty()) return ProseTarget{relative(p), p, {}};
  return {};
}

}  // namespace

ContractRows judgeLaunchSurfaces(const JudgeContext& cx) {
  const Revision& base = cx.base;
  const Revision& head = cx.head;
  ContractRows out;
  const ModuleGraph& hg = cx.headGraph;
  const ModuleGraph& bg = cx.baseGraph;
  const ArchIndex& headArchs = cx.headArchs;
  const ArchIndex& baseArchs = cx.baseArchs;

  // Which entries declare a kernargs pair (by what their sides hold): judged in Judge.cpp.
  std::map<const SurfaceEntry*, const DeclaredSurface*> byEntry;
  const std::vector<DeclaredSurface> surfaces = declaredSurfaces(head.facts, cx.layout);
  for (const auto& d : surfaces) byEntry.emplace(d.entry, &d);

  for (const auto& [mpath, mf] : head.facts.files) {
    if (!mf || !mf->manifest) continue;
    const Layout layout = profileLayout(*mf->manifest, cx.layout);
    for (const SurfaceEntry& declared : mf->manifest->surfaces) {
      SurfaceEntry e = declared;
      std::vector<std::string> proseSymbols;  // a prose python_source: every def it names
      std::string prosePath;
      if (e.pythonProse) {
        ProseTarget t = resolveProse(head.facts, layout, *mf->manifest, e);
        if (t.relative.empty()) {
          bool relevant = touched(base, head, mpath) || (!e.cppPath.empty() && touched(base, head, e.cppPath));
          if (relevant)
            out.notes.push_back(absl::StrCat(
                "launch-surface:", e.name, " in ", mpath, ": python_source is prose and none of the files or names it ",
                "mentions resolves", e.proseSymbols.empty() && e.proseFiles.empty() ? "" : " (",
                absl::StrJoin(e.proseFiles, ", "), e.proseFiles.empty() || e.proseSymbols.empty() ? "" : ", ",
                absl::StrJoin(e.proseSymbols, ", "), e.proseSymbols.empty() && e.proseFiles.empty() ? "" : ")",
                "; its Python side is not checked"));
          continue;
        }
        e.pythonPath = t.relative;
        prosePath = t.path;
        proseSymbols = t.symbols;
        if (!proseSymbols.empty()) e.pythonSymbol = proseSymbols[0];
      }
      if (e.pythonPath.empty()) continue;
      const std::string py = prosePath.empty() ? layout.libraryPath(e.pythonPath) : prosePath;
      const std::string& cpp = e.cppPath;
      const DeclaredSurface* ds = byEntry.count(&declared) ? byEntry.at(&declared) : nullptr;
      const bool kernargs = ds && ds->kernargs;
      const SurfaceEntry* be = baseEntry(base.facts, mpath, e);
      const bool manifestTouched = touched(base, head, mpath);
      const bool pyTouched = touched(base, head, py);
      const bool cppTouched = !cpp.empty() && touched(base, head, cpp);

      Row r;
      r.contract = "launch-surface:" + e.name;
      r.key = absl::StrCat("launch-surface|", mpath, "|", e.name, "|", locator(e.pythonPath, e.pythonSymbol));
      r.python = Location{py, 0, e.pythonSymbol, {}, {}};
      if (!cpp.empty()) r.mirror = Location{cpp, 0, e.cppSymbol, {}, {}};
      {
        auto a = headArchs.forModule(py);
        auto b = baseArchs.forModule(py);
        a.insert(b.begin(), b.end());
        // A module no descriptor reaches (or that does not exist): the profile's own arch.
        if (a.empty() && !mf->manifest->arch.empty()) a.insert(mf->manifest->arch);
        r.archs.assign(a.begin(), a.end());
      }
      auto emit = [&](Status s, std::string message, bool preexisting) {
        r.status = s;
        r.message = std::move(message);
        r.preexisting = preexisting && s == Status::Mismatch;
        if (r.preexisting) r.message += " (already so at the base)";
        out.covered.insert(py);
        if (!cpp.empty()) out.covered.insert(cpp);
        if (s == Status::Mismatch) {
          out.explained.insert(py);
          if (!cpp.empty()) out.explained.insert(cpp);
        }
        out.rows.push_back(r);
      };
      const bool relevant = manifestTouched || pyTouched || cppTouched;

      // --- The Python side exists and resolves.
      const FileFacts* hpf = head.facts.find(py);
      const FileFacts* bpf = base.facts.find(py);
      const bool baseWasThere = be != nullptr;
      if (!hpf) {
        bool before = baseWasThere && !bpf;
        if (relevant) emit(Status::Mismatch, absl::StrCat("python_source module ", e.pythonPath, " does not exist"), before);
        continue;
      }
      if (!hpf->ok) {
        if (relevant)
          emit(Status::Changed,
               absl::StrCat("python_source module ", e.pythonPath, " does not parse (", hpf->error, "); ",
                            e.pythonSymbol.empty() ? "its content" : e.pythonSymbol, " could not be checked"),
               false);
        continue;
      }
      std::vector<const PyDef*> hdefs, bdefs;
      if (!proseSymbols.empty()) {
        for (const auto& sym : proseSymbols) {
          for (const PyDef* d : pythonMatches(hpf, sym)) hdefs.push_back(d);
          for (const PyDef* d : pythonMatches(bpf && bpf->ok ? bpf : nullptr, sym)) bdefs.push_back(d);
        }
        r.python.line = hdefs[0]->nameLine + 1;
        r.python.symbol = absl::StrJoin(proseSymbols, ", ");
      } else if (!e.pythonSymbol.empty()) {
        hdefs = pythonMatches(hpf, e.pythonSymbol);
        bdefs = pythonMatches(bpf && bpf->ok ? bpf : nullptr, be ? be->pythonSymbol : e.pythonSymbol);
        if (hdefs.empty()) {
          bool before = baseWasThere && bpf && bpf->ok && bdefs.empty();
          if (relevant)
            emit(Status::Mismatch,
                 absl::StrCat("python_source symbol ", e.pythonSymbol, " is not defined in ", e.pythonPath,
                              " (no function, method or assignment of that name)"),
                 before);
          continue;
        }
        r.python.line = hdefs[0]->nameLine + 1;
        r.python.symbol = hdefs[0]->name;
      }

      // --- The C++ mirror exists and resolves.
      const FileFacts* hcf = cpp.empty() ? nullptr : head.facts.find(cpp);
      const FileFacts* bcf = cpp.empty() ? nullptr : base.facts.find(cpp);
      std::vector<const PyDef*> hcdefs, bcdefs;
      if (!cpp.empty()) {
        if (!head.find(cpp)) {
          bool before = baseWasThere && !base.find(cpp);
          if (relevant) emit(Status::Mismatch, absl::StrCat("cpp_mirror ", cpp, " does not exist"), before);
          continue;
        }
        if (hcf && !hcf->ok && !e.cppSymbol.empty()) {
          if (relevant)
            emit(Status::Changed, absl::StrCat("cpp_mirror ", cpp, " does not parse (", hcf->error, "); ", e.cppSymbol,
                                               " could not be checked"),
                 false);
          continue;
        }
        if (!e.cppSymbol.empty() && hcf) {
          // Every symbol the mirror names ("graphMatches and kernelMatches") is the mirror.
          std::string missing;
          bool missingBefore = true;
          auto symbolsOf = [](const SurfaceEntry& x) {
            std::vector<std::string> v{x.cppSymbol};
            v.insert(v.end(), x.cppMoreSymbols.begin(), x.cppMoreSymbols.end());
            return v;
          };
          for (const std::string& sym : symbolsOf(e)) {
            auto h = cppMatches(hcf, sym);
            if (h.empty()) {
              missing = sym;
              missingBefore = baseWasThere && bcf && bcf->ok && cppMatches(bcf, sym).empty();
              break;
            }
            hcdefs.insert(hcdefs.end(), h.begin(), h.end());
          }
          for (const std::string& sym : symbolsOf(be ? *be : e)) {
            auto b = cppMatches(bcf, sym);
            bcdefs.insert(bcdefs.end(), b.begin(), b.end());
          }
          if (!missing.empty()) {
            if (relevant)
              emit(Status::Mismatch, absl::StrCat("cpp_mirror symbol ", missing, " is not defined in ", cpp),
                   missingBefore);
            continue;
          }
          r.mirror.line = hcdefs[0]->nameLine + 1;
        }
      }
      if (kernargs) {
        // The argument lists are judged by Judge.cpp; an entry named kernargs whose sides hold
        // nothing to compare says so.
        if (relevant && !ds->notCompared.empty()) emit(Status::Changed, ds->notCompared, false);
        continue;
      }

      // --- What moved: the Python side with everything it reaches, and the C++ mirror.
      std::vector<std::string> pyMoved;
      std::set<std::string> movedPaths;
      bool anyReachedTouched = pyTouched;
      if (e.pythonSymbol.empty()) {
        if (!bpf || bpf->fingerprint != hpf->fingerprint) pyMoved.push_back(e.pythonPath + " changed");
      } else {
        std::set<SymbolRef> reachH, reachB;
        for (const PyDef* d : hdefs) {
          const auto& s = hg.reach(py, d->name);
          reachH.insert(s.begin(), s.end());
        }
        for (const PyDef* d : bdefs) {
          const auto& s = bg.reach(py, d->name);
          reachB.insert(s.begin(), s.end());
        }
        std::set<SymbolRef> all = reachH;
        all.insert(reachB.begin(), reachB.end());
        std::set<std::string> starts;
        for (const PyDef* d : hdefs) starts.insert(d->name);
        for (const PyDef* d : bdefs) starts.insert(d->name);
        std::vector<std::string> own, reached;
        for (const SymbolRef& s : all) {
          if (touched(base, head, s.path)) anyReachedTouched = true;
          uint64_t a = combined(bg.defs(s.path, s.symbol)), b = combined(hg.defs(s.path, s.symbol));
          if (a == b) continue;
          movedPaths.insert(s.path);
          if (s.path == py && starts.count(s.symbol)) own.push_back(s.symbol);
          else
            reached.push_back(absl::StrCat(hg.displayPath(s.path), ":", s.symbol,
                                           a == 0 ? " (added)" : b == 0 ? " (removed)" : ""));
        }
        for (const auto& s : own) pyMoved.push_back(s + " changed");
        if (!reached.empty()) {
          std::string lst;
          size_t shown = std::min<size_t>(reached.size(), 3);
          for (size_t i = 0; i < shown; ++i) lst += (i ? ", " : "") + reached[i];
          if (reached.size() > shown) lst += absl::StrCat(" and ", reached.size() - shown, " more");
          pyMoved.push_back(absl::StrCat(r.python.symbol, " reaches ", lst, " which changed"));
        }
      }
      bool cppMoved = false;
      if (!cpp.empty()) {
        if (!e.cppSymbol.empty() && hcf) cppMoved = combined(hcdefs) != combined(bcdefs);
        else if (hcf && bcf) cppMoved = hcf->fingerprint != bcf->fingerprint || !hcf->ok;
        else cppMoved = cppTouched;  // a mirror impactd does not extract: any edit counts
      }
      if (pyMoved.empty() && !cppMoved) {
        if (anyReachedTouched || cppTouched) emit(Status::Inert, "its files were touched, but nothing it reaches changed in code", false);
        continue;
      }
      std::string cppDesc = locator(cpp, e.cppSymbol);
      for (const std::string& more : e.cppMoreSymbols) absl::StrAppend(&cppDesc, " and ", more);
      std::string msg;
      if (!pyMoved.empty() && cppMoved)
        msg = absl::StrCat("both sides changed: python side: ", absl::StrJoin(pyMoved, "; "), "; C++ mirror ", cppDesc,
                           " changed");
      else if (!pyMoved.empty())
        msg = absl::StrCat("python side changed: ", absl::StrJoin(pyMoved, "; "),
                           cpp.empty() ? "" : absl::StrCat("; the C++ mirror ", cppDesc, " did not change"));
      else
        msg = absl::StrCat("C++ mirror changed: ", cppDesc, "; the python side did not change");
      // Only the files whose cited code moved are explained: other edits there keep their own row.
      for (const auto& p : movedPaths) out.explained.insert(p);
      if (cppMoved) out.explained.insert(cpp);
      emit(Status::Changed, msg, false);
    }
  }
  return out;
}

}  // namespace impact
