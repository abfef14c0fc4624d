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
#include <set>

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

// One launch_surface entry of one profile, judged: its Python side and C++ mirror exist and
// resolve, then what moved on either side. Each step that decides the row emits it and stops.
class SurfaceEntryJudge {
 public:
  SurfaceEntryJudge(const JudgeContext& cx, ContractRows& out, const std::string& mpath, const Manifest& m,
                    const SurfaceEntry& declared, const DeclaredSurface* ds)
      : cx_(cx), out_(out), mpath_(mpath), m_(m), layout_(profileLayout(m, cx.layout)), e_(declared), ds_(ds) {}

  void judge() {
    if (e_.pythonProse && !resolveProseSide()) return;
    if (e_.pythonPath.empty()) return;
    py_ = prosePath_.empty() ? layout_.libraryPath(e_.pythonPath) : prosePath_;
    cpp_ = e_.cppPath;
    be_ = baseEntry(cx_.base.facts, mpath_, e_);
    pyTouched_ = touched(cx_.base, cx_.head, py_);
    cppTouched_ = !cpp_.empty() && touched(cx_.base, cx_.head, cpp_);
    relevant_ = touched(cx_.base, cx_.head, mpath_) || pyTouched_ || cppTouched_;
    startRow();
    if (!pythonSide() || !cppSide()) return;
    if (ds_ && ds_->kernargs) {
      // The argument lists are judged by Judge.cpp; an entry named kernargs whose sides hold
      // nothing to compare says so.
      if (relevant_ && !ds_->notCompared.empty()) emit(Status::Changed, ds_->notCompared, false);
      return;
    }
    whatMoved();
  }

 private:
  // A prose python_source: the module and defs it names; false when nothing resolves (a note).
  bool resolveProseSide() {
    ProseTarget t = resolveProse(cx_.head.facts, layout_, m_, e_);
    if (t.relative.empty()) {
      bool relevant = touched(cx_.base, cx_.head, mpath_) || (!e_.cppPath.empty() && touched(cx_.base, cx_.head, e_.cppPath));
      if (relevant)
        out_.notes.push_back(absl::StrCat(
            "launch-surface:", e_.name, " in ", mpath_, ": python_source is prose and none of the files or names it ",
            "mentions resolves", e_.proseSymbols.empty() && e_.proseFiles.empty() ? "" : " (",
            absl::StrJoin(e_.proseFiles, ", "), e_.proseFiles.empty() || e_.proseSymbols.empty() ? "" : ", ",
            absl::StrJoin(e_.proseSymbols, ", "), e_.proseSymbols.empty() && e_.proseFiles.empty() ? "" : ")",
            "; its Python side is not checked"));
      return false;
    }
    e_.pythonPath = t.relative;
    prosePath_ = t.path;
    proseSymbols_ = t.symbols;
    if (!proseSymbols_.empty()) e_.pythonSymbol = proseSymbols_[0];
    return true;
  }

  void startRow() {
    r_.contract = "launch-surface:" + e_.name;
    r_.key = absl::StrCat("launch-surface|", mpath_, "|", e_.name, "|", locator(e_.pythonPath, e_.pythonSymbol));
    r_.python = Location{py_, 0, e_.pythonSymbol, {}, {}};
    if (!cpp_.empty()) r_.mirror = Location{cpp_, 0, e_.cppSymbol, {}, {}};
    auto a = cx_.headArchs.forModule(py_);
    auto b = cx_.baseArchs.forModule(py_);
    a.insert(b.begin(), b.end());
    // A module no descriptor reaches (or that does not exist): the profile's own arch.
    if (a.empty() && !m_.arch.empty()) a.insert(m_.arch);
    r_.archs.assign(a.begin(), a.end());
  }

