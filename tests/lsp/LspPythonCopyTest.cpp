// impactd on the real gfx942 dense module (../shared/real-data/rocm-libraries, copied into a fixture
// repository at test time): the helper _build_attention_dense_single_buffer gains an argument in
// the editor; attention_dense_signature, the module's SignatureBuilder restatement, is a copy, so
// the diagnostic lands on both Python sides: the copy's last argument and the new b.param.
#include <set>
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
  // The builder's new argument is one diagnostic per copy that lacks it: on the signature copy's
  // last argument, and on the builder's line once for the signature copy and once for the launch.
  bool onCopy = false;
  std::set<std::string> builderNames;
  for (const auto& d : (*got)["diagnostics"]) {
    if (d.value("severity", 0) != 1 || d.value("code", "") != "kernargs") continue;
    std::string msg = d["message"];
    int line = d["range"]["start"]["line"];
    EXPECT_NE(msg.find("missing window_left (by_value/4) at #5"), std::string::npos) << msg;
    if (line == scalar) {
      onCopy = true;  // the copy's side names the builder
      EXPECT_NE(msg.find("(build_attention_dense in attention_dense.py:"), std::string::npos) << msg;
    } else if (line == l) {
      // the builder's side names the copy
      if (msg.find("copy attention_dense_signature in attention_dense.py:") != std::string::npos)
        builderNames.insert("attention_dense_signature");
      else if (msg.find("copy Gfx942AttentionDenseDispatchHandler::launch launch(...) in Gfx942AttentionDenseNative.cpp:") !=
               std::string::npos)
        builderNames.insert("launch");
      else
        ADD_FAILURE() << "unexpected copy on the builder's line: " << msg;
    } else {
      ADD_FAILURE() << "kernargs error on an unexpected line " << line << ": " << msg;
    }
  }
  EXPECT_TRUE(onCopy) << got->dump(1);
  EXPECT_EQ(builderNames, (std::set<std::string>{"attention_dense_signature", "launch"})) << got->dump(1);
  c.shutdownAndExit();
  EXPECT_EQ(c.waitExit(), 0);
}

}  // namespace
}  // namespace impact::testing
