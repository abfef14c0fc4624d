#include "parse/Syntax.h"

#include <cstdio>
#include <cstdlib>

extern "C" const TSLanguage* tree_sitter_python();
extern "C" const TSLanguage* tree_sitter_cpp();

namespace impact {

const TSLanguage* language(Lang lang) {
  return lang == Lang::Python ? tree_sitter_python() : tree_sitter_cpp();
}

namespace {
struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
using ParserPtr = std::unique_ptr<TSParser, ParserDeleter>;

ParserPtr makeParser(Lang lang) {
  ParserPtr p(ts_parser_new());
  ts_parser_set_language(p.get(), language(lang));
  return p;
}
}  // namespace

std::unique_ptr<SyntaxTree> SyntaxTree::parse(Lang lang, std::string text) {
  auto parser = makeParser(lang);
  TSTree* t = ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size()));
  return std::unique_ptr<SyntaxTree>(new SyntaxTree(lang, std::move(text), t));
}

std::unique_ptr<SyntaxTree> SyntaxTree::reparse(std::string newText, const TSInputEdit& edit) const {
  auto parser = makeParser(lang_);
  TSTree* old = ts_tree_copy(tree_);
  ts_tree_edit(old, &edit);
  TSTree* t = ts_parser_parse_string(parser.get(), old, newText.data(), static_cast<uint32_t>(newText.size()));
  ts_tree_delete(old);
  return std::unique_ptr<SyntaxTree>(new SyntaxTree(lang_, std::move(newText), t));
}

std::unique_ptr<SyntaxTree> SyntaxTree::reparse(std::string newText, const std::vector<TSInputEdit>& edits) const {
  auto parser = makeParser(lang_);
  TSTree* old = ts_tree_copy(tree_);
  for (const auto& e : edits) ts_tree_edit(old, &e);
  TSTree* t = ts_parser_parse_string(parser.get(), old, newText.data(), static_cast<uint32_t>(newText.size()));
  ts_tree_delete(old);
  return std::unique_ptr<SyntaxTree>(new SyntaxTree(lang_, std::move(newText), t));
}

SyntaxTree::~SyntaxTree() { ts_tree_delete(tree_); }

TSNode SyntaxTree::root() const { return ts_tree_root_node(tree_); }

std::string_view SyntaxTree::text(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  if (b > text_.size() || e > text_.size() || e < b) return {};
  return std::string_view(text_).substr(b, e - b);
}

std::string SyntaxTree::firstError() const {
  TSNode r = root();
  if (!ts_node_has_error(r)) return "";
  std::string out;
  walk(r, [&](TSNode n) {
    if (!out.empty()) return false;
    if (!ts_node_has_error(n)) return false;
    if (ts_node_is_missing(n)) {
      out = "line " + std::to_string(ts_node_start_point(n).row + 1) + ": syntax error, missing '" +
            std::string(ts_node_type(n)) + "'";
      return false;
    }
    if (is(n, "ERROR")) {
      std::string_view t = text(n);
      if (t.size() > 30) t = t.substr(0, 30);
      auto nl = t.find('\n');
      if (nl != std::string_view::npos) t = t.substr(0, nl);
      out = "line " + std::to_string(ts_node_start_point(n).row + 1) + ": syntax error near '" +
            std::string(t) + "'";
      return false;
    }
    return true;
  });
  if (out.empty()) out = "syntax error";
  return out;
}

std::string_view type(TSNode n) { return ts_node_is_null(n) ? std::string_view{} : ts_node_type(n); }
bool is(TSNode n, std::string_view t) { return type(n) == t; }
TSNode field(TSNode n, const char* name) {
  // tree-sitter 0.20 dereferences a null node here: every helper below accepts one.
  if (ts_node_is_null(n)) return TSNode{};
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::char_traits<char>::length(name)));
}

std::vector<TSNode> namedChildren(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  uint32_t c = ts_node_named_child_count(n);
  out.reserve(c);
  for (uint32_t i = 0; i < c; ++i) out.push_back(ts_node_named_child(n, i));
  return out;
}

std::vector<TSNode> children(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  uint32_t c = ts_node_child_count(n);
  out.reserve(c);
  for (uint32_t i = 0; i < c; ++i) out.push_back(ts_node_child(n, i));
  return out;
}

SourceRange rangeOf(TSNode n) {
  if (ts_node_is_null(n)) return {};
  TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
  return {s.row, s.column, e.row, e.column};
}

