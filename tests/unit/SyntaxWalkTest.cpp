// The faster node walks of core/parse (codeFingerprint by symbol id, namedChildren/children with a
// cursor for long lists) must give exactly what the first definitions gave: fingerprints are
// stored in the persistent cache. Checked on every node of the real rocm-libraries / rocKE files
// and of files of our own.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "parse/Syntax.h"
#include "support/SyntaxSamples.h"

namespace fs = std::filesystem;
using namespace impact;

namespace {

using impact::testing::kOwnCppShapes;
using impact::testing::readFile;
using impact::testing::realFilesWithExtension;

// The fingerprint as first written (ts_node_child per child, type strings compared): the values
// stored in the persistent cache were made by it.
uint64_t referenceFingerprint(const SyntaxTree& tree, TSNode n);

bool refIsDocstring(TSNode n) {
  if (!is(n, "expression_statement") || ts_node_named_child_count(n) != 1) return false;
  if (!is(ts_node_named_child(n, 0), "string")) return false;
  TSNode parent = ts_node_parent(n);
  if (!is(parent, "module") && !is(parent, "block")) return false;
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

uint64_t referenceFingerprint(const SyntaxTree& tree, TSNode n) {
  uint64_t h = 1469598103934665603ULL;
  if (ts_node_is_null(n)) return h;
  struct Frame {
    TSNode node;
    uint32_t next;
  };
  std::vector<Frame> stack;
  auto enter = [&](TSNode x) {
    std::string_view t = type(x);
    if (t == "comment") return;
    if (tree.lang() == Lang::Python && refIsDocstring(x)) return;
    if (ts_node_child_count(x) == 0 || t == "string_literal" || t == "raw_string_literal" || t == "char_literal" ||
        t == "concatenated_string" || (tree.lang() == Lang::Python && t == "string")) {
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

// Every named node of the file (the root included) keeps its fingerprint: asked after the whole
// file (functions and classes then come from what the file's walk recorded), and, in a fresh
// tree, functions asked before the file.
void checkFingerprints(Lang lang, const std::string& text, const std::string& what) {
  auto fresh = SyntaxTree::parse(lang, text);
  walk(fresh->root(), [&](TSNode n) {
    if (is(n, "function_definition")) {
      EXPECT_EQ(referenceFingerprint(*fresh, n), codeFingerprint(*fresh, n)) << what << " function at byte "
                                                                            << ts_node_start_byte(n);
    }
    return true;
  });
  EXPECT_EQ(referenceFingerprint(*fresh, fresh->root()), codeFingerprint(*fresh)) << what;
  auto tree = SyntaxTree::parse(lang, text);
  EXPECT_EQ(referenceFingerprint(*tree, tree->root()), codeFingerprint(*tree)) << what;
  int checked = 0;
  walk(tree->root(), [&](TSNode n) {
    if (ts_node_is_named(n) && ts_node_end_byte(n) - ts_node_start_byte(n) < 4000) {
      EXPECT_EQ(referenceFingerprint(*tree, n), codeFingerprint(*tree, n))
          << what << " " << type(n) << " at byte " << ts_node_start_byte(n);
      ++checked;
    }
    return true;
  });
  EXPECT_GT(checked, 0) << what;
}

}  // namespace

TEST(CodeFingerprint, SameValuesAsFirstDefinitionOnOwnFiles) {
  checkFingerprints(Lang::Cpp, kOwnCppShapes, "own C++ file");
  checkFingerprints(Lang::Python,
                    "\"\"\"Module doc.\"\"\"\n# c\nclass A:\n    \"\"\"Doc.\"\"\"\n    def f(self, b):\n"
                    "        '''doc'''\n        x = 'text'  # trailing\n        b.param('a', 8)\n        return f\"{x}\"\n"
                    "def broken(:\n    pass\n",
                    "own Python file");
}

TEST(CodeFingerprint, SameValuesAsFirstDefinitionOnRealFiles) {
  auto cpp = realFilesWithExtension({".cpp", ".hpp", ".h"});
  auto py = realFilesWithExtension({".py"});
  if (cpp.empty() && py.empty()) GTEST_SKIP() << "../shared/real-data is absent: real files not checked";
  for (auto& f : cpp) checkFingerprints(Lang::Cpp, readFile(f), f.filename().string());
  for (auto& f : py) checkFingerprints(Lang::Python, readFile(f), f.filename().string());
}

// namedChildren / children (a tree cursor for long lists): the same nodes, in the same order, as
// ts_node_named_child(i) / ts_node_child(i), on every node of the real and own files.
TEST(NodeChildren, SameAsIndexedChildren) {
  // Own long lists (read with a cursor), so the test stands without the real files too.
  std::string table = "SIZES = {\n", args = "int sizes[] = {";
  for (int i = 0; i < 40; ++i) table += "    \"k" + std::to_string(i) + "\": " + std::to_string(i) + ",\n";
  for (int i = 0; i < 40; ++i) args += std::to_string(i) + ", ";
  std::vector<std::pair<Lang, std::string>> files{
      {Lang::Cpp, kOwnCppShapes}, {Lang::Python, table + "}\n"}, {Lang::Cpp, args + "};\n"}};
  for (auto& f : realFilesWithExtension({".cpp", ".hpp", ".h"})) files.push_back({Lang::Cpp, readFile(f)});
  for (auto& f : realFilesWithExtension({".py"})) files.push_back({Lang::Python, readFile(f)});
  size_t nodes = 0, longLists = 0;
  for (auto& [lang, text] : files) {
    auto tree = SyntaxTree::parse(lang, text);
    walk(tree->root(), [&](TSNode n) {
      auto named = namedChildren(n);
      auto all = children(n);
      EXPECT_EQ(ts_node_named_child_count(n), named.size());
      EXPECT_EQ(ts_node_child_count(n), all.size());
      if (all.size() >= 32) ++longLists;                         // read with a cursor
      if (named.size() > 200 || all.size() > 200) return true;  // indexed access is quadratic
      for (uint32_t i = 0; i < named.size(); ++i) EXPECT_TRUE(ts_node_eq(ts_node_named_child(n, i), named[i]));
      for (uint32_t i = 0; i < all.size(); ++i) EXPECT_TRUE(ts_node_eq(ts_node_child(n, i), all[i]));
      ++nodes;
      return true;
    });
  }
  EXPECT_GT(nodes, 200u);
  EXPECT_GT(longLists, 1u);
}

// The memo is per tree: an edited function in another tree gets its own value, and asking twice
// gives the same value (from several threads too).
TEST(CodeFingerprint, MemoisedPerTreeAndNode) {
  auto a = SyntaxTree::parse(Lang::Cpp, "void f() { g(1); }\nvoid h() { g(2); }\n");
  auto b = SyntaxTree::parse(Lang::Cpp, "void f() { g(3); }\nvoid h() { g(2); }\n");
  TSNode fa = ts_node_named_child(a->root(), 0), fb = ts_node_named_child(b->root(), 0);
  TSNode ha = ts_node_named_child(a->root(), 1), hb = ts_node_named_child(b->root(), 1);
  uint64_t first = codeFingerprint(*a, fa);
  EXPECT_NE(first, codeFingerprint(*b, fb));
  EXPECT_EQ(codeFingerprint(*a, ha), codeFingerprint(*b, hb));
  EXPECT_NE(codeFingerprint(*a, fa), codeFingerprint(*a, ha));
  std::vector<uint64_t> seen(4);
  std::vector<std::thread> ts;
  for (size_t i = 0; i < seen.size(); ++i) ts.emplace_back([&, i] { seen[i] = codeFingerprint(*a, fa); });
  for (auto& t : ts) t.join();
  for (uint64_t v : seen) EXPECT_EQ(first, v);
  EXPECT_EQ(referenceFingerprint(*a, fa), first);
}
