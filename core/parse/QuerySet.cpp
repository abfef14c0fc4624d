#include "parse/QuerySet.h"

#include <algorithm>
#include <functional>

namespace impact {
namespace {

ShapeNode node(std::vector<std::string_view> types, std::string_view field = "", std::string_view capture = "",
               std::vector<ShapeNode> kids = {}) {
  return ShapeNode{std::move(types), field, capture, std::move(kids)};
}

struct Stated {
  QueryId id;
  ShapeNode root;
};

// The patterns of core/queries/cpp_*.scm, in each file's order (the file's comments say why each
// is there). Any change here is a change of the .scm file too: QuerySetTest compares them.
std::vector<Stated> cppPatterns() {
  return {
      // cpp_constant.scm
      {QueryId::CppConstant,
       node({"declaration"}, "", "decl",
            {node({"init_declarator"}, "declarator", "",
                  {node({}, "declarator", "name"), node({}, "value", "value")})})},
      {QueryId::CppConstant,
       node({"field_declaration"}, "", "decl", {node({}, "declarator", "name"), node({}, "default_value", "value")})},
      // cpp_kernel_argument.scm
      {QueryId::CppKernelArgument,
       node({"compound_literal_expression"}, "", "element",
            {node({"type_identifier", "qualified_identifier"}, "type", "type"),
             node({"initializer_list"}, "value", "args")})},
      // cpp_launch_call.scm
      {QueryId::CppLaunchCall,
       node({"call_expression"}, "", "call",
            {node({"field_expression"}, "function", "", {node({"field_identifier"}, "field", "method")}),
             node({"argument_list"}, "arguments", "args")})},
      // cpp_local_lambda.scm
      {QueryId::CppLocalLambda,
       node({"declaration"}, "", "decl",
            {node({"init_declarator"}, "declarator", "",
                  {node({"identifier"}, "declarator", "name"), node({"lambda_expression"}, "value", "lambda")})})},
      // cpp_typed_declaration.scm
      {QueryId::CppTypedDeclaration, node({"declaration"}, "", "decl", {node({}, "type", "type")})},
      {QueryId::CppTypedDeclaration, node({"field_declaration"}, "", "decl", {node({}, "type", "type")})},
      {QueryId::CppTypedDeclaration, node({"parameter_declaration"}, "", "decl", {node({}, "type", "type")})},
  };
}

using Captures = std::vector<std::pair<std::string_view, TSNode>>;
// Called with the node the match ends on (its last pattern node) and that node's depth.
using Done = std::function<void(TSNode last, uint32_t depth)>;

struct Child {
  TSNode node;
  std::string_view field;
};

}  // namespace

// One walk of a tree against every pattern: each pattern node is matched against a child that
// carries its field and type, children in sibling order, every assignment a match (as
// tree-sitter's cursor forks a state for each).
class ShapeWalk {
 public:
  explicit ShapeWalk(const QuerySet& set) : set_(set) {}

