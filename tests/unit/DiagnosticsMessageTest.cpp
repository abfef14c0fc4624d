// The language server's diagnostic messages (lsp/server/Diagnostics): each side names the other
// by symbol and file name, not by its repository path; relatedInformation keeps the whole path
// and the range.
#include <gtest/gtest.h>

#include "server/Diagnostics.h"

namespace impact::server {
namespace {

constexpr const char* kBuilder = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
constexpr const char* kPin =
    "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
    "TestGfx950AttentionDenseSignature.cpp";

Row staleCopy() {
  Row r;
  r.contract = "kernargs";
  r.status = Status::Mismatch;
  r.python = {kBuilder, 76, "build_attention_dense", {}, {}};
  r.python.focus.line = 75;
  r.mirror = {kPin, 27, "expectedSignature", {}, {}};
  r.mirror.focus.line = 26;
  r.message = "copy has 8 arguments, builder has 11";
  r.key = "kernargs|pin";
  return r;
}

TEST(DiagnosticsMessage, TheCopyNamesTheBuilderByFileNameAndSymbol) {
  auto byFile = diagnosticsByFile({staleCopy()});
  ASSERT_EQ(byFile[kPin].size(), 1u);
  const FileDiag& d = byFile[kPin][0];
  EXPECT_EQ(d.message, "kernargs: copy has 8 arguments, builder has 11 (build_attention_dense in attention_dense.py:76)");
  EXPECT_EQ(d.severity, Severity::Error);
  ASSERT_EQ(d.related.size(), 1u);
  EXPECT_EQ(d.related[0].path, kBuilder);  // the whole path stays in the related information
  EXPECT_EQ(d.related[0].range.line, 75u);
  EXPECT_EQ(d.related[0].message, "the builder build_attention_dense");
}

TEST(DiagnosticsMessage, TheBuilderNamesTheCopyByFileNameAndSymbol) {
  auto byFile = diagnosticsByFile({staleCopy()});
  ASSERT_EQ(byFile[kBuilder].size(), 1u);
  const FileDiag& d = byFile[kBuilder][0];
  EXPECT_EQ(d.message,
            "kernargs: copy expectedSignature in TestGfx950AttentionDenseSignature.cpp:27: copy has 8 arguments, "
            "builder has 11");
  EXPECT_EQ(d.message.find("dnn-providers/"), std::string::npos) << d.message;
  ASSERT_EQ(d.related.size(), 1u);
  EXPECT_EQ(d.related[0].path, kPin);
  EXPECT_EQ(d.related[0].message, "the copy expectedSignature");
}

TEST(DiagnosticsMessage, ASideWithoutASymbolIsNamedByItsFileAlone) {
  Row r = staleCopy();
  r.status = Status::Changed;
  r.archs = {"gfx950"};
  r.python.symbol.clear();
  r.mirror.path = "top-level.cpp";  // a path without a folder
  auto byFile = diagnosticsByFile({r});
  ASSERT_EQ(byFile["top-level.cpp"].size(), 1u);
  EXPECT_EQ(byFile["top-level.cpp"][0].message,
            "kernargs: copy has 8 arguments, builder has 11 (attention_dense.py:76) — needs a device run on gfx950");
  EXPECT_EQ(byFile[kBuilder][0].message,
            "kernargs: copy expectedSignature in top-level.cpp:27: copy has 8 arguments, builder has 11 — needs a "
            "device run on gfx950");
}

}  // namespace
}  // namespace impact::server
