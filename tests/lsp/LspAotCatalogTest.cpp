// impactd end to end on the real gfx1151 rmsnorm2d AOT catalog family (../shared/real-data/
// aot-catalog, committed into a fixture repository at test time; skipped, saying so, when absent):
// hover on a builder argument lists its catalog entries and the adapter's and tests' bindings of
// it; the quick fix rewrites a stale family.json `args_signature` to the list its spec gives.
#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "lsp/LspTestSupport.h"
#include "support/Mutation.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};
const std::string kHkpAot = "dnn-providers/hip-kernel-provider/";
const std::string kRmsBuilder = kHkpAot + "rocke/platform/python/rocke/instances/common/rmsnorm2d.py";
const std::string kRmsCatalog = kHkpAot + "rocke/aot_catalog/gfx1151/rmsnorm2d/family.json";

size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size())) ++n;
  return n;
}

TEST(LspAotCatalog, HoverOnABuilderArgumentListsItsCatalogEntriesAndBindings) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  SharedTreeRepo repo("aot-catalog");
  ASSERT_TRUE(repo.ok()) << "../shared/real-data/aot-catalog is absent";
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  int l = line0(repo, kRmsBuilder, "eps = b.param(\"eps\", F32)");
  int col = col0(repo, kRmsBuilder, l, "b.param");
  std::string v;
  // The first answers may come before the analysis is ready: ask until the copies are listed.
  for (int attempt = 0; attempt < 100 && v.find("family.json") == std::string::npos; ++attempt) {
    if (attempt) std::this_thread::sleep_for(200ms);
    int id = c.request("textDocument/hover", at(uriIn(repo, kRmsBuilder), l, col + 3));
    auto h = c.response(id);
    if (h && (*h)["result"].is_object()) v = (*h)["result"]["contents"]["value"];
  }
  // The static builder makes 14 of the 18 entries (the runtime-N builder the other 4): each
  // restates eps, and agrees.
  size_t entries = 0, agreeing = 0;
  std::istringstream rows(v);
  for (std::string row; std::getline(rows, row);)
    if (row.find("family.json") != std::string::npos && row.find("args_signature") != std::string::npos)
      ++entries, agreeing += row.find("agrees") != std::string::npos;
  EXPECT_EQ(entries, 14u) << v;
  EXPECT_EQ(agreeing, 14u) << v;
  // The adapter and the tests' three binding sets bind eps by name, as a float.
  EXPECT_NE(v.find("RmsNormAdapter::buildBindings bindings"), std::string::npos) << v;
  EXPECT_EQ(occurrences(v, "binds eps in scalars as float"), 4u) << v;
  EXPECT_NE(v.find("TestRmsNormNumericParity.cpp"), std::string::npos) << v;
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

TEST(LspAotCatalog, TheQuickFixRewritesAStaleArgsSignatureToTheListItsSpecGives) {
  if (sharedDir().empty()) GTEST_SKIP() << "../shared is absent";
  SharedTreeRepo repo("aot-catalog");
  ASSERT_TRUE(repo.ok()) << "../shared/real-data/aot-catalog is absent";
  const std::string original = repo.read(kRmsCatalog);
  repo.git("checkout -q -b edits");
  // The first entry loses eps (its last element): a stale copy of its list.
  std::string text = original;
  const std::string eps = ",\n                {\n                    \"name\": \"eps\",\n                    \"type\": \"f32\"\n                }\n";
  auto at0 = text.find(eps);
  ASSERT_NE(at0, std::string::npos);
  text.replace(at0, eps.size(), "\n");
  repo.write(kRmsCatalog, text);
  repo.commit("the first entry edited alone");
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  const std::string uri = uriIn(repo, kRmsCatalog);
  size_t from = 0;
  auto diags = waitDiags(c, uri, &from, [](const Json& d) { return hasSeverity(d, 1); }, 30000ms);
  ASSERT_TRUE(diags) << c.stderrText() << transcript(c);
  int l = line0(repo, kRmsCatalog, "\"args_signature\"");
  int id = c.request("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                 {"range", range(l, 0, l, 0)},
                                                 {"context", {{"diagnostics", Json::array()}}}});
  auto actions = c.response(id);
  ASSERT_TRUE(actions && (*actions)["result"].is_array()) << (actions ? actions->dump() : "timeout");
  const Json* fix = nullptr;
  for (const auto& a : (*actions)["result"])
    if (a.value("kind", "") == "quickfix") fix = &a;
  ASSERT_TRUE(fix) << actions->dump(2);
  EXPECT_NE((*fix)["title"].get<std::string>().find("rocke_rmsnorm2d_fwd_f16_N2048_b256_v4 args_signature"),
            std::string::npos)
      << fix->dump();
  // Applied, the entry is the producer's spec's list again: the file as shipped, byte for byte.
  EXPECT_EQ(applyEdits(text, (*fix)["edit"]["changes"][uri]), original) << fix->dump(2);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
