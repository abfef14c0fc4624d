// impactd's rename across mirrors (issue 38) over LSP: renaming the example builder's `batch` at
// its b.param renames the pack's KernelArgument name in the same WorkspaceEdit (the pack is not
// open), and leaves alone a KDP spec field, a dataclass field and a docstring spelled `batch`;
// the same rename asked at the pack's element gives the same edit; at a launch value (which
// states no name) prepareRename refuses and says why.
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"

namespace impact::testing {
namespace {

const char* kKdp =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_attention_dense/"
    "gfx950_attention_dense.kdp.json";

TEST(LspRename, ABuilderArgumentIsRenamedInThePackAndNotInASpecFieldOfTheSameSpelling) {
  M repo;
  // Same-spelled strings that are not copies of the argument.
  repo.replace(kKdp, "\"persistent\": false, \"use_sinks\": false}", "\"persistent\": false, \"use_sinks\": false, \"batch\": 2}");
  repo.replace(M::kAttention, "    use_sinks: bool = False\n", "    use_sinks: bool = False\n    batch: int = 1\n");
  repo.replace(M::kAttention, "def build_attention_dense(spec, *, arch=\"gfx950\"):\n",
               "def build_attention_dense(spec, *, arch=\"gfx950\"):\n    \"\"\"Declares \"batch\" after scale.\"\"\"\n");
  repo.commit("same-spelled strings");
  LspClient c;
  size_t from = 0;
  auto init = c.initialize(repo.dir(), {{"target", "main"}});
  EXPECT_TRUE(init["result"]["capabilities"]["renameProvider"]["prepareProvider"].get<bool>()) << init.dump();
  ASSERT_TRUE(c.waitMethod("impactd/status", &from, [](const Json& p) { return p.value("state", "") == "ready"; }, 20000ms));
  const std::string builder = uriIn(repo, M::kAttention), pack = uriIn(repo, M::kAttentionPack);
  const int bl = line0(repo, M::kAttention, "b.param(\"batch\", I32)", "def build_attention_dense");
  const int bc = col0(repo, M::kAttention, bl, "\"batch\"") + 1;

  auto prep = c.response(c.request("textDocument/prepareRename", at(builder, bl, bc + 2)));
  ASSERT_TRUE(prep && (*prep)["result"].is_object()) << (prep ? prep->dump() : "no answer");
  EXPECT_EQ((*prep)["result"]["range"], range(bl, bc, bl, bc + 5));
  EXPECT_EQ((*prep)["result"]["placeholder"], "batch");

  Json params = at(builder, bl, bc + 2);
  params["newName"] = "batch_count";
  auto r = c.response(c.request("textDocument/rename", params));
  ASSERT_TRUE(r && (*r)["result"].is_object()) << (r ? r->dump() : "no answer");
  const Json& changes = (*r)["result"]["changes"];
  ASSERT_TRUE(changes.contains(builder) && changes.contains(pack)) << changes.dump(1);
  EXPECT_EQ(changes.size(), 2u) << changes.dump(1);  // never the KDP
  std::string newBuilder = applyEdits(repo.read(M::kAttention), changes[builder]);
  std::string newPack = applyEdits(repo.read(M::kAttentionPack), changes[pack]);
  EXPECT_NE(newBuilder.find("    b.param(\"batch_count\", I32)\n"), std::string::npos) << newBuilder;
  EXPECT_NE(newBuilder.find("    batch: int = 1\n"), std::string::npos);          // the dataclass field
  EXPECT_NE(newBuilder.find("\"\"\"Declares \"batch\" after scale"), std::string::npos);  // the docstring
  EXPECT_NE(newPack.find("{\"by_value\", I32, 36, \"batch_count\"},"), std::string::npos) << newPack;
  EXPECT_EQ(newPack.find("shape.batch_count"), std::string::npos);  // the launch's values are code, not names
  EXPECT_EQ(changes[builder].size(), 1u);
  EXPECT_EQ(changes[pack].size(), 1u);

  // Asked at the pack's element: the same edit.
  const int pl = line0(repo, M::kAttentionPack, "{\"by_value\", I32, 36, \"batch\"}");
  Json fromPack = at(pack, pl, col0(repo, M::kAttentionPack, pl, "\"batch\"") + 2);
  fromPack["newName"] = "batch_count";
  auto r2 = c.response(c.request("textDocument/rename", fromPack));
  ASSERT_TRUE(r2 && (*r2)["result"].is_object()) << (r2 ? r2->dump() : "no answer");
  EXPECT_EQ((*r2)["result"]["changes"], changes);

  // At the launch's value: refused, with the reason.
  const int ll = line0(repo, M::kAttentionPack, "shape.batch,");
  auto refused = c.response(c.request("textDocument/prepareRename",
                                      at(pack, ll, col0(repo, M::kAttentionPack, ll, "shape.batch") + 3)));
  ASSERT_TRUE(refused && refused->contains("error")) << (refused ? refused->dump() : "no answer");
  EXPECT_NE((*refused)["error"]["message"].get<std::string>().find("does not state the name batch"), std::string::npos)
      << refused->dump();
  // Not a name: refused.
  params["newName"] = "batch count";
  auto bad = c.response(c.request("textDocument/rename", params));
  ASSERT_TRUE(bad && bad->contains("error")) << (bad ? bad->dump() : "no answer");
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
