#include "python/ModuleGraph.h"

#include <algorithm>
#include <deque>

namespace impact {

namespace {

constexpr int kMaxDepth = 48;  // import / alias / base-class chains

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

// FNV-1a, field by field (a field ends with a byte no name holds).
struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(std::string_view s) {
    for (char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    h = (h ^ 0xffu) * 1099511628211ull;
  }
  void add(uint64_t v) { add(std::string_view(reinterpret_cast<const char*>(&v), sizeof v)); }
};

// What name resolution reads of a module: its definitions' names, kinds, bases and aliases, and
// its imports in line order (the last binding of a name wins). Lines and bodies are not read.
uint64_t resolutionSignature(const PyModuleFacts& m) {
  Fnv f;
  for (const auto& d : m.defs) {
    f.add(d.name);
    f.add(static_cast<uint64_t>(d.kind));
    for (const auto& b : d.bases) f.add(b);
    f.add(d.aliasOf);
  }
  std::vector<const PyImport*> imports;
  for (const auto& imp : m.imports) imports.push_back(&imp);
  std::stable_sort(imports.begin(), imports.end(), [](const PyImport* a, const PyImport* b) { return a->line < b->line; });
  for (const PyImport* imp : imports) {
    f.add(imp->module);
    f.add(imp->name);
    f.add(imp->alias);
    f.add(imp->function);
  }
  return f.h;
}

Resolution make(Resolution::Kind k, SymbolRef ref = {}, std::string note = "") {
  Resolution r;
  r.kind = k;
  r.ref = std::move(ref);
  r.note = std::move(note);
  return r;
}

}  // namespace

ModuleGraph::ModuleGraph(const TreeFacts& facts, const Layout& layout) : facts_(facts), layout_(layout) {
  for (const auto& [path, f] : facts.files) {
    if (!f || f->kind != FileKind::Python || !path.ends_with(".py")) continue;
    for (const auto& root : layout.importRoots) {
      if (root.empty() || !path.starts_with(root + "/")) continue;
      std::string rel = path.substr(root.size() + 1);
      rel.resize(rel.size() - 3);
      bool package = false;
      if (rel == "__init__") break;  // the root itself is no package
      if (rel.ends_with("/__init__")) {
        rel.resize(rel.size() - 9);
        package = true;
      }
      if (rel.find('.') != std::string::npos || rel.find('-') != std::string::npos) break;  // not importable
      std::replace(rel.begin(), rel.end(), '/', '.');
      if (byName_.count(rel)) break;
      const Mod& mod = byName_[rel] = Mod{rel, path, package, &f->module, std::nullopt};
      byPath_[path] = &mod;
      auto parts = split(rel, '.');
      topLevel_.insert(parts[0]);
      std::string prefix;
      for (size_t i = 0; i + 1 < parts.size(); ++i) {
        prefix += (i ? "." : "") + parts[i];
        packages_.insert(prefix);
      }
      if (package) packages_.insert(rel);
      break;
    }
  }
}

std::string ModuleGraph::moduleName(const std::string& path) const {
  auto it = byPath_.find(path);
  return it == byPath_.end() ? "" : it->second->name;
}

std::string ModuleGraph::modulePath(const std::string& module) const {
  auto it = byName_.find(module);
  return it == byName_.end() ? "" : it->second.path;
}

std::string ModuleGraph::displayPath(const std::string& path) const {
  for (const auto& root : layout_.importRoots)
    if (!root.empty() && path.starts_with(root + "/")) return path.substr(root.size() + 1);
  return path;
}

std::vector<std::string> ModuleGraph::modules() const {
  std::vector<std::string> out;
  for (const auto& [p, _] : byPath_) out.push_back(p);
  return out;
}

const PyModuleFacts* ModuleGraph::module(const std::string& path) const {
  auto it = byPath_.find(path);
  if (it == byPath_.end()) return nullptr;
  return it->second->facts;
}

const std::vector<const PyDef*>& ModuleGraph::defsOf(const Mod& m, std::string_view symbol) const {
  static const std::vector<const PyDef*> none;
  if (!m.byDefName) {
    m.byDefName.emplace();
    for (const auto& d : m.facts->defs) (*m.byDefName)[d.name].push_back(&d);
  }
  auto it = m.byDefName->find(symbol);
  return it == m.byDefName->end() ? none : it->second;
}

std::vector<const PyDef*> ModuleGraph::defs(const std::string& path, const std::string& symbol) const {
  auto it = byPath_.find(path);
  if (it == byPath_.end()) return {};
  return defsOf(*it->second, symbol);
}

bool ModuleGraph::isDef(const std::string& path, const std::string& symbol, PyDef::Kind kind) const {
  auto it = byPath_.find(path);
  if (it == byPath_.end()) return false;
  for (const PyDef* d : defsOf(*it->second, symbol))
    if (d->kind == kind) return true;
  return false;
}

std::string ModuleGraph::absoluteModule(const std::string& path, const std::string& module) const {
  size_t dots = 0;
  while (dots < module.size() && module[dots] == '.') ++dots;
  if (dots == 0) return module;
  std::string self = moduleName(path);
  if (self.empty()) return module.substr(dots);  // not under an import root: best effort
  auto parts = split(self, '.');
  bool isPackage = path.ends_with("/__init__.py");
  if (!isPackage) parts.pop_back();
  for (size_t i = 1; i < dots && !parts.empty(); ++i) parts.pop_back();
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ".") + p;
  std::string rest = module.substr(dots);
  if (!rest.empty()) out += (out.empty() ? "" : ".") + rest;
  return out;
}

