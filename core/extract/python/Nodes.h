// Node helpers of the Python extractor: the same answers as parse/Syntax.h's `type`, `is`,
// `field` and `namedChildren`, without their per-call costs: a node's type read from a table of
// the grammar's symbol names (not ts_node_type and strlen); a field's id looked up once per name
// (not tree-sitter's scan of every field name on each call); a node's named children and field
// children read once per extraction (`ChildListing`, installed by extractPython) though the
// module-symbols, function and binding walks each read them (with tree-sitter 0.20 every ts_node_named_child
// restarts from the first child, and a cursor step costs more still). Declared in
// impact::pyextract, they hide the generic ones in every file of the Python extractor that
// includes this header. Python trees only.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "parse/Syntax.h"

namespace impact::pyextract {

struct PyGrammar {
  const TSLanguage* lang = nullptr;
  const std::vector<std::string_view>& names;  // symbol id -> ts_node_type's name (parse/Syntax)
  static const PyGrammar& get();
};

inline std::string_view type(TSNode n) {
  if (ts_node_is_null(n)) return {};
  static const PyGrammar& g = PyGrammar::get();
  TSSymbol s = ts_node_symbol(n);  // the public symbol: its name is ts_node_type's
  if (s < g.names.size()) return g.names[s];
  return ts_language_symbol_name(g.lang, s);  // ERROR and other built-in symbols
}

inline bool is(TSNode n, std::string_view t) { return type(n) == t; }

// The id of a field of the Python grammar (0: no such field). `name` is a string literal: ids
// are cached by its address.
TSFieldId fieldId(const char* name);

// The child of field `id`: answered once per (node, field) while a ChildListing is alive.
TSNode fieldChild(TSNode n, TSFieldId id);

inline TSNode field(TSNode n, const char* name) {
  if (ts_node_is_null(n)) return TSNode{};
  TSFieldId id = fieldId(name);
  if (id == 0) return TSNode{};
  return fieldChild(n, id);
}

// Named children of a node: a view into the listing of the running extraction (valid until it
// ends), or, outside one, a list of its own. Converts to a std::vector.
class NodeList {
 public:
  NodeList() = default;
  NodeList(const TSNode* b, size_t n) : b_(b), n_(n) {}
  explicit NodeList(std::vector<TSNode> own) : own_(std::move(own)), b_(own_.data()), n_(own_.size()) {}
  NodeList(const NodeList& o) : own_(o.own_), b_(own_.empty() ? o.b_ : own_.data()), n_(o.n_) {}
  NodeList& operator=(const NodeList& o) {
    own_ = o.own_;
    b_ = own_.empty() ? o.b_ : own_.data();
    n_ = o.n_;
    return *this;
  }
  const TSNode* begin() const { return b_; }
  const TSNode* end() const { return b_ + n_; }
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  TSNode operator[](size_t i) const { return b_[i]; }
  TSNode back() const { return b_[n_ - 1]; }
  operator std::vector<TSNode>() const { return std::vector<TSNode>(begin(), end()); }

 private:
  std::vector<TSNode> own_;
  const TSNode* b_ = nullptr;
  size_t n_ = 0;
};

// While alive, the named children and field children of each node of the tree being extracted
// are read once and kept (per thread; listings nest: the innermost is used).
class ChildListing {
 public:
  ChildListing();
  ~ChildListing();
  ChildListing(const ChildListing&) = delete;
  ChildListing& operator=(const ChildListing&) = delete;
  NodeList of(TSNode n);
  TSNode fieldOf(TSNode n, TSFieldId id);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ChildListing* outer_;
};

NodeList namedChildren(TSNode n);

}  // namespace impact::pyextract