  void emit(Status s, std::string message, bool preexisting) {
    r_.status = s;
    r_.message = std::move(message);
    r_.preexisting = preexisting && s == Status::Mismatch;
    if (r_.preexisting) r_.message += " (already so at the base)";
    out_.covered.insert(py_);
    if (!cpp_.empty()) out_.covered.insert(cpp_);
    if (s == Status::Mismatch) {
      out_.explained.insert(py_);
      if (!cpp_.empty()) out_.explained.insert(cpp_);
    }
    out_.rows.push_back(r_);
  }

  // The Python side exists, parses and defines the symbols it names.
  bool pythonSide() {
    hpf_ = cx_.head.facts.find(py_);
    bpf_ = cx_.base.facts.find(py_);
    const bool baseWasThere = be_ != nullptr;
    if (!hpf_) {
      if (relevant_)
        emit(Status::Mismatch, absl::StrCat("python_source module ", e_.pythonPath, " does not exist"), baseWasThere && !bpf_);
      return false;
    }
    if (!hpf_->ok) {
      if (relevant_)
        emit(Status::Changed,
             absl::StrCat("python_source module ", e_.pythonPath, " does not parse (", hpf_->error, "); ",
                          e_.pythonSymbol.empty() ? "its content" : e_.pythonSymbol, " could not be checked"),
             false);
      return false;
    }
    const FileFacts* bok = bpf_ && bpf_->ok ? bpf_ : nullptr;
    if (!proseSymbols_.empty()) {
      for (const auto& sym : proseSymbols_) {
        for (const PyDef* d : pythonMatches(hpf_, sym)) hdefs_.push_back(d);
        for (const PyDef* d : pythonMatches(bok, sym)) bdefs_.push_back(d);
      }
      r_.python.line = hdefs_[0]->nameLine + 1;
      r_.python.symbol = absl::StrJoin(proseSymbols_, ", ");
    } else if (!e_.pythonSymbol.empty()) {
      hdefs_ = pythonMatches(hpf_, e_.pythonSymbol);
      bdefs_ = pythonMatches(bok, be_ ? be_->pythonSymbol : e_.pythonSymbol);
      if (hdefs_.empty()) {
        if (relevant_)
          emit(Status::Mismatch,
               absl::StrCat("python_source symbol ", e_.pythonSymbol, " is not defined in ", e_.pythonPath,
                            " (no function, method or assignment of that name)"),
               baseWasThere && bok && bdefs_.empty());
        return false;
      }
      r_.python.line = hdefs_[0]->nameLine + 1;
      r_.python.symbol = hdefs_[0]->name;
    }
    return true;
  }

  // The C++ mirror exists, parses and defines every symbol it names ("graphMatches and
  // kernelMatches" are all the mirror).
  bool cppSide() {
    if (cpp_.empty()) return true;
    hcf_ = cx_.head.facts.find(cpp_);
    bcf_ = cx_.base.facts.find(cpp_);
    const bool baseWasThere = be_ != nullptr;
    if (!cx_.head.find(cpp_)) {
      if (relevant_) emit(Status::Mismatch, absl::StrCat("cpp_mirror ", cpp_, " does not exist"), baseWasThere && !cx_.base.find(cpp_));
      return false;
    }
    if (hcf_ && !hcf_->ok && !e_.cppSymbol.empty()) {
      if (relevant_)
        emit(Status::Changed,
             absl::StrCat("cpp_mirror ", cpp_, " does not parse (", hcf_->error, "); ", e_.cppSymbol, " could not be checked"),
             false);
      return false;
    }
    if (e_.cppSymbol.empty() || !hcf_) return true;
    auto symbolsOf = [](const SurfaceEntry& x) {
      std::vector<std::string> v{x.cppSymbol};
      v.insert(v.end(), x.cppMoreSymbols.begin(), x.cppMoreSymbols.end());
      return v;
    };
    std::string missing;
    bool missingBefore = true;
    for (const std::string& sym : symbolsOf(e_)) {
      auto h = cppMatches(hcf_, sym);
      if (h.empty()) {
        missing = sym;
        missingBefore = baseWasThere && bcf_ && bcf_->ok && cppMatches(bcf_, sym).empty();
        break;
      }
      hcdefs_.insert(hcdefs_.end(), h.begin(), h.end());
    }
    for (const std::string& sym : symbolsOf(be_ ? *be_ : e_)) {
      auto b = cppMatches(bcf_, sym);
      bcdefs_.insert(bcdefs_.end(), b.begin(), b.end());
    }
    if (!missing.empty()) {
      if (relevant_) emit(Status::Mismatch, absl::StrCat("cpp_mirror symbol ", missing, " is not defined in ", cpp_), missingBefore);
      return false;
    }
    r_.mirror.line = hcdefs_[0]->nameLine + 1;
    return true;
  }