Resolution ModuleGraph::moduleRes(const std::string& dotted) const {
  if (auto it = byName_.find(dotted); it != byName_.end()) return make(Resolution::Kind::Module, {it->second.path, ""});
  if (packages_.count(dotted)) return make(Resolution::Kind::Package, {}, dotted);
  std::string top = dotted.substr(0, dotted.find('.'));
  if (topLevel_.count(top)) return make(Resolution::Kind::Unresolved, {}, "no module " + dotted + " in the repository");
  return make(Resolution::Kind::External, {}, dotted);
}

Resolution ModuleGraph::importRecord(const std::string& path, const PyImport& imp, int depth) const {
  if (depth > kMaxDepth) return make(Resolution::Kind::Unresolved, {}, "import chain too deep");
  std::string abs = absoluteModule(path, imp.module);
  if (imp.name.empty()) {
    bool bindsTop = imp.alias == imp.module.substr(0, imp.module.find('.')) && imp.module.find('.') != std::string::npos;
    return moduleRes(bindsTop ? imp.alias : abs);
  }
  if (imp.name == "*") return make(Resolution::Kind::NotFound);
  std::string sub = abs.empty() ? imp.name : abs + "." + imp.name;
  if (byName_.count(sub)) return moduleRes(sub);
  Resolution m = moduleRes(abs);
  switch (m.kind) {
    case Resolution::Kind::Module: {
      Resolution r = resolveModuleLevel(m.ref.path, imp.name, depth + 1);
      if (r.found() || r.kind == Resolution::Kind::External) return r;
      if (r.kind == Resolution::Kind::Unresolved) return r;
      return make(Resolution::Kind::Unresolved, {}, abs + " does not define " + imp.name);
    }
    case Resolution::Kind::Package:
      if (packages_.count(sub)) return make(Resolution::Kind::Package, {}, sub);
      return make(Resolution::Kind::Unresolved, {}, abs + " does not define " + imp.name);
    default:
      return m;
  }
}

Resolution ModuleGraph::resolveImport(const std::string& path, const PyImport& imp) const {
  return importRecord(path, imp, 0);
}

