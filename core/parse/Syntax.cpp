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

namespace {
std::vector<std::string_view> readSymbolNames(Lang lang) {
  const TSLanguage* l = language(lang);
  std::vector<std::string_view> names(ts_language_symbol_count(l));
  for (uint32_t s = 0; s < names.size(); ++s)
    if (const char* name = ts_language_symbol_name(l, static_cast<TSSymbol>(s))) names[s] = name;
  return names;
}
}  // namespace

const std::vector<std::string_view>& symbolNames(Lang lang) {
  if (lang == Lang::Python) {
    static const std::vector<std::string_view> python = readSymbolNames(Lang::Python);
    return python;
  }
  static const std::vector<std::string_view> cpp = readSymbolNames(Lang::Cpp);
  return cpp;
}

std::string_view type(TSNode n) { return ts_node_is_null(n) ? std::string_view{} : ts_node_type(n); }
bool is(TSNode n, std::string_view t) { return type(n) == t; }
TSNode field(TSNode n, const char* name) {
  // tree-sitter 0.20 dereferences a null node here: every helper below accepts one.
  if (ts_node_is_null(n)) return TSNode{};
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::char_traits<char>::length(name)));
}

namespace {
// A node's children in order. ts_node_child(i) and ts_node_named_child(i) start from the first
// child each time (quadratic over a long list); a tree cursor is linear but costs ~10x more per
// step and a heap stack: indexed under kCursorFrom children, a cursor from there (callgrind).
constexpr uint32_t kCursorFrom = 32;

std::vector<TSNode> childrenOf(TSNode n, bool namedOnly) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  uint32_t count = namedOnly ? ts_node_named_child_count(n) : ts_node_child_count(n);
  out.reserve(count);
  if (count < kCursorFrom) {
    for (uint32_t i = 0; i < count; ++i) out.push_back(namedOnly ? ts_node_named_child(n, i) : ts_node_child(n, i));
    return out;
  }
  TSTreeCursor cur = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cur)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cur);
      if (!namedOnly || ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cur));
  }
  ts_tree_cursor_delete(&cur);
  return out;
}
}  // namespace

std::vector<TSNode> namedChildren(TSNode n) { return childrenOf(n, true); }
std::vector<TSNode> children(TSNode n) { return childrenOf(n, false); }

SourceRange rangeOf(TSNode n) {
  if (ts_node_is_null(n)) return {};
  TSPoint s = ts_node_start_point(n), e = ts_node_end_point(n);
  return {s.row, s.column, e.row, e.column};
}

// Nodes nest or are disjoint, so byte-range containment decides, except for a node with root's
// exact range or an empty one (an ancestor of root with the same range, a zero-width node at
// root's edge): those are checked by walking up.
bool isUnder(TSNode n, TSNode root) {
  if (ts_node_is_null(n) || ts_node_is_null(root)) return false;
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  uint32_t rs = ts_node_start_byte(root), re = ts_node_end_byte(root);
  if (s < rs || e > re) return false;
  if (s == e || (s == rs && e == re)) {
    for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p))
      if (ts_node_eq(p, root)) return true;
    return false;
  }
  return true;
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

