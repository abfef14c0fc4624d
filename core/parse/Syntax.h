// tree-sitter, wrapped: parse a buffer with the Python or C++ grammar, walk nodes, run queries.
// The one place that knows the tree-sitter C API; extractors use only this header.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "model/Facts.h"

namespace impact {

enum class Lang { Python, Cpp };

const TSLanguage* language(Lang lang);
// The grammar's symbol names by symbol id (ts_node_type's answer for a node of that symbol),
// read once per language: a lookup without tree-sitter's strlen.
const std::vector<std::string_view>& symbolNames(Lang lang);

// A parsed buffer. Owns the tree and a copy of the text the nodes point into.
class SyntaxTree {
 public:
  static std::unique_ptr<SyntaxTree> parse(Lang lang, std::string text);
  // Re-parse after an edit, reusing the old tree (tree-sitter incremental parsing).
  std::unique_ptr<SyntaxTree> reparse(std::string newText, const TSInputEdit& edit) const;
  // The same for several edits applied in order (one LSP didChange).
  std::unique_ptr<SyntaxTree> reparse(std::string newText, const std::vector<TSInputEdit>& edits) const;
  ~SyntaxTree();
  SyntaxTree(const SyntaxTree&) = delete;
  SyntaxTree& operator=(const SyntaxTree&) = delete;

  TSNode root() const;
  Lang lang() const { return lang_; }
  const std::string& text() const { return text_; }
  std::string_view text(TSNode n) const;
  // "" when the tree has no ERROR or MISSING node; else "line N: <reason>" for the first one.
  std::string firstError() const;
  // walk(root(), fn): every node, pre-order, fn returning false to skip a node's children. The
  // order is listed once per tree (one cursor pass, thread-safe), so each of the extractors'
  // whole-tree passes is a loop over it rather than a cursor walk of its own.
  void walkAll(const std::function<bool(TSNode)>& fn) const;

 private:
  SyntaxTree(Lang lang, std::string text, TSTree* tree) : lang_(lang), text_(std::move(text)), tree_(tree) {}
  friend uint64_t codeFingerprint(const SyntaxTree& tree, TSNode n);
  Lang lang_;
  std::string text_;
  TSTree* tree_;
  // codeFingerprint's memo, by node (subtree id, start byte): a function fingerprinted by two
  // extractors, or by one and the functions list, is walked once. Inner nodes only (a leaf's
  // id can be its inline data, shared by equal tokens).
  // walkAll's order: the nodes pre-order and, for each, the index just past its subtree.
  mutable std::once_flag preorderOnce_;
  mutable std::vector<TSNode> preorder_;
  mutable std::vector<uint32_t> subtreeEnd_;
  mutable std::mutex fingerprintsMutex_;
  mutable std::map<std::pair<const void*, uint32_t>, uint64_t> fingerprints_;
};

// Node helpers.
std::string_view type(TSNode n);
bool is(TSNode n, std::string_view t);
TSNode field(TSNode n, const char* name);
std::vector<TSNode> namedChildren(TSNode n);
std::vector<TSNode> children(TSNode n);
SourceRange rangeOf(TSNode n);
// n is root or one of root's descendants (by byte range; a walk up only when the ranges alone
// cannot tell).
bool isUnder(TSNode n, TSNode root);
// Calls fn on n and every descendant, pre-order; fn returns false to skip a node's children.
void walk(TSNode n, const std::function<bool(TSNode)>& fn);

// Code fingerprint of a subtree: FNV-1a over its leaf tokens, comments left out, so an edit
// that changes only comments or whitespace keeps the fingerprint. For Python, a docstring
// (a string expression statement first in a module, class or def body) is left out too.
// Memoised per tree and inner node (thread-safe): asking twice walks once.
uint64_t codeFingerprint(const SyntaxTree& tree, TSNode n);
uint64_t codeFingerprint(const SyntaxTree& tree);

uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ULL);

// A compiled tree-sitter query (.scm) and its captures.
class Query {
 public:
  Query(Lang lang, std::string_view source);  // aborts on an invalid query (a programming error)
  // Null on an invalid query, with the byte offset and tree-sitter's error code.
  static std::unique_ptr<Query> tryCompile(Lang lang, std::string_view source, uint32_t& errOffset, int& err);
  ~Query();
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  struct Match {
    uint32_t pattern;
    std::vector<std::pair<std::string_view, TSNode>> captures;  // capture name -> node
    TSNode get(std::string_view name) const;  // null node when absent
  };
  std::vector<Match> matches(TSNode root) const;
  uint32_t patternCount() const;
  uint32_t patternStartByte(uint32_t pattern) const;  // where the pattern starts in the source

 private:
  explicit Query(TSQuery* q);
  TSQuery* query_ = nullptr;
  std::vector<std::string> names_;
};

}  // namespace impact
