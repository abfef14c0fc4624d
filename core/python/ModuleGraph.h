// The Python module graph of one tree (SPEC R2.4, R2.6, R2.7): module names and paths (below the
// Layout's import roots, packages through __init__.py), imports (absolute, relative, inside
// functions), package __init__ re-exports, module aliases and base classes. Built from the
// TreeFacts' PyModuleFacts only; no file is re-read.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/TreeFacts.h"
#include "model/Layout.h"

namespace impact {

// A definition: the module's path and the def's name ("f", "Cls", "Cls.method", "X");
// symbol "" names the module itself.
struct SymbolRef {
  std::string path, symbol;
  auto operator<=>(const SymbolRef&) const = default;
};

struct Resolution {
  enum class Kind {
    Def,         // ref: a definition in the repository
    Module,      // ref.path: a module of the repository (symbol "")
    Package,     // a package without a file (namespace package): `note` holds its dotted name
    External,    // imported from outside the repository (`note`: the module)
    Unresolved,  // imported from a repository module that does not define it (`note`: why)
    NotFound     // bound nowhere in the module
  };
  Kind kind = Kind::NotFound;
  SymbolRef ref;
  std::string note;
  bool found() const { return kind == Kind::Def || kind == Kind::Module || kind == Kind::Package; }
};

// How a name chain ("m.C.f") resolves, step by step: steps[i] is what parts[0..i] name.
// Resolution stops at the first step that does not resolve (it is the last one).
struct Trace {
  std::vector<std::string> parts;
  std::vector<Resolution> steps;
  bool complete() const { return !steps.empty() && steps.size() == parts.size() && steps.back().found(); }
};

// One place that reads a definition.
struct Reader {
  std::string path;      // the reading module
  std::string function;  // the def that reads it ("" for an import or module-level code)
  uint32_t line = 0;     // 0-based: the import statement or the def
  std::string how;       // "imports helper from kernels.common.util", "uses m.helper"
  auto operator<=>(const Reader&) const = default;
};

class ModuleGraph {
 public:
  ModuleGraph(const TreeFacts& facts, const Layout& layout);

  // "kernels.gfx950.attention_dense" for ".../rocke/library/kernels/gfx950/attention_dense.py";
  // a package's __init__.py is the package. "" when the path is under no import root.
  std::string moduleName(const std::string& path) const;
  // The file of a module ("" when the repository has none).
  std::string modulePath(const std::string& module) const;
  // The path relative to its import root ("kernels/common/x.py"); the path itself when none.
  std::string displayPath(const std::string& path) const;
  // Every module path of the graph.
  std::vector<std::string> modules() const;
  const PyModuleFacts* module(const std::string& path) const;
  // Definitions of exactly this name in the module.
  std::vector<const PyDef*> defs(const std::string& path, const std::string& symbol) const;

  // The definition a name bound at module level resolves to (following imports, package
  // __init__ re-exports and star imports). "Cls.method" resolves the class, then the member
  // through the class and its bases.
  Resolution resolve(const std::string& path, const std::string& name) const;
  // A chain used inside def `fromDef` of module `path` ("m.f", "helper", "self.m", "pkg.mod.C.f"):
  // function-level imports first, then the module's names; `self`/`cls` in a method is its class.
  Trace trace(const std::string& path, const std::string& fromDef, const std::string& chain) const;
  // One import record of a module, resolved (a module for `import a.b`, else the imported name).
  Resolution resolveImport(const std::string& path, const PyImport& imp) const;
  // A member of a class, through the class and its bases (Def "Base.m"), or NotFound.
  Resolution member(const SymbolRef& cls, const std::string& name) const;
  // Does class `cls` derive (directly or not) from `base`? A class derives from itself.
  bool derives(const SymbolRef& cls, const SymbolRef& base) const;

