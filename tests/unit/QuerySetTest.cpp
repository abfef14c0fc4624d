// The C++ shapes (core/parse/QuerySet: the patterns of core/queries/cpp_*.scm, matched by one walk
// of the file) must give exactly what each .scm file's own tree-sitter query gives — the same
// matches in the same order, the same captures: extraction output depends on it. The .scm files,
// compiled by tree-sitter here, are the oracle; checked on the real rocm-libraries files, on a
// file of our own with the shapes they lack, and on malformed C++.
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
#include "queries/cpp_constant.h"
#include "queries/cpp_kernel_argument.h"
#include "queries/cpp_launch_call.h"
#include "queries/cpp_local_lambda.h"
#include "queries/cpp_typed_declaration.h"
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

std::string_view querySource(QueryId id) {
  switch (id) {
    case QueryId::CppConstant: return queries::cpp_constant;
    case QueryId::CppKernelArgument: return queries::cpp_kernel_argument;
    case QueryId::CppLaunchCall: return queries::cpp_launch_call;
    case QueryId::CppLocalLambda: return queries::cpp_local_lambda;
    case QueryId::CppTypedDeclaration: return queries::cpp_typed_declaration;
  }
  return {};
}

// One walk, split by file, equals each file's own query run alone; and for the
// typed declarations read per function / class body, filtering the file's matches by isUnder
// equals running the query over that subtree.
void checkSetAgainstSeparateQueries(const std::string& text, const std::string& what, bool expectMatches = true) {
  auto tree = SyntaxTree::parse(Lang::Cpp, text);
  QueryMatches all = QuerySet::of(Lang::Cpp).run(tree->root());
  size_t total = 0;
  for (QueryId id : kCppIds) {
    Query alone(Lang::Cpp, querySource(id));
    expectSameMatches(alone.matches(tree->root()), all[id], what + " query " + std::to_string(int(id)));
    total += all[id].size();
  }
  if (expectMatches) EXPECT_GT(total, 0u) << what;
  // The nodes listed by kind are the nodes a walk of the tree visits of that type, in its order.
  const std::pair<NodeKind, const char*> kinds[] = {{NodeKind::InitializerList, "initializer_list"},
                                                    {NodeKind::CallExpression, "call_expression"},
                                                    {NodeKind::PreprocInclude, "preproc_include"}};
  for (auto [kind, name] : kinds) {
    std::vector<TSNode> walked;
    walk(tree->root(), [&](TSNode n) {
      if (type(n) == name) walked.push_back(n);
      return true;
    });
    const std::vector<TSNode>& listed = all.of(kind);
    ASSERT_EQ(walked.size(), listed.size()) << what << " " << name;
    for (size_t i = 0; i < walked.size(); ++i) EXPECT_TRUE(ts_node_eq(walked[i], listed[i])) << what << " " << name;
  }

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
  if (expectMatches) EXPECT_GT(subtrees, 0) << what;
}

}  // namespace

TEST(QuerySet, OnePassEqualsEachQueryFileAloneOnOwnFile) { checkSetAgainstSeparateQueries(kOwnCppShapes, "own file"); }

TEST(QuerySet, OnePassEqualsEachQueryFileAloneOnRealFiles) {
  auto files = realFilesWithExtension({".cpp", ".hpp", ".h"});
  if (files.empty()) GTEST_SKIP() << "../shared/real-data is absent: real C++ files not checked";
  for (auto& f : files) checkSetAgainstSeparateQueries(readFile(f), f.filename().string());
}

TEST(QuerySet, OnePassEqualsEachQueryFileAloneOnMalformedAndNestedCode) {
  // Shapes inside ERROR nodes, MISSING tokens, nested matches that end before their enclosing one
  // (a chained launch call, a lambda holding declarations), several declarators sharing one value.
  const char* samples[] = {
      "void f() { auto x = a.b(c).launch(d, e.launch(g)); }\n",
      "auto k = [](int a) { constexpr int n = 3; int m, q = 4; return KernelArgument{\"x\", 4, 0, \"n\"}; };\n",
      "struct S { int a, b = 2; static constexpr auto K = \"k\"; };\n",
      "void f( { int x = ; ns::KernelArgument{\"a\", 8 obj.launch(1,; }\n",
      "constexpr auto P = sizeof(void*);\nclass { void g(int p, float) { launch.launch(); } \n",
      "int main() { for (auto x : {1, 2}) { auto y = [&] { return x.launch(y); }; } }\n",
      "template <typename T> T z = T{}; std::vector<KernelArgument> v{KernelArgument{\"a\", 8, 0, \"b\"}};\n",
      "\xff\xfe int x = \"unterminated; struct { int q = ",
      "",
  };
  int i = 0;
  for (const char* s : samples) checkSetAgainstSeparateQueries(s, "sample " + std::to_string(i++), false);
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

TEST(QuerySet, BuiltOnceAcrossThreads) {
  std::vector<const QuerySet*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = &QuerySet::of(Lang::Cpp); });
  for (auto& t : threads) t.join();
  for (auto* s : seen) EXPECT_EQ(seen[0], s);
  // A language without stated shapes has an empty set: no matches, no crash.
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