Resolution ModuleGraph::resolveModuleLevel(const std::string& path, const std::string& name, int depth) const {
  if (depth > kMaxDepth) return make(Resolution::Kind::Unresolved, {}, "import chain too deep");
  auto key = std::make_pair(path, name);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  if (!busy_.insert(key).second) return make(Resolution::Kind::NotFound);  // an import cycle
  Resolution out = make(Resolution::Kind::NotFound);
  auto mit = byPath_.find(path);
  const PyModuleFacts* m = mit == byPath_.end() ? nullptr : mit->second->facts;
  bool done = false;
  if (m) {
    if (!defsOf(*mit->second, name).empty()) {
      out = make(Resolution::Kind::Def, {path, name});
      done = true;
    }
    if (!done) {
      const PyImport* last = nullptr;
      for (const auto& imp : m->imports)
        if (imp.function.empty() && imp.alias == name && (!last || imp.line >= last->line)) last = &imp;
      if (last) {
        out = importRecord(path, *last, depth + 1);
        done = true;
      }
    }
    if (!done) {
      for (const auto& imp : m->imports) {
        if (!imp.function.empty() || imp.name != "*") continue;
        Resolution mod = moduleRes(absoluteModule(path, imp.module));
        if (mod.kind != Resolution::Kind::Module) continue;
        Resolution r = resolveModuleLevel(mod.ref.path, name, depth + 1);
        if (r.found()) {
          out = r;
          break;
        }
      }
    }
  }
  busy_.erase(key);
  memo_[key] = out;
  return out;
}

Resolution ModuleGraph::resolveName(const std::string& path, const std::string& fromDef, const std::string& name,
                                    int depth) const {
  if (!fromDef.empty()) {
    if ((name == "self" || name == "cls") && fromDef.find('.') != std::string::npos) {
      std::string cls = fromDef.substr(0, fromDef.rfind('.'));
      if (isDef(path, cls, PyDef::Kind::Class)) return make(Resolution::Kind::Def, {path, cls});
    }
    if (const PyModuleFacts* m = module(path)) {
      const PyImport* last = nullptr;
      for (const auto& imp : m->imports)
        if (imp.function == fromDef && imp.alias == name && (!last || imp.line >= last->line)) last = &imp;
      if (last) return importRecord(path, *last, depth + 1);
    }
  }
  return resolveModuleLevel(path, name, depth);
}

Resolution ModuleGraph::resolve(const std::string& path, const std::string& name) const {
  Trace t = trace(path, "", name);
  if (t.steps.empty()) return make(Resolution::Kind::NotFound);
  return t.steps.back();
}

Resolution ModuleGraph::memberOf(const SymbolRef& cls, const std::string& name, int depth) const {
  if (depth > kMaxDepth) return make(Resolution::Kind::Unresolved, {}, "base classes too deep");
  std::string full = cls.symbol + "." + name;
  if (!defs(cls.path, full).empty()) return make(Resolution::Kind::Def, {cls.path, full});
  Resolution unknown = make(Resolution::Kind::NotFound, {}, cls.symbol + " has no member " + name);
  for (const PyDef* d : defs(cls.path, cls.symbol)) {
    if (d->kind != PyDef::Kind::Class) continue;
    for (const auto& base : d->bases) {
      Trace bt = trace(cls.path, "", base);
      if (bt.steps.empty()) continue;
      const Resolution& b = bt.steps.back();
      if (bt.complete() && b.kind == Resolution::Kind::Def && isDef(b.ref.path, b.ref.symbol, PyDef::Kind::Class)) {
        Resolution r = memberOf(b.ref, name, depth + 1);
        if (r.found()) return r;
        if (r.kind == Resolution::Kind::Unresolved) unknown = r;
      } else if (base != "object") {
        unknown = make(Resolution::Kind::Unresolved, {}, "base " + base + " of " + cls.symbol + " is not in the repository");
      }
    }
  }
  return unknown;
}