  // Everywhere (imports and uses, module-level or in defs) that resolves to the definition.
  std::vector<Reader> readers(const std::string& path, const std::string& symbol) const;
  // The definitions a def reaches by name, transitively, across modules (through module aliases
  // `import a.b as m`, `from a import b as m`); the def itself included. A class reaches its
  // members; a member reaches its class's bases' members it names through self/cls.
  // Memoised per (path, symbol): the graph's facts never change after construction (a base
  // graph lives as long as its merge base, so each keystroke reuses its closures).
  const std::set<SymbolRef>& reach(const std::string& path, const std::string& symbol) const;
  // Takes over what `previous` (a graph of the same layout, about to be dropped) computed, when
  // this graph resolves every name exactly as it does: the same modules, each with the same
  // definition names, kinds, bases and aliases and the same imports, in order (a keystroke inside
  // a def's body). Then its resolutions are this graph's, and each def's reach edges are reused
  // while the def's own kind and refs are unchanged. Otherwise nothing is taken. Returns whether
  // it took them.
  bool adopt(ModuleGraph& previous);
  // Modules a module imports, transitively (itself and the packages each import executes included).
  std::set<std::string> importClosure(const std::string& path) const;
  // The modules reached from every launch of every descriptor (multi-launch sources included),
  // from every rocke source a generator config names (its packs' descriptors are generated from
  // it) and from the packer (hkp_pack). True for every path when the tree ships no descriptor
  // and has no generator config.
  bool inShippedClosure(const std::string& path) const;
  const std::set<std::string>& shippedClosure() const;

  // The absolute dotted module an import names, relative ones resolved against `path`.
  std::string absoluteModule(const std::string& path, const std::string& module) const;

 private:
  struct Mod {
    std::string name, path;
    bool package = false;
    const PyModuleFacts* facts = nullptr;
    // The module's definitions by name (built on the module's first lookup): `defs` is asked
    // for every name a reach or a resolution passes, and a module holds hundreds of defs.
    mutable std::optional<std::unordered_map<std::string_view, std::vector<const PyDef*>>> byDefName;
  };
  const TreeFacts& facts_;
  const Layout& layout_;
  std::map<std::string, Mod> byName_;          // dotted name -> module
  std::map<std::string, const Mod*> byPath_;   // path -> its module (a node of byName_)
  std::set<std::string> packages_;             // every dotted package prefix (namespace ones too)
  std::set<std::string> topLevel_;             // first components of repository modules
  mutable std::map<std::pair<std::string, std::string>, Resolution> memo_;
  mutable std::map<std::pair<std::string, std::string>, std::set<SymbolRef>> reachMemo_;
  // One def's edges in a reach (its class members, then what each ref resolves to), keyed by a
  // hash of the defs' kinds and refs, which alone, with the resolutions, decide them.
  struct Edges {
    uint64_t key = 0;
    std::vector<SymbolRef> to;
  };
  mutable std::map<SymbolRef, Edges> edgeMemo_;
  mutable std::set<std::pair<std::string, std::string>> busy_;
  mutable std::optional<std::set<std::string>> shipped_;
  mutable bool anyRoot_ = false;
  // Each module's direct import edges (its own packages, each import's packages and module, the
  // module or def's module a `from` import binds), computed on the first closure through it:
  // closures from hundreds of launch sources cross the same modules.
  mutable std::map<std::string, std::vector<std::string>> importEdges_;
  const std::vector<std::string>& importEdges(const std::string& path) const;

  Resolution resolveName(const std::string& path, const std::string& fromDef, const std::string& name, int depth) const;
  Resolution resolveModuleLevel(const std::string& path, const std::string& name, int depth) const;
  Resolution importRecord(const std::string& path, const PyImport& imp, int depth) const;
  Resolution moduleRes(const std::string& dotted) const;
  Resolution step(const Resolution& from, const std::string& part, int depth) const;
  Resolution memberOf(const SymbolRef& cls, const std::string& name, int depth) const;
  bool isDef(const std::string& path, const std::string& symbol, PyDef::Kind kind) const;
  const std::vector<const PyDef*>& defsOf(const Mod& m, std::string_view symbol) const;
  const std::vector<SymbolRef>& edges(const SymbolRef& cur, const std::vector<const PyDef*>& ds) const;
};

}  // namespace impact
