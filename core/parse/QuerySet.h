// Every .scm query of a language, compiled as ONE tree-sitter query and run in ONE cursor pass.
// tree-sitter 0.20's ts_query_new has a fixed cost of several ms per query object on the C++
// grammar, and each query run is a full walk of the file; the .scm files stay one per job
// (core/queries/), and each is a group of patterns of its language's set (a pattern-index range,
// found from the pattern's start byte in the concatenated source).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
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

Lang languageOf(QueryId id);
std::string_view querySource(QueryId id);  // the .scm text

// The matches of one pass, split by .scm file. Each file's matches are in the order a query of
// that file alone gives on the same root, and Match::pattern is the index within that file.
struct QueryMatches {
  std::array<std::vector<Query::Match>, kQueryIdCount> byId;
  const std::vector<Query::Match>& operator[](QueryId id) const { return byId[static_cast<size_t>(id)]; }
};

class QuerySet {
 public:
  // Compiled on first use, exactly once per process; safe from any thread.
  static const QuerySet& of(Lang lang);
  // One cursor pass over root (the tree-sitter cursor runs every pattern of the language).
  QueryMatches run(TSNode root) const;

  QuerySet(const QuerySet&) = delete;
  QuerySet& operator=(const QuerySet&) = delete;

 private:
  explicit QuerySet(Lang lang);
  std::unique_ptr<Query> query_;       // null when the language has no .scm file
  std::vector<uint8_t> groupOf_;       // pattern index -> QueryId
  std::vector<uint32_t> firstPattern_; // QueryId -> its first pattern index
};

// Compiles every language's query set now (e.g. on a background thread at the start of a report,
// while git work runs), so no extraction waits for it later.
void warmQueries();

}  // namespace impact