Resolution ModuleGraph::member(const SymbolRef& cls, const std::string& name) const { return memberOf(cls, name, 0); }

bool ModuleGraph::derives(const SymbolRef& cls, const SymbolRef& base) const {
  std::set<SymbolRef> seen;
  std::vector<SymbolRef> todo{cls};
  while (!todo.empty() && seen.size() < 512) {
    SymbolRef c = todo.back();
    todo.pop_back();
    if (c == base) return true;
    if (!seen.insert(c).second) continue;
    for (const PyDef* d : defs(c.path, c.symbol)) {
      if (d->kind != PyDef::Kind::Class) continue;
      for (const auto& b : d->bases) {
        Trace bt = trace(c.path, "", b);
        if (bt.complete() && bt.steps.back().kind == Resolution::Kind::Def) todo.push_back(bt.steps.back().ref);
      }
    }
  }
  return false;
}

Resolution ModuleGraph::step(const Resolution& fromIn, const std::string& part, int depth) const {
  Resolution from = fromIn;
  // Follow module-level aliases (`AttentionDenseSpec = Gfx950AttentionDenseSpec`).
  for (int guard = 0; from.kind == Resolution::Kind::Def && guard < 16; ++guard) {
    auto ds = defs(from.ref.path, from.ref.symbol);
    if (ds.size() != 1 || ds[0]->kind != PyDef::Kind::Assign || ds[0]->aliasOf.empty()) break;
    std::string scope = from.ref.symbol.find('.') == std::string::npos ? "" : from.ref.symbol.substr(0, from.ref.symbol.rfind('.'));
    Trace t = trace(from.ref.path, "", ds[0]->aliasOf);
    if (!t.complete() || t.steps.back().ref == from.ref) break;
    from = t.steps.back();
    (void)scope;
  }
  switch (from.kind) {
    case Resolution::Kind::Module: {
      std::string sub = moduleName(from.ref.path) + "." + part;
      if (byName_.count(sub) || packages_.count(sub)) return moduleRes(sub);
      return resolveModuleLevel(from.ref.path, part, depth + 1);
    }
    case Resolution::Kind::Package: {
      std::string sub = from.note + "." + part;
      if (byName_.count(sub) || packages_.count(sub)) return moduleRes(sub);
      return make(Resolution::Kind::NotFound, {}, "package " + from.note + " has no " + part);
    }
    case Resolution::Kind::Def:
      if (isDef(from.ref.path, from.ref.symbol, PyDef::Kind::Class)) return memberOf(from.ref, part, depth + 1);
      return make(Resolution::Kind::Unresolved, {}, "attribute of " + from.ref.symbol + ", which is not a class");
    default:
      return from;
  }
}

Trace ModuleGraph::trace(const std::string& path, const std::string& fromDef, const std::string& chain) const {
  Trace t;
  t.parts = split(chain, '.');
  if (t.parts.empty() || t.parts[0].empty()) return t;
  t.steps.push_back(resolveName(path, fromDef, t.parts[0], 0));
  for (size_t i = 1; i < t.parts.size() && t.steps.back().found(); ++i)
    t.steps.push_back(step(t.steps.back(), t.parts[i], 0));
  return t;
}

std::vector<Reader> ModuleGraph::readers(const std::string& path, const std::string& symbol) const {
  std::set<Reader> out;
  SymbolRef target{path, symbol};
  for (const auto& [name, mod] : byName_) {
    const PyModuleFacts& m = *mod.facts;
    for (const auto& imp : m.imports) {
      if (imp.name.empty() || imp.name == "*") continue;
      Resolution r = importRecord(mod.path, imp, 0);
      if (r.kind == Resolution::Kind::Def && r.ref == target)
        out.insert(Reader{mod.path, imp.function, imp.line, "imports " + imp.name + " from " + imp.module});
    }
    auto scan = [&](const std::string& fromDef, uint32_t line, const std::vector<std::string>& refs) {
      for (const auto& ref : refs) {
        if (mod.path == path && ref == symbol && fromDef == symbol) continue;
        Trace t = trace(mod.path, fromDef, ref);
        for (const auto& s : t.steps)
          if (s.kind == Resolution::Kind::Def && s.ref == target) {
            out.insert(Reader{mod.path, fromDef, line, "uses " + ref});
            break;
          }
      }
    };
    for (const auto& d : m.defs) {
      if (mod.path == path && d.name == symbol) continue;
      scan(d.name, d.nameLine, d.refs);
    }
    scan("", 0, m.moduleRefs);
  }
  return {out.begin(), out.end()};
}