  // What moved on the Python side: its own defs and everything they reach (module aliases and
  // other modules included), at the base and at the head.
  std::vector<std::string> pythonMoved(bool& anyReachedTouched, std::set<std::string>& movedPaths) {
    std::vector<std::string> moved;
    if (e_.pythonSymbol.empty()) {
      if (!bpf_ || bpf_->fingerprint != hpf_->fingerprint) moved.push_back(e_.pythonPath + " changed");
      return moved;
    }
    // Every def reached at the head or at the base (each side's reach is memoised by its graph;
    // the two sorted sets are walked together, not merged into a third).
    std::set<SymbolRef> headAll, baseAll;
    const std::set<SymbolRef>* headReach = &headAll;
    const std::set<SymbolRef>* baseReach = &baseAll;
    std::set<std::string> starts;
    for (const PyDef* d : hdefs_) starts.insert(d->name);
    for (const PyDef* d : bdefs_) starts.insert(d->name);
    auto reachOf = [&](const ModuleGraph& g, const std::vector<const PyDef*>& ds, std::set<SymbolRef>& own,
                       const std::set<SymbolRef>*& out) {
      std::set<std::string> names;
      for (const PyDef* d : ds) names.insert(d->name);
      if (names.size() == 1) {
        out = &g.reach(py_, *names.begin());
        return;
      }
      for (const auto& n : names) {
        const auto& r = g.reach(py_, n);
        own.insert(r.begin(), r.end());
      }
    };
    reachOf(cx_.headGraph, hdefs_, headAll, headReach);
    reachOf(cx_.baseGraph, bdefs_, baseAll, baseReach);
    std::vector<std::string> reached;
    // A file the edit did not touch holds the same definitions on both sides (one look per path).
    std::map<std::string_view, bool> touchedPath;
    auto visit = [&](const SymbolRef& s) {
      auto [tp, fresh] = touchedPath.try_emplace(s.path, false);
      if (fresh) tp->second = touched(cx_.base, cx_.head, s.path);
      if (!tp->second) return;
      anyReachedTouched = true;
      uint64_t a = combined(cx_.baseGraph.defs(s.path, s.symbol)), b = combined(cx_.headGraph.defs(s.path, s.symbol));
      if (a == b) return;
      movedPaths.insert(s.path);
      if (s.path == py_ && starts.count(s.symbol)) moved.push_back(s.symbol + " changed");
      else
        reached.push_back(absl::StrCat(cx_.headGraph.displayPath(s.path), ":", s.symbol,
                                       a == 0 ? " (added)" : b == 0 ? " (removed)" : ""));
    };
    for (auto h = headReach->begin(), b = baseReach->begin(); h != headReach->end() || b != baseReach->end();) {
      if (b == baseReach->end() || (h != headReach->end() && *h < *b)) visit(*h++);
      else if (h == headReach->end() || *b < *h) visit(*b++);
      else visit(*h++), ++b;
    }
    if (!reached.empty()) {
      std::string lst;
      size_t shown = std::min<size_t>(reached.size(), 3);
      for (size_t i = 0; i < shown; ++i) lst += (i ? ", " : "") + reached[i];
      if (reached.size() > shown) lst += absl::StrCat(" and ", reached.size() - shown, " more");
      moved.push_back(absl::StrCat(r_.python.symbol, " reaches ", lst, " which changed"));
    }
    return moved;
  }

