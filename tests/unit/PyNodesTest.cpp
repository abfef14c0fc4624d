// The Python extractor's node helpers (core/extract/python/Nodes) answer as parse/Syntax's do,
// on every node: type, fields and named children (each read once per extraction, long lists
// with a cursor). A wrong answer would change facts silently, so every node of the real builder
// files and of a module with long lists is checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "extract/python/Nodes.h"
#include "parse/Syntax.h"

namespace fs = std::filesystem;

namespace impact {
namespace {

// A module in the real builders' style with lists past the cursor threshold: a long table, a
// call with many arguments, a def with many parameters, comments among the elements.
std::string longListsModule() {
  std::string s = "from rocke.ir import IRBuilder, I32, PtrType\n\nKERNEL_TABLE = {\n";
  for (int i = 0; i < 1000; ++i) {
    s += "    \"variant_" + std::to_string(i) + "\": (" + std::to_string(i) + ", \"gfx950\"),";
    if (i % 7 == 0) s += "  # every seventh";
    s += "\n";
  }
  s += "}\n\n\ndef build(spec, a0, a1, a2, a3, a4, a5, a6, a7, a8, *rest, flag=True, **kw):\n";
  s += "    b = IRBuilder()\n";
  s += "    emit(b, spec.batch, spec.heads, 1, 2, 3, 4, 5, 6, 7, 8, 9, key=10)\n";
  for (int i = 0; i < 24; ++i) s += "    b.param(\"arg" + std::to_string(i) + "\", I32)\n";
  s += "    return b\n";
  return s;
}

void expectSameAnswers(const std::string& name, const std::string& source) {
  auto tree = SyntaxTree::parse(Lang::Python, source);
  static const char* kFields[] = {"name",  "body",     "left",      "right",     "value",      "object",
                                  "attribute", "function", "arguments", "condition", "alternative",
                                  "parameters", "definition", "type", "module_name", "alias", "consequence"};
  size_t nodes = 0, longLists = 0;
  auto check = [&](bool listing) {
    walk(tree->root(), [&](TSNode n) {
      ++nodes;
      EXPECT_EQ(pyextract::type(n), type(n)) << name;
      for (int k = 0; k < 2; ++k)  // the second answer comes from the listing when one is alive
        for (const char* f : kFields) EXPECT_TRUE(ts_node_eq(pyextract::field(n, f), field(n, f))) << name << " " << f;
      std::vector<TSNode> want = namedChildren(n);
      // Twice: the second answer comes from the listing when one is alive.
      for (int k = 0; k < 2; ++k) {
        std::vector<TSNode> got = pyextract::namedChildren(n);
        EXPECT_EQ(got.size(), want.size()) << name << " at byte " << ts_node_start_byte(n);
        for (size_t i = 0; i < want.size() && i < got.size(); ++i) EXPECT_TRUE(ts_node_eq(got[i], want[i])) << name;
      }
      if (listing && want.size() >= 8) ++longLists;
      return true;
    });
  };
  {
    pyextract::ChildListing listing;
    check(true);
  }
  check(false);  // no listing alive: the helpers answer on their own
  EXPECT_GT(nodes, 0u);
  if (name == "long lists") EXPECT_GE(longLists, 3u);
}

TEST(PyNodes, AnswerAsTheGenericHelpersOnAModuleWithLongLists) { expectSameAnswers("long lists", longListsModule()); }

TEST(PyNodes, AnswerAsTheGenericHelpersOnEveryNodeOfTheRealPythonFiles) {
  fs::path real = fs::path(IMPACT_SHARED_DIR) / "real-data";
  if (!fs::is_directory(real)) GTEST_SKIP() << real << " is absent: real files not checked";
  size_t files = 0;
  for (auto& e : fs::recursive_directory_iterator(real)) {
    if (!e.is_regular_file() || e.path().extension() != ".py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    expectSameAnswers(e.path().string(), ss.str());
    ++files;
  }
  EXPECT_GE(files, 2u);
}

}  // namespace
}  // namespace impact
