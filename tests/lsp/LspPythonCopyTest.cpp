// impactd on the real gfx942 dense module (../shared/real-data/rocm-libraries, copied into a fixture
// repository at test time): the helper _build_attention_dense_single_buffer gains an argument in
// the editor; attention_dense_signature, the module's SignatureBuilder restatement, is a copy, so
// the diagnostic lands on both Python sides: the copy's last argument and the new b.param.
#include <gtest/gtest.h>

#include "lsp/LspTestSupport.h"
#include "support/RealCorpus.h"

namespace impact::testing {
namespace {

const Json kTargetMain = {{"target", "main"}};

TEST(LspPythonCopy, AnArgumentTheSignatureLacksIsADiagnosticOnBothPythonSides) {
  IMPACT_REQUIRE_REAL_CORPUS();
  RealCorpusFixture repo;
  const std::string path = RealCorpusFixture::kDenseBuilder;
  const std::string uri = uriIn(repo, path);
  LspClient c;
  c.initialize(repo.dir(), kTargetMain);
  c.notify("textDocument/didOpen",
           {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", 1}, {"text", repo.read(path)}}}});
  int l = line0(repo, path, "    scale = b.param(\"scale\", F32)") + 1;
  size_t from = 0;
  c.notify("textDocument/didChange",
           {{"textDocument", {{"uri", uri}, {"version", 2}}},
            {"contentChanges", {{{"range", range(l, 0, l, 0)}, {"text", "    window = b.param(\"window_left\", I32)\n"}}}}});
  auto got = waitDiags(c, uri, &from, [](const Json& d) { return hasSeverity(d, 1); });
  ASSERT_TRUE(got) << transcript(c);
  const int scalar = line0(repo, path, ".scalar(\"scale\", \"f32\")") + 1;  // below the inserted line
  bool onCopy = false, onBuilder = false;
  for (const auto& d : (*got)["diagnostics"]) {
    if (d.value("severity", 0) != 1 || d.value("code", "") != "kernargs") continue;
    std::string msg = d["message"];
    int line = d["range"]["start"]["line"];
    EXPECT_NE(msg.find("missing window_left (by_value/4) at #5"), std::string::npos) << msg;
    if (line == scalar) {
      onCopy = true;  // the copy's side names the builder
      EXPECT_NE(msg.find("build_attention_dense at "), std::string::npos) << msg;
    }
    if (line == l) {
      onBuilder = true;  // the builder's side names the copy
      EXPECT_NE(msg.find("copy attention_dense_signature in "), std::string::npos) << msg;
    }
  }
  EXPECT_TRUE(onCopy) << got->dump(1);
  EXPECT_TRUE(onBuilder) << got->dump(1);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
