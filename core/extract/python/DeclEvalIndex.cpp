// The builder evaluator (DeclEval.h): the index of a module — its functions, classes, bindings
// and imports (`collectModule`), which functions can reach a declaration, make an IRBuilder or
// return another module's function (text pre-filters over the module's functions, to a fixpoint:
// the evaluator decides), and the modules the loader gives.
#include "extract/python/DeclEvalImpl.h"

#include <algorithm>

#include "extract/python/Nodes.h"
#include "extract/python/Values.h"

namespace impact::pyextract {

namespace {

void collectModule(const SyntaxTree& t, TSNode n, const std::string& cls, ModIndex& m, int depth) {
  if (depth > kMaxVisitDepthEval) return;
  for (TSNode st : namedChildren(n)) {
    std::string_view ty = type(st);
    if (ty == "decorated_definition" && cls.empty() && is(field(st, "definition"), "function_definition"))
      m.decorated.push_back(st);
    if (ty == "decorated_definition") st = field(st, "definition"), ty = type(st);
    if (ty == "function_definition") {
      std::string name(t.text(field(st, "name")));
      m.fns[cls.empty() ? name : cls + "." + name] = st;
      if (cls.empty()) m.binds[name].count++;
    } else if (ty == "class_definition") {
      std::string name(t.text(field(st, "name")));
      if (cls.empty()) m.binds[name].count++, m.classes[name] = st;
      collectModule(t, field(st, "body"), cls.empty() ? name : cls + "." + name, m, depth + 1);
    } else if (!cls.empty()) {
      continue;
    } else if (ty == "expression_statement") {
      for (TSNode a : namedChildren(st)) {
        if (!is(a, "assignment")) continue;
        TSNode left = field(a, "left");
        if (!is(left, "identifier")) continue;
        auto& b = m.binds[std::string(t.text(left))];
        if (b.count++ == 0) b.value = field(a, "right");
      }
    } else if (ty == "import_from_statement") {
      std::string from(t.text(field(st, "module_name")));
      for (TSNode nm : namedChildren(st)) {
        if (ts_node_eq(nm, field(st, "module_name"))) continue;
        std::string attr, alias;
        if (is(nm, "dotted_name")) attr = alias = std::string(t.text(nm));
        else if (is(nm, "aliased_import"))
          attr = std::string(t.text(field(nm, "name"))), alias = std::string(t.text(field(nm, "alias")));
        else continue;
        auto& b = m.binds[alias];
        if (b.module.empty()) b.module = from, b.attr = attr;
        b.count++;
      }
    } else if (ty == "import_statement") {
      for (TSNode nm : namedChildren(st)) {
        std::string mod, alias;
        if (is(nm, "dotted_name")) mod = std::string(t.text(nm)), alias = mod.substr(0, mod.find('.'));
        else if (is(nm, "aliased_import"))
          mod = std::string(t.text(field(nm, "name"))), alias = std::string(t.text(field(nm, "alias")));
        else continue;
        auto& b = m.binds[alias];
        if (b.module.empty()) b.module = mod;
        b.count++;
      }
    } else if (ty == "if_statement" || ty == "try_statement" || ty == "with_statement") {
      // Module-level branches: their functions and imports are bindings like any other; a name
      // bound in several is bound more than once (its import, when one is, is the one read).
      for (TSNode part : namedChildren(st))
        if (is(part, "block")) collectModule(t, part, cls, m, depth + 1);
        else
          for (TSNode inner : namedChildren(part))
            if (is(inner, "block")) collectModule(t, inner, cls, m, depth + 1);
    }
  }
}

// The functions whose text holds one of `seeds`, or names one of those (to a fixpoint).
std::set<std::string> closureOf(const ModIndex& m, const std::vector<std::string_view>& seeds) {
  std::set<std::string> in;
  std::vector<std::pair<std::string, std::string_view>> rest;
  for (auto& [name, def] : m.fns) {
    std::string_view body = m.t->text(def);
    bool hit = false;
    for (std::string_view s : seeds) hit = hit || hasWord(body, s);
    if (hit) in.insert(name);
    else rest.emplace_back(name, body);
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (auto& [name, body] : rest) {
      if (in.count(name)) continue;
      for (const std::string& callee : in) {
        std::string_view bare = std::string_view(callee).substr(callee.rfind('.') == std::string::npos ? 0 : callee.rfind('.') + 1);
        if (hasWord(body, bare)) {
          in.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  return in;
}

void returning(const ModIndex& m, const std::vector<std::string>& a, const std::vector<std::string>& b,
               std::set<std::string>& out) {
  std::vector<std::string_view> seeds(a.begin(), a.end());
  seeds.insert(seeds.end(), b.begin(), b.end());
  if (seeds.empty()) return;
  for (const std::string& name : closureOf(m, seeds))
    if (hasWord(m.t->text(m.fns.at(name)), "return")) out.insert(name);
}

void textClosure(ModIndex& m, const std::vector<std::string>& importedDeclaring) {
  std::vector<std::string_view> seeds{".param", "\"param\"", "'param'"};
  for (const std::string& n : importedDeclaring) seeds.push_back(n);
  for (const std::string& n : m.unseen) seeds.push_back(n);
  m.declaring = closureOf(m, seeds);
  m.building = closureOf(m, {"IRBuilder"});
  m.signing = closureOf(m, {"SignatureBuilder", "\"name\"", "'name'"});
  // A function that returns and names an imported module or function (an unseen one: `dispatching`),
  // or names such a function of this module (`return _impl(spec)` where `_impl` returns
  // `_conv.build(...)`): it may return another module's kernel.
  returning(m, m.unseen, m.unseenModules, m.dispatching);
}

}  // namespace

bool DeclEval::Impl::returnsImported(ModIndex& m, const std::string& fn) {
  if (!m.returnsImportedKnown) {  // on first use: most entries never return a call of the module
    returning(m, m.calledImports, {}, m.returnsImported);
    m.returnsImportedKnown = true;
  }
  return m.returnsImported.count(fn) > 0;
}

ModIndex* DeclEval::Impl::index(const SyntaxTree* tree, const std::string& dotted) {
  auto& slot = mods[dotted];
  if (!slot) {
    slot = std::make_unique<ModIndex>();
    slot->t = tree;
    slot->dotted = dotted;
    ModIndex* m = slot.get();
    collectModule(*tree, tree->root(), "", *m, 0);
    if (hasWord(tree->text(tree->root()), "global"))
      tree->walkAll([&](TSNode n) {
        if (is(n, "global_statement"))
          for (TSNode id : namedChildren(n))
            if (is(id, "identifier")) m->globals.insert(std::string(tree->text(id)));
        return true;
      });
    // Names imported from a module of the tree whose function can declare are seeds too; so are
    // the called functions of a module this evaluation cannot see (one that may hold declaring
    // helpers: not rocKE's IR library): given the IRBuilder, such a call opens the list.
    std::vector<std::string> imported;
    std::string_view text = tree->text(tree->root());
    for (auto& [name, b] : m->binds) {
      if (b.module.empty()) continue;
      std::string from = resolveRelative(dotted, b.module);
      ModIndex* other = loader && !b.attr.empty() ? moduleNamed(from) : nullptr;
      if (other && other != m && other->declaring.count(b.attr)) imported.push_back(name);
      bool seen = other || (loader && moduleNamed(b.attr.empty() ? from : from + "." + b.attr));
      bool mayHold = mayHoldDeclaringHelpers(from) && !knownName(b.attr.empty() ? name : b.attr);
      if (mayHold && (calledIn(text, name, !b.attr.empty()) || (!b.attr.empty() && calledIn(text, name, false))))
        m->calledImports.push_back(name);
      if (!seen && mayHold) {
        if (calledIn(text, name, !b.attr.empty())) m->unseen.push_back(name);
        // An imported name of a package used as a module (`from kernels.common import conv as
        // _c; _c.build(...)`): its functions may be returned (a dispatch).
        else if (!b.attr.empty() && calledIn(text, name, false)) m->unseenModules.push_back(name);
      }
    }
    // Its decorators run as the module's import runs them (a registry filled by `@register(...)`):
    // a module binding that comes to hold a declaring value is a seed as an imported one is.
    if (!m->decorated.empty()) runDecorators(*m, imported);
    m->importedDeclaring = imported;
    textClosure(*m, imported);
    m->mayDeclare.clear();
    return m;
  }
  return slot.get();
}

ModIndex* DeclEval::Impl::moduleNamed(const std::string& dotted) {
  if (auto it = mods.find(dotted); it != mods.end()) return it->second.get();
  if (!loader || dotted.empty()) return nullptr;
  const SyntaxTree* tree = loader(dotted);
  if (!tree) return nullptr;
  return index(tree, dotted);
}

}  // namespace impact::pyextract