void SyntaxTree::walkAll(const std::function<bool(TSNode)>& fn) const {
  std::call_once(preorderOnce_, [this] {
    // The cursor's own order (walk's): a node is listed when entered; its end is set when left.
    TSTreeCursor cur = ts_tree_cursor_new(root());
    std::vector<uint32_t> open;
    auto enter = [&] {
      open.push_back(static_cast<uint32_t>(preorder_.size()));
      preorder_.push_back(ts_tree_cursor_current_node(&cur));
      subtreeEnd_.push_back(0);
    };
    auto leave = [&] {
      subtreeEnd_[open.back()] = static_cast<uint32_t>(preorder_.size());
      open.pop_back();
    };
    enter();
    for (bool done = false; !done;) {
      if (ts_tree_cursor_goto_first_child(&cur)) {
        enter();
        continue;
      }
      leave();
      for (;;) {
        if (ts_tree_cursor_goto_next_sibling(&cur)) {
          enter();
          break;
        }
        if (!ts_tree_cursor_goto_parent(&cur)) {
          done = true;
          break;
        }
        leave();
      }
    }
    ts_tree_cursor_delete(&cur);
  });
  for (size_t i = 0; i < preorder_.size();) i = fn(preorder_[i]) ? i + 1 : subtreeEnd_[i];
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
// What the fingerprint does with a node, by its symbol: decided once per grammar symbol from its
// name (several symbols can share a name), instead of comparing type strings at every node.
enum SymbolClass : uint8_t {
  kPlain,       // hashed by its leaves, inside a group when named
  kComment,     // left out
  kAtom,        // hashed as one token: type and text (strings, chars)
  kExpression,  // Python expression_statement: left out when it is a docstring
};

SymbolClass classify(Lang lang, std::string_view t) {
  if (t == "comment") return kComment;
  if (t == "string_literal" || t == "raw_string_literal" || t == "char_literal" || t == "concatenated_string" ||
      (lang == Lang::Python && t == "string"))
    return kAtom;
  if (lang == Lang::Python && t == "expression_statement") return kExpression;
  return kPlain;
}

// The nodes extractors ask the fingerprint of (functions, classes): the whole-file walk records
// theirs on the way (codeFingerprint(tree)), so asking later walks nothing again.
bool recorded(Lang lang, std::string_view t) {
  if (t == "function_definition") return true;
  if (lang == Lang::Python) return t == "class_definition" || t == "decorated_definition";
  return t == "class_specifier" || t == "struct_specifier";
}

struct SymbolTable {
  std::vector<std::string_view> name;
  std::vector<SymbolClass> cls;
  std::vector<bool> recorded;
};

SymbolTable buildTable(Lang lang) {
  SymbolTable st;
  st.name = symbolNames(lang);
  size_t n = st.name.size();
  st.cls.resize(n);
  st.recorded.resize(n);
  for (size_t s = 0; s < n; ++s) {
    st.cls[s] = classify(lang, st.name[s]);
    st.recorded[s] = recorded(lang, st.name[s]);
  }
  return st;
}

const SymbolTable& symbolTable(Lang lang) {
  if (lang == Lang::Python) {
    static const SymbolTable python = buildTable(Lang::Python);
    return python;
  }
  static const SymbolTable cpp = buildTable(Lang::Cpp);
  return cpp;
}
}  // namespace

// Structure-aware: named inner nodes open and close a group, so moving a statement into or
// out of a block changes the fingerprint even when the token sequence is the same.
// A tree-cursor walk (no recursion: a deeply nested file must not overflow the call stack; no
// ts_node_child(i), which is linear in i), with each symbol's class looked up by its id. A
// cursor step costs ~500 instructions in tree-sitter 0.20: walking each function once more
// after the file cost as much as the file again, hence the recording.
namespace {
using FingerprintKey = std::pair<const void*, uint32_t>;
FingerprintKey keyOf(TSNode n) { return {n.id, ts_node_start_byte(n)}; }

// The fingerprint of n; with `record`, also those of the functions and classes under it (each
// the value a walk from that node alone gives: its own hash, started at the basis when entered).
uint64_t fingerprintWalk(const SyntaxTree& tree, TSNode n, std::vector<std::pair<FingerprintKey, uint64_t>>* record) {
  const SymbolTable& st = symbolTable(tree.lang());
  // hs[0]: n's hash; one more per recorded node open around the current one. Every token goes
  // into each.
  std::vector<uint64_t> hs{1469598103934665603ULL};
  auto mix = [&](std::string_view s) {
    for (uint64_t& h : hs) h = fnv1a(s, h);
  };
  struct Open {
    bool named, recorded;
    TSNode node;
  };
  std::vector<Open> open;  // the groups entered, innermost last
  // true when x opens a group (its children are visited next).
  auto enter = [&](TSNode x) {
    TSSymbol sym = ts_node_symbol(x);
    std::string_view t;
    SymbolClass k;
    bool rec = false;
    if (sym < st.cls.size()) {
      t = st.name[sym];
      k = st.cls[sym];
      rec = record && st.recorded[sym];
    } else {  // ERROR and other built-in symbols outside the table
      t = type(x);
      k = classify(tree.lang(), t);
    }
    if (k == kComment) return false;
    if (k == kExpression && isDocstring(x)) return false;
    if (k == kAtom || ts_node_child_count(x) == 0) {
      mix(t);
      mix(tree.text(x));
      mix("\x1f");
      return false;
    }
    rec = rec && !open.empty();  // n itself is hs[0]
    if (rec) hs.push_back(1469598103934665603ULL);
    bool named = ts_node_is_named(x);
    if (named) {
      mix("(");
      mix(t);
    }
    open.push_back({named, rec, x});
    return true;
  };
  if (!enter(n)) return hs[0];
  TSTreeCursor cur = ts_tree_cursor_new(n);
  bool atChild = ts_tree_cursor_goto_first_child(&cur);  // else: on a group whose children are done
  for (;;) {
    if (atChild) {
      if (enter(ts_tree_cursor_current_node(&cur))) {
        atChild = ts_tree_cursor_goto_first_child(&cur);
        continue;
      }
      if (ts_tree_cursor_goto_next_sibling(&cur)) continue;
      ts_tree_cursor_goto_parent(&cur);
      atChild = false;
      continue;
    }
    if (open.back().named) mix(")");
    if (open.back().recorded) {
      record->emplace_back(keyOf(open.back().node), hs.back());
      hs.pop_back();
    }
    open.pop_back();
    if (open.empty()) break;
    if (ts_tree_cursor_goto_next_sibling(&cur)) {
      atChild = true;
      continue;
    }
    ts_tree_cursor_goto_parent(&cur);
  }
  ts_tree_cursor_delete(&cur);
  return hs[0];
}

}  // namespace