const std::set<SymbolRef>& ModuleGraph::reach(const std::string& path, const std::string& symbol) const {
  auto key = std::make_pair(path, symbol);
  if (auto it = reachMemo_.find(key); it != reachMemo_.end()) return it->second;
  std::set<SymbolRef>& seen = reachMemo_[key];
  std::deque<SymbolRef> todo{{path, symbol}};
  while (!todo.empty() && seen.size() < 20000) {
    SymbolRef cur = todo.front();
    todo.pop_front();
    auto ds = defs(cur.path, cur.symbol);
    if (ds.empty() || !seen.insert(cur).second) continue;
    for (const SymbolRef& to : edges(cur, ds)) todo.push_back(to);
  }
  return seen;
}

namespace {

// What decides a def's edges besides the resolutions: its definitions' kinds and refs.
uint64_t edgeKey(const std::vector<const PyDef*>& ds) {
  Fnv key;
  for (const PyDef* d : ds) {
    key.add(static_cast<uint64_t>(d->kind));
    for (const auto& ref : d->refs) key.add(ref);
  }
  return key.h;
}

}  // namespace

const std::vector<SymbolRef>& ModuleGraph::edges(const SymbolRef& cur, const std::vector<const PyDef*>& ds) const {
  uint64_t key = edgeKey(ds);
  Edges& e = edgeMemo_[cur];
  if (e.key == key && key != 0) return e.to;
  e.key = key;
  e.to.clear();
  for (const PyDef* d : ds) {
    if (d->kind == PyDef::Kind::Class) {
      const PyModuleFacts* m = module(cur.path);
      for (const auto& x : m->defs)
        if (x.name.size() > cur.symbol.size() && x.name.starts_with(cur.symbol + ".")) e.to.push_back({cur.path, x.name});
    }
    for (const auto& ref : d->refs) {
      Trace t = trace(cur.path, d->name, ref);
      const Resolution* deepest = nullptr;
      for (const auto& s : t.steps)
        if (s.kind == Resolution::Kind::Def) deepest = &s;
      if (!deepest) continue;
      bool selfRoot = t.parts[0] == "self" || t.parts[0] == "cls";
      if (selfRoot && deepest == &t.steps[0]) continue;  // an instance attribute: not the whole class
      e.to.push_back(deepest->ref);
    }
  }
  return e.to;
}

bool ModuleGraph::adopt(ModuleGraph& previous) {
  if (&previous == this || previous.byName_.size() != byName_.size() || previous.packages_ != packages_) return false;
  for (auto a = byName_.begin(), b = previous.byName_.begin(); a != byName_.end(); ++a, ++b) {
    if (a->first != b->first || a->second.path != b->second.path || a->second.package != b->second.package) return false;
    if (a->second.facts != b->second.facts && resolutionSignature(*a->second.facts) != resolutionSignature(*b->second.facts))
      return false;
  }
  memo_ = std::move(previous.memo_);
  edgeMemo_ = std::move(previous.edgeMemo_);
  previous.memo_.clear();
  previous.edgeMemo_.clear();
  // A reach of the previous graph holds here while none of its defs' edges moved: edgeMemo_
  // holds the key each member had there (every reach computes or checks all its members), and
  // only a def of a module whose facts are not the very same can have another key now.
  std::map<SymbolRef, bool> moved;
  auto movedHere = [&](const SymbolRef& r) {
    auto [it, fresh] = moved.try_emplace(r, false);
    if (fresh) {
      auto mine = byPath_.find(r.path);
      auto theirs = previous.byPath_.find(r.path);
      if (mine->second->facts != theirs->second->facts) {
        auto e = edgeMemo_.find(r);
        it->second = e == edgeMemo_.end() || e->second.key != edgeKey(defsOf(*mine->second, r.symbol));
      }
    }
    return it->second;
  };
  for (auto& [key, reached] : previous.reachMemo_)
    if (std::none_of(reached.begin(), reached.end(), movedHere)) reachMemo_.emplace(key, std::move(reached));
  previous.reachMemo_.clear();
  return true;
}

