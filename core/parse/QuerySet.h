// The C++ shapes the extractors start from (a constant, a KernelArgument element, a launch call, a
// lambda bound to a local, a typed declaration), each stated as a tree-sitter query in
// core/queries/*.scm and matched here by ONE walk of the file.
//
// Why a walk and not tree-sitter's query engine: tree-sitter 0.20 (Debian 12) spends 15–30 ms in
// ts_query_new on the C++ grammar — an analysis of the whole parse table, paid even for
// `(call_expression) @c` — once per process, which was an eighth of every cold report; its cursor
// then walks the file once more. The patterns here are the .scm files' patterns, as data, and the
// walk gives exactly what the query gives, match for match: the same matches, in the same order
// (a match is reported when its last node is reached, as tree-sitter's cursor reports it), with
// the same captures in the same order. tests/unit/QuerySetTest.cpp compiles the .scm files with
// tree-sitter as the oracle and compares on every real C++ file and on malformed input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "parse/Syntax.h"

namespace impact {

// One .scm file of core/queries.
enum class QueryId : uint8_t {
  CppConstant,          // cpp_constant.scm
  CppKernelArgument,    // cpp_kernel_argument.scm
  CppLaunchCall,        // cpp_launch_call.scm
  CppLocalLambda,       // cpp_local_lambda.scm
  CppTypedDeclaration,  // cpp_typed_declaration.scm
};
inline constexpr size_t kQueryIdCount = 5;

// Node types the same walk also lists, for the extractors that read every node of a type (one
// walk of the file instead of one per extractor).
enum class NodeKind : uint8_t { InitializerList, CallExpression, PreprocInclude };
inline constexpr size_t kNodeKindCount = 3;

// The matches of one pass, split by .scm file. Each file's matches are in the order a query of
// that file alone gives on the same root, and Match::pattern is the index within that file.
struct QueryMatches {
  std::array<std::vector<Query::Match>, kQueryIdCount> byId;
  const std::vector<Query::Match>& operator[](QueryId id) const { return byId[static_cast<size_t>(id)]; }
  // Every node of a kind under the root, in pre-order (the order `walk` visits them).
  std::array<std::vector<TSNode>, kNodeKindCount> nodes;
  const std::vector<TSNode>& of(NodeKind k) const { return nodes[static_cast<size_t>(k)]; }
};

// A pattern node: `(type field: (kid) @capture)`. `types` empty: any named node (`(_)`).
struct ShapeNode {
  std::vector<std::string_view> types;
  std::string_view field;    // "" when the pattern names no field
  std::string_view capture;  // "" when nothing is captured here
  std::vector<ShapeNode> kids;
};

class QuerySet {
 public:
  // Built on first use, exactly once per process (a table of the grammar's symbols; no query is
  // compiled); safe from any thread.
  static const QuerySet& of(Lang lang);
  // One walk of root's subtree.
  QueryMatches run(TSNode root) const;

  QuerySet(const QuerySet&) = delete;
  QuerySet& operator=(const QuerySet&) = delete;

 private:
  struct Pattern {
    QueryId id;
    uint32_t index;  // within its file
    ShapeNode root;
  };
  explicit QuerySet(Lang lang);
  std::vector<Pattern> patterns_;
  std::vector<uint32_t> rootsBySymbol_;  // symbol -> bit mask of the patterns rooted at it
  std::vector<uint8_t> kindBySymbol_;    // symbol -> NodeKind + 1, 0 when not listed
  const std::vector<std::string_view>* names_ = nullptr;  // the grammar's symbol names
  friend class ShapeWalk;
};

}  // namespace impact
