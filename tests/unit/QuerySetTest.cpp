// The C++ query set (every core/queries/cpp_*.scm compiled as one query, run once per file) must
// give exactly what each .scm file's own query gave: extraction output depends on it. Checked on
// the real rocm-libraries files and on a file of our own with the shapes they lack.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "parse/QuerySet.h"
#include "parse/Syntax.h"
#include "support/SyntaxSamples.h"

namespace fs = std::filesystem;
using namespace impact;

namespace {

using impact::testing::kOwnCppShapes;
using impact::testing::readFile;
using impact::testing::realFilesWithExtension;

void expectSameMatches(const std::vector<Query::Match>& want, const std::vector<Query::Match>& got,
                       const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(want[i].pattern, got[i].pattern) << what << " match " << i;
    ASSERT_EQ(want[i].captures.size(), got[i].captures.size()) << what << " match " << i;
    for (size_t j = 0; j < want[i].captures.size(); ++j) {
      EXPECT_EQ(want[i].captures[j].first, got[i].captures[j].first) << what << " match " << i;
      EXPECT_TRUE(ts_node_eq(want[i].captures[j].second, got[i].captures[j].second)) << what << " match " << i;
    }
  }
}

constexpr QueryId kCppIds[] = {QueryId::CppConstant, QueryId::CppKernelArgument, QueryId::CppLaunchCall,
                               QueryId::CppLocalLambda, QueryId::CppTypedDeclaration};

// One pass of the set, split by file, equals each file's own query run alone; and for the
// typed declarations read per function / class body, filtering the file's matches by isUnder
// equals running the query over that subtree.
void checkSetAgainstSeparateQueries(const std::string& text, const std::string& what) {
  auto tree = SyntaxTree::parse(Lang::Cpp, text);
  QueryMatches all = QuerySet::of(Lang::Cpp).run(tree->root());
  size_t total = 0;
  for (QueryId id : kCppIds) {
    Query alone(Lang::Cpp, querySource(id));
    expectSameMatches(alone.matches(tree->root()), all[id], what + " query " + std::to_string(int(id)));
    total += all[id].size();
  }
  EXPECT_GT(total, 0u) << what;

  Query typed(Lang::Cpp, querySource(QueryId::CppTypedDeclaration));
  int subtrees = 0;
  walk(tree->root(), [&](TSNode n) {
    std::string_view t = type(n);
    TSNode sub{};
    if (t == "function_definition") sub = n;
    if (t == "class_specifier" || t == "struct_specifier") sub = field(n, "body");
    if (ts_node_is_null(sub)) return true;
    ++subtrees;
    std::vector<Query::Match> filtered;
    for (const auto& m : all[QueryId::CppTypedDeclaration])
      if (isUnder(m.get("decl"), sub)) filtered.push_back(m);
    expectSameMatches(typed.matches(sub), filtered, what + " subtree at byte " + std::to_string(ts_node_start_byte(sub)));
    return true;
  });
  EXPECT_GT(subtrees, 0) << what;
}

}  // namespace

TEST(QuerySet, OnePassEqualsEachQueryFileAloneOnOwnFile) { checkSetAgainstSeparateQueries(kOwnCppShapes, "own file"); }

TEST(QuerySet, OnePassEqualsEachQueryFileAloneOnRealFiles) {
  auto files = realFilesWithExtension({".cpp", ".hpp", ".h"});
  if (files.empty()) GTEST_SKIP() << "../shared/real-data is absent: real C++ files not checked";
  for (auto& f : files) checkSetAgainstSeparateQueries(readFile(f), f.filename().string());
}

TEST(QuerySet, EveryPatternBelongsToItsFile) {
  // Each file's matches carry pattern indexes within that file: the typed-declaration file has
  // three patterns (declaration, field_declaration, parameter_declaration).
  auto tree = SyntaxTree::parse(Lang::Cpp, "struct S { int f; };\nvoid g(int p) { int l = 0; }\n");
  QueryMatches all = QuerySet::of(Lang::Cpp).run(tree->root());
  std::set<uint32_t> patterns;
  for (const auto& m : all[QueryId::CppTypedDeclaration]) patterns.insert(m.pattern);
  EXPECT_EQ((std::set<uint32_t>{0, 1, 2}), patterns);
  EXPECT_TRUE(all[QueryId::CppLaunchCall].empty());
}

TEST(QuerySet, CompiledOnceAcrossThreads) {
  std::vector<const QuerySet*> seen(8, nullptr);
  std::vector<std::thread> threads;
  std::thread warm(warmQueries);
  for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = &QuerySet::of(Lang::Cpp); });
  for (auto& t : threads) t.join();
  warm.join();
  for (auto* s : seen) EXPECT_EQ(seen[0], s);
  // A language without .scm files has an empty set: no matches, no crash.
  auto py = SyntaxTree::parse(Lang::Python, "x = 1\n");
  QueryMatches none = QuerySet::of(Lang::Python).run(py->root());
  for (QueryId id : kCppIds) EXPECT_TRUE(none[id].empty());
}

TEST(IsUnder, DescendantsOnlyEvenWithEqualRanges) {
  auto tree = SyntaxTree::parse(Lang::Cpp, "void f() { int a; }\nint b;\n");
  TSNode root = tree->root();
  TSNode fn = ts_node_named_child(root, 0);
  TSNode decl = ts_node_named_child(root, 1);
  EXPECT_TRUE(isUnder(fn, root));
  EXPECT_TRUE(isUnder(fn, fn));
  EXPECT_FALSE(isUnder(root, fn));
  EXPECT_FALSE(isUnder(decl, fn));
  TSNode body = field(fn, "body");
  EXPECT_TRUE(isUnder(ts_node_named_child(body, 0), fn));
  // translation_unit and the file's only node can share a range: the parent is not under it.
  auto one = SyntaxTree::parse(Lang::Cpp, "int b;");
  TSNode only = ts_node_named_child(one->root(), 0);
  ASSERT_EQ(ts_node_end_byte(only), ts_node_end_byte(one->root()));
  EXPECT_TRUE(isUnder(only, one->root()));
  EXPECT_FALSE(isUnder(one->root(), only));
}