const std::vector<std::string>& ModuleGraph::importEdges(const std::string& path) const {
  auto [at, fresh] = importEdges_.try_emplace(path);
  if (!fresh) return at->second;
  std::vector<std::string>& out = at->second;
  const PyModuleFacts* m = module(path);
  if (!m) return out;
  auto addModule = [&](const std::string& dotted) {
    // the packages an import executes, then the module
    auto parts = split(dotted, '.');
    std::string prefix;
    for (const auto& p : parts) {
      prefix += (prefix.empty() ? "" : ".") + p;
      if (auto it = byName_.find(prefix); it != byName_.end()) out.push_back(it->second.path);
    }
  };
  // a module's own packages run first
  if (std::string self = moduleName(path); !self.empty()) addModule(self);
  for (const auto& imp : m->imports) {
    addModule(absoluteModule(path, imp.module));
    if (imp.name.empty() || imp.name == "*") continue;
    Resolution r = importRecord(path, imp, 0);
    if (r.kind == Resolution::Kind::Def || r.kind == Resolution::Kind::Module) out.push_back(r.ref.path);
  }
  return out;
}

std::set<std::string> ModuleGraph::importClosure(const std::string& path) const {
  std::set<std::string> seen;
  std::vector<const std::string*> todo{&path};
  while (!todo.empty()) {
    const std::string* cur = todo.back();
    todo.pop_back();
    if (!seen.insert(*cur).second) continue;
    for (const std::string& next : importEdges(*cur))
      if (!seen.count(next)) todo.push_back(&next);
  }
  return seen;
}

const std::set<std::string>& ModuleGraph::shippedClosure() const {
  if (shipped_) return *shipped_;
  shipped_.emplace();
  std::set<std::string> roots;
  for (const auto& [path, f] : facts_.files) {
    if (f && f->descriptor)
      for (const auto& l : f->descriptor->launches) {
        anyRoot_ = true;
        std::string p = layout_.libraryPath(l.source);
        if (byPath_.count(p)) roots.insert(p);
      }
    // A generator config's rocke sources ship too: the packs' descriptors are generated from it
    // (a family may have no committed KDP at all).
    if (f && f->generator)
      for (const auto& g : f->generator->sources) {
        if (g.source.empty() || (!g.kind.empty() && g.kind != "rocke")) continue;
        anyRoot_ = true;
        std::string p = layout_.libraryPath(g.source);
        if (byPath_.count(p)) roots.insert(p);
      }
  }
  // The packer runs for every packed variant: whatever it imports ships too.
  for (const auto& [name, mod] : byName_)
    if (name == "hkp_pack" || name.starts_with("hkp_pack.")) roots.insert(mod.path);
  for (const auto& r : roots) {
    auto c = importClosure(r);
    shipped_->insert(c.begin(), c.end());
  }
  return *shipped_;
}

bool ModuleGraph::inShippedClosure(const std::string& path) const {
  const auto& c = shippedClosure();
  if (!anyRoot_) return true;
  return c.count(path) > 0;
}

}  // namespace impact