uint64_t codeFingerprint(const SyntaxTree& tree, TSNode n) {
  if (ts_node_is_null(n)) return 1469598103934665603ULL;
  if (ts_node_child_count(n) == 0) return fingerprintWalk(tree, n, nullptr);  // a leaf's id is not unique
  const FingerprintKey key = keyOf(n);
  {
    std::lock_guard<std::mutex> lock(tree.fingerprintsMutex_);
    if (auto it = tree.fingerprints_.find(key); it != tree.fingerprints_.end()) return it->second;
  }
  // The whole file records its functions and classes on the way (extraction asks for the file
  // first, then for its functions).
  std::vector<std::pair<FingerprintKey, uint64_t>> recorded;
  bool whole = ts_node_eq(n, tree.root());
  uint64_t h = fingerprintWalk(tree, n, whole ? &recorded : nullptr);
  std::lock_guard<std::mutex> lock(tree.fingerprintsMutex_);
  tree.fingerprints_.emplace(key, h);
  for (auto& [k, v] : recorded) tree.fingerprints_.emplace(k, v);
  return h;
}

uint64_t codeFingerprint(const SyntaxTree& tree) { return codeFingerprint(tree, tree.root()); }

Query::Query(TSQuery* q) : query_(q) {
  uint32_t n = ts_query_capture_count(query_);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t len = 0;
    const char* s = ts_query_capture_name_for_id(query_, i, &len);
    names_.emplace_back(s, len);
  }
}

std::unique_ptr<Query> Query::tryCompile(Lang lang, std::string_view source, uint32_t& errOffset, int& err) {
  TSQueryError e = TSQueryErrorNone;
  errOffset = 0;
  TSQuery* q = ts_query_new(language(lang), source.data(), static_cast<uint32_t>(source.size()), &errOffset, &e);
  err = int(e);
  if (!q) return nullptr;
  return std::unique_ptr<Query>(new Query(q));
}

Query::Query(Lang lang, std::string_view source) {
  uint32_t errOffset = 0;
  int err = 0;
  auto q = tryCompile(lang, source, errOffset, err);
  if (!q) {
    std::fprintf(stderr, "impactd: invalid tree-sitter query at offset %u (error %d)\n", errOffset, err);
    std::abort();
  }
  std::swap(query_, q->query_);
  std::swap(names_, q->names_);
}

uint32_t Query::patternCount() const { return ts_query_pattern_count(query_); }
uint32_t Query::patternStartByte(uint32_t pattern) const { return ts_query_start_byte_for_pattern(query_, pattern); }

Query::~Query() {
  if (query_) ts_query_delete(query_);
}

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
