// impactd on the real rocKE SDPA recipe set (../shared/real-data/rocke-cpu, copied into a fixture
// repository at test time): the two name-keyed checks of the recipe's launch plan
// (RockeSdpaNative.cpp Handler::launch, test_native_sdpa.cpp Prepared::execute) are copies of the
// gfx950 dense builder. A scalar the checks do not accept, typed in the editor, is an error on the
// builder (once per copy) and on each copy; hover on a b.param lists both whitelists.
#include <set>
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"
#include "support/RecipeCorpus.h"

namespace impact::testing {
namespace {

using R = RecipeCorpusFixture;
const Json kTargetMain = {{"target", "main"}};

const Json* firstError(const Json& params) {
  for (const auto& d : params["diagnostics"])
    if (d["severity"] == 1) return &d;
  return nullptr;
}

TEST(LspNameKeyed, AScalarTheWhitelistRejectsIsADiagnosticOnTheBuilderAndOnBothChecks) {
  IMPACT_REQUIRE_RECIPE_CORPUS();
  R repo;
  const std::string path = R::kBuilder;
  const std::string uri = uriIn(repo, path);
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", repo.read(path)}}}});
  int l = line0(repo, path, "    scale = b.param(\"scale\", F32)") + 1;
  size_t from = 0;
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", uri}, {"version", 2}}},
            {"contentChanges", {{{"range", range(l, 0, l, 0)}, {"text", "    batch = b.param(\"batch\", I32)\n"}}}}});
  auto got = waitDiags(c, uri, &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(got) << transcript(c);
  std::set<std::string> copies;
  // The module's own restatement (attention_dense_signature, conditional itself: compared per
  // assignment of the guards) has its own diagnostics: on the builder, naming it, and on the
  // restatement, below the builder ("copy leaves out the unconditional argument batch …").
  const int restatement = line0(repo, path, "def attention_dense_signature");
  for (const auto& d : (*got)["diagnostics"]) {
    if (d.value("severity", 0) != 1 || d.value("code", "") != "kernargs") continue;
    std::string msg = d["message"];
    if (msg.find("attention_dense_signature") != std::string::npos || int(d["range"]["start"]["line"]) >= restatement)
      continue;
    EXPECT_EQ(int(d["range"]["start"]["line"]), l) << msg;  // on the new b.param
    EXPECT_NE(msg.find("builder argument batch (i32 by_value/4) at #5 is not accepted by the name-keyed check"),
              std::string::npos)
        << msg;
    if (msg.find("Handler::launch") != std::string::npos && msg.find("RockeSdpaNative.cpp") != std::string::npos)
      copies.insert("native");
    else if (msg.find("Prepared::execute") != std::string::npos && msg.find("test_native_sdpa.cpp") != std::string::npos)
      copies.insert("standalone");
    else
      ADD_FAILURE() << "unexpected copy: " << msg;
  }
  EXPECT_EQ(copies, (std::set<std::string>{"native", "standalone"})) << got->dump(1);

  // Each check has its own error, with the builder as related information.
  for (const char* file : {R::kNative, R::kStandalone}) {
    size_t f = 0;
    auto d = waitDiags(c, uriIn(repo, file), &f, [](const Json& x) { return hasSeverity(x, 1); });
    ASSERT_TRUE(d) << file << transcript(c);
    const Json* err = firstError(*d);
    ASSERT_TRUE(err) << d->dump(1);
    EXPECT_EQ((*err)["code"], "kernargs");
    EXPECT_NE((*err)["message"].get<std::string>().find("not accepted by the name-keyed check"), std::string::npos)
        << err->dump();
    ASSERT_FALSE((*err)["relatedInformation"].empty()) << err->dump();
  }

  // Hover on the scale b.param lists both whitelists as copies that agree.
  int sl = line0(repo, path, "    scale = b.param(\"scale\", F32)");
  int sc = col0(repo, path, sl, "b.param");
  int id = c.request("textDocument/hover", at(uri, sl, sc + 3));
  auto h = c.response(id);
  ASSERT_TRUE(h && (*h)["result"].is_object()) << (h ? h->dump() : "timeout");
  std::string v = (*h)["result"]["contents"]["value"];
  EXPECT_NE(v.find("RockeSdpaNative.cpp"), std::string::npos) << v;
  EXPECT_NE(v.find("test_native_sdpa.cpp"), std::string::npos) << v;
  // ... and the module's own Python restatement, a copy like the C++ ones.
  EXPECT_NE(v.find("attention_dense_signature"), std::string::npos) << v;
  EXPECT_EQ(v.find("differs"), std::string::npos) << v;
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