  QueryMatches run(TSNode root) {
    struct Found {
      QueryId id;
      Query::Match match;
      TSNode last;
      uint32_t lastDepth;
    };
    std::vector<Found> found;
    QueryMatches out;
    TSTreeCursor cur = ts_tree_cursor_new(root);
    uint32_t depth = 0;
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&cur);
      TSSymbol sym = ts_node_symbol(n);
      if (sym < set_.kindBySymbol_.size() && set_.kindBySymbol_[sym]) out.nodes[set_.kindBySymbol_[sym] - 1].push_back(n);
      uint32_t mask = sym < set_.rootsBySymbol_.size() ? set_.rootsBySymbol_[sym] : 0;
      for (uint32_t p = 0; mask; ++p, mask >>= 1) {
        if (!(mask & 1)) continue;
        const QuerySet::Pattern& pat = set_.patterns_[p];
        Captures caps;
        match(n, depth, pat.root, caps, [&](TSNode last, uint32_t d) {
          found.push_back(Found{pat.id, Query::Match{pat.index, caps}, last, d});
        });
      }
      if (ts_tree_cursor_goto_first_child(&cur)) {
        ++depth;
        continue;
      }
      while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&cur)) {
        ts_tree_cursor_goto_parent(&cur);
        --depth;
      }
      if (depth == 0) break;
    }
    ts_tree_cursor_delete(&cur);
    // tree-sitter reports a match when its cursor reaches the match's last node (pre-order: the
    // earlier start, then the enclosing node, then the shallower); matches ending on one node in
    // the order they were found.
    std::stable_sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
      uint32_t as = ts_node_start_byte(a.last), bs = ts_node_start_byte(b.last);
      if (as != bs) return as < bs;
      uint32_t ae = ts_node_end_byte(a.last), be = ts_node_end_byte(b.last);
      if (ae != be) return ae > be;
      return a.lastDepth < b.lastDepth;
    });
    for (Found& f : found) out.byId[static_cast<size_t>(f.id)].push_back(std::move(f.match));
    return out;
  }

 private:
  bool typeMatches(TSNode n, const ShapeNode& s) const {
    if (!ts_node_is_named(n)) return false;
    if (s.types.empty()) return true;
    TSSymbol sym = ts_node_symbol(n);
    std::string_view name = sym < set_.names_->size() ? (*set_.names_)[sym] : std::string_view{};
    return std::find(s.types.begin(), s.types.end(), name) != s.types.end();
  }

  void match(TSNode n, uint32_t depth, const ShapeNode& s, Captures& caps, const Done& done) {
    if (!typeMatches(n, s)) return;
    if (!s.capture.empty()) caps.emplace_back(s.capture, n);
    if (s.kids.empty()) {
      done(n, depth);
    } else {
      std::vector<Child> children;
      TSTreeCursor cur = ts_tree_cursor_new(n);
      if (ts_tree_cursor_goto_first_child(&cur)) do {
          const char* f = ts_tree_cursor_current_field_name(&cur);
          children.push_back(Child{ts_tree_cursor_current_node(&cur), f ? std::string_view(f) : std::string_view{}});
        } while (ts_tree_cursor_goto_next_sibling(&cur));
      ts_tree_cursor_delete(&cur);
      matchKids(children, s, 0, 0, depth, caps, done);
    }
    if (!s.capture.empty()) caps.pop_back();
  }

  // Matches s.kids[k..] against children[from..], in order; each assignment ends in `done`.
  void matchKids(const std::vector<Child>& children, const ShapeNode& s, size_t k, size_t from, uint32_t depth,
                 Captures& caps, const Done& done) {
    const ShapeNode& kid = s.kids[k];
    for (size_t i = from; i < children.size(); ++i) {
      if (!kid.field.empty() && children[i].field != kid.field) continue;
      match(children[i].node, depth + 1, kid, caps, [&](TSNode last, uint32_t d) {
        if (k + 1 == s.kids.size()) done(last, d);
        else matchKids(children, s, k + 1, i + 1, depth, caps, done);
      });
    }
  }

  const QuerySet& set_;
};

QuerySet::QuerySet(Lang lang) : names_(&symbolNames(lang)) {
  if (lang != Lang::Cpp) return;  // Python has no stated shapes: its extractor walks
  uint32_t perFile[kQueryIdCount] = {};
  for (Stated& s : cppPatterns())
    patterns_.push_back(Pattern{s.id, perFile[static_cast<size_t>(s.id)]++, std::move(s.root)});
  rootsBySymbol_.assign(names_->size(), 0);
  kindBySymbol_.assign(names_->size(), 0);
  for (size_t sym = 0; sym < names_->size(); ++sym) {
    TSSymbolType t = ts_language_symbol_type(language(lang), static_cast<TSSymbol>(sym));
    if (t != TSSymbolTypeRegular) continue;  // a pattern's root is a named node
    std::string_view name = (*names_)[sym];
    if (name == "initializer_list") kindBySymbol_[sym] = 1 + uint8_t(NodeKind::InitializerList);
    if (name == "call_expression") kindBySymbol_[sym] = 1 + uint8_t(NodeKind::CallExpression);
    if (name == "preproc_include") kindBySymbol_[sym] = 1 + uint8_t(NodeKind::PreprocInclude);
    for (size_t p = 0; p < patterns_.size(); ++p) {
      const auto& types = patterns_[p].root.types;
      if (std::find(types.begin(), types.end(), (*names_)[sym]) != types.end()) rootsBySymbol_[sym] |= 1u << p;
    }
  }
}

const QuerySet& QuerySet::of(Lang lang) {
  // Function-local statics: initialised once, thread-safe.
  if (lang == Lang::Python) {
    static const QuerySet python(Lang::Python);
    return python;
  }
  static const QuerySet cpp(Lang::Cpp);
  return cpp;
}

QueryMatches QuerySet::run(TSNode root) const {
  if (patterns_.empty() || ts_node_is_null(root)) return {};
  return ShapeWalk(*this).run(root);
}

}  // namespace impact