void walk(TSNode n, const std::function<bool(TSNode)>& fn) {
  if (ts_node_is_null(n)) return;
  TSTreeCursor cur = ts_tree_cursor_new(n);
  bool descend = true;
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&cur);
    if (descend && fn(node) && ts_tree_cursor_goto_first_child(&cur)) continue;
    descend = true;
    if (ts_tree_cursor_goto_next_sibling(&cur)) continue;
    bool done = false;
    for (;;) {
      if (!ts_tree_cursor_goto_parent(&cur)) { done = true; break; }
      if (ts_node_eq(ts_tree_cursor_current_node(&cur), n)) { done = true; break; }
      if (ts_tree_cursor_goto_next_sibling(&cur)) break;
    }
    if (done) break;
  }
  ts_tree_cursor_delete(&cur);
}

uint64_t fnv1a(std::string_view s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

namespace {
bool isDocstring(TSNode n) {
  // expression_statement holding only a string, first statement of module/class/def body.
  if (!is(n, "expression_statement") || ts_node_named_child_count(n) != 1) return false;
  if (!is(ts_node_named_child(n, 0), "string")) return false;
  TSNode parent = ts_node_parent(n);
  if (!is(parent, "module") && !is(parent, "block")) return false;
  // The first statement: comments before it are extras, not statements.
  TSNode first{};
  for (uint32_t i = 0, c = ts_node_named_child_count(parent); i < c; ++i) {
    TSNode k = ts_node_named_child(parent, i);
    if (!is(k, "comment")) {
      first = k;
      break;
    }
  }
  if (ts_node_is_null(first) || !ts_node_eq(first, n)) return false;
  if (is(parent, "module")) return true;
  TSNode owner = ts_node_parent(parent);
  return is(owner, "function_definition") || is(owner, "class_definition");
}
}  // namespace

namespace {
bool isAtom(const SyntaxTree& tree, TSNode x, std::string_view t) {
  return ts_node_child_count(x) == 0 || t == "string_literal" || t == "raw_string_literal" ||
         t == "char_literal" || t == "concatenated_string" || (tree.lang() == Lang::Python && t == "string");
}
}  // namespace

// Structure-aware: named inner nodes open and close a group, so moving a statement into or
// out of a block changes the fingerprint even when the token sequence is the same.
// Iterative (an explicit stack): a deeply nested file must not overflow the call stack.
uint64_t codeFingerprint(const SyntaxTree& tree, TSNode n) {
  uint64_t h = 1469598103934665603ULL;
  if (ts_node_is_null(n)) return h;
  struct Frame {
    TSNode node;
    uint32_t next;  // next child to visit
  };
  std::vector<Frame> stack;
  auto enter = [&](TSNode x) {
    std::string_view t = type(x);
    if (t == "comment") return;
    if (tree.lang() == Lang::Python && isDocstring(x)) return;
    if (isAtom(tree, x, t)) {
      h = fnv1a(t, h);
      h = fnv1a(tree.text(x), h);
      h = fnv1a("\x1f", h);
      return;
    }
    if (ts_node_is_named(x)) {
      h = fnv1a("(", h);
      h = fnv1a(t, h);
    }
    stack.push_back({x, 0});
  };
  enter(n);
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next < ts_node_child_count(f.node)) {
      TSNode child = ts_node_child(f.node, f.next++);
      enter(child);
    } else {
      if (ts_node_is_named(f.node)) h = fnv1a(")", h);
      stack.pop_back();
    }
  }
  return h;
}

uint64_t codeFingerprint(const SyntaxTree& tree) { return codeFingerprint(tree, tree.root()); }

Query::Query(Lang lang, std::string_view source) {
  uint32_t errOffset = 0;
  TSQueryError err = TSQueryErrorNone;
  query_ = ts_query_new(language(lang), source.data(), static_cast<uint32_t>(source.size()), &errOffset, &err);
  if (!query_) {
    std::fprintf(stderr, "impactd: invalid tree-sitter query at offset %u (error %d)\n", errOffset, int(err));
    std::abort();
  }
  uint32_t n = ts_query_capture_count(query_);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t len = 0;
    const char* s = ts_query_capture_name_for_id(query_, i, &len);
    names_.emplace_back(s, len);
  }
}

Query::~Query() { ts_query_delete(query_); }

TSNode Query::Match::get(std::string_view name) const {
  for (auto& [k, v] : captures)
    if (k == name) return v;
  return TSNode{};
}

std::vector<Query::Match> Query::matches(TSNode root) const {
  std::vector<Match> out;
  TSQueryCursor* cur = ts_query_cursor_new();
  ts_query_cursor_exec(cur, query_, root);
  TSQueryMatch m;
  while (ts_query_cursor_next_match(cur, &m)) {
    Match mm;
    mm.pattern = m.pattern_index;
    for (uint16_t i = 0; i < m.capture_count; ++i)
      mm.captures.emplace_back(names_[m.captures[i].index], m.captures[i].node);
    out.push_back(std::move(mm));
  }
  ts_query_cursor_delete(cur);
  return out;
}

}  // namespace impact
