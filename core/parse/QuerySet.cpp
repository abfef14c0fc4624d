#include "parse/QuerySet.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "queries/cpp_constant.h"
#include "queries/cpp_kernel_argument.h"
#include "queries/cpp_launch_call.h"
#include "queries/cpp_local_lambda.h"
#include "queries/cpp_typed_declaration.h"

namespace impact {
namespace {

struct QueryFile {
  QueryId id;
  Lang lang;
  const char* file;
  std::string_view source;
};

// Every .scm file of core/queries, in QueryId order.
constexpr QueryFile kFiles[kQueryIdCount] = {
    {QueryId::CppConstant, Lang::Cpp, "cpp_constant.scm", queries::cpp_constant},
    {QueryId::CppKernelArgument, Lang::Cpp, "cpp_kernel_argument.scm", queries::cpp_kernel_argument},
    {QueryId::CppLaunchCall, Lang::Cpp, "cpp_launch_call.scm", queries::cpp_launch_call},
    {QueryId::CppLocalLambda, Lang::Cpp, "cpp_local_lambda.scm", queries::cpp_local_lambda},
    {QueryId::CppTypedDeclaration, Lang::Cpp, "cpp_typed_declaration.scm", queries::cpp_typed_declaration},
};

}  // namespace

Lang languageOf(QueryId id) { return kFiles[static_cast<size_t>(id)].lang; }
std::string_view querySource(QueryId id) { return kFiles[static_cast<size_t>(id)].source; }

QuerySet::QuerySet(Lang lang) : firstPattern_(kQueryIdCount, 0) {
  // The language's files concatenated; starts[k] is where file k begins.
  std::string source;
  std::vector<std::pair<uint32_t, const QueryFile*>> starts;
  for (const QueryFile& f : kFiles) {
    if (f.lang != lang) continue;
    starts.emplace_back(static_cast<uint32_t>(source.size()), &f);
    source.append(f.source);
    source.push_back('\n');
  }
  if (starts.empty()) return;
  auto fileAt = [&](uint32_t offset) {
    const QueryFile* f = starts.front().second;
    uint32_t base = 0;
    for (auto& [s, file] : starts)
      if (s <= offset) f = file, base = s;
    return std::pair{f, offset - base};
  };
  uint32_t errOffset = 0;
  int err = 0;
  query_ = Query::tryCompile(lang, source, errOffset, err);
  if (!query_) {
    auto [f, at] = fileAt(errOffset);
    std::fprintf(stderr, "impactd: invalid tree-sitter query core/queries/%s at offset %u (error %d)\n", f->file, at,
                 err);
    std::abort();
  }
  uint32_t n = query_->patternCount();
  groupOf_.resize(n);
  for (uint32_t p = n; p-- > 0;) {  // backwards: firstPattern_ ends at each file's lowest index
    QueryId id = fileAt(query_->patternStartByte(p)).first->id;
    groupOf_[p] = static_cast<uint8_t>(id);
    firstPattern_[static_cast<size_t>(id)] = p;
  }
}

const QuerySet& QuerySet::of(Lang lang) {
  // Function-local statics: initialised once, thread-safe; a thread that needs the set while
  // another compiles it waits for that compilation instead of starting its own.
  if (lang == Lang::Python) {
    static const QuerySet python(Lang::Python);
    return python;
  }
  static const QuerySet cpp(Lang::Cpp);
  return cpp;
}

QueryMatches QuerySet::run(TSNode root) const {
  QueryMatches out;
  if (!query_ || ts_node_is_null(root)) return out;
  for (Query::Match& m : query_->matches(root)) {
    uint8_t g = groupOf_[m.pattern];
    m.pattern -= firstPattern_[g];
    out.byId[g].push_back(std::move(m));
  }
  return out;
}

void warmQueries() {
  QuerySet::of(Lang::Cpp);
  QuerySet::of(Lang::Python);
}

}  // namespace impact