  void whatMoved() {
    std::set<std::string> movedPaths;
    bool anyReachedTouched = pyTouched_;
    std::vector<std::string> pyMoved = pythonMoved(anyReachedTouched, movedPaths);
    bool cppMoved = false;
    if (!cpp_.empty()) {
      if (!e_.cppSymbol.empty() && hcf_) cppMoved = combined(hcdefs_) != combined(bcdefs_);
      else if (hcf_ && bcf_) cppMoved = hcf_->fingerprint != bcf_->fingerprint || !hcf_->ok;
      else cppMoved = cppTouched_;  // a mirror impactd does not extract: any edit counts
    }
    if (pyMoved.empty() && !cppMoved) {
      if (anyReachedTouched || cppTouched_) emit(Status::Inert, "its files were touched, but nothing it reaches changed in code", false);
      return;
    }
    std::string cppDesc = locator(cpp_, e_.cppSymbol);
    for (const std::string& more : e_.cppMoreSymbols) absl::StrAppend(&cppDesc, " and ", more);
    std::string msg;
    if (!pyMoved.empty() && cppMoved)
      msg = absl::StrCat("both sides changed: python side: ", absl::StrJoin(pyMoved, "; "), "; C++ mirror ", cppDesc, " changed");
    else if (!pyMoved.empty())
      msg = absl::StrCat("python side changed: ", absl::StrJoin(pyMoved, "; "),
                         cpp_.empty() ? "" : absl::StrCat("; the C++ mirror ", cppDesc, " did not change"));
    else
      msg = absl::StrCat("C++ mirror changed: ", cppDesc, "; the python side did not change");
    // Only the files whose cited code moved are explained: other edits there keep their own row.
    for (const auto& p : movedPaths) out_.explained.insert(p);
    if (cppMoved) out_.explained.insert(cpp_);
    emit(Status::Changed, msg, false);
  }

  const JudgeContext& cx_;
  ContractRows& out_;
  const std::string& mpath_;
  const Manifest& m_;
  const Layout layout_;
  SurfaceEntry e_;  // the declared entry; a prose python_source resolved into it
  const DeclaredSurface* ds_;
  std::vector<std::string> proseSymbols_;  // a prose python_source: every def it names
  std::string prosePath_, py_, cpp_;
  const SurfaceEntry* be_ = nullptr;
  bool pyTouched_ = false, cppTouched_ = false, relevant_ = false;
  Row r_;
  const FileFacts *hpf_ = nullptr, *bpf_ = nullptr, *hcf_ = nullptr, *bcf_ = nullptr;
  std::vector<const PyDef*> hdefs_, bdefs_, hcdefs_, bcdefs_;
};

}  // namespace

ContractRows judgeLaunchSurfaces(const JudgeContext& cx) {
  ContractRows out;
  // Which entries declare a kernargs pair (by what their sides hold): judged in Judge.cpp.
  std::map<const SurfaceEntry*, const DeclaredSurface*> byEntry;
  const std::vector<DeclaredSurface> surfaces = declaredSurfaces(cx.head.facts, cx.layout);
  for (const auto& d : surfaces) byEntry.emplace(d.entry, &d);
  for (const auto& [mpath, mf] : cx.head.facts.files) {
    if (!mf || !mf->manifest) continue;
    for (const SurfaceEntry& declared : mf->manifest->surfaces) {
      auto it = byEntry.find(&declared);
      SurfaceEntryJudge(cx, out, mpath, *mf->manifest, declared, it == byEntry.end() ? nullptr : it->second).judge();
    }
  }
  return out;
}

}  // namespace impact
