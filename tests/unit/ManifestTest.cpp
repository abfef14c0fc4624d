#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "extract/Descriptor.h"
#include "extract/Extract.h"
#include "extract/Manifest.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Manifest, ReadsLaunchSurfaceEntries) {
  auto m = parseManifest(R"(arch: gfx950
source: kernels/gfx950/attention_dense.py
builder: build_attention_dense
kmd_fields:
  - name: head_size
    type: int
    default_value: 128
launch_surface:
  - name: kernargs
    python_source: kernels/gfx950/attention_dense.py:build_attention_dense   the 8-arg form
    cpp_mirror: a/b/packs/Gfx950AttentionDenseNative.cpp
    kmd_fields: [ragged, seqlen_q]
    guard: >
      always eight
    test: a/b/TestGfx950AttentionDenseSignature.cpp
  - name: block
    python_source: kernels/gfx950/attention_dense.py
    cpp_mirror: a/b/packs/Geometry.hpp:attentionBlock
    guard: none
    test: none
)");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->surfaces.size(), 2u);
  EXPECT_EQ(m->surfaces[0].pythonPath, "kernels/gfx950/attention_dense.py");
  EXPECT_EQ(m->surfaces[0].pythonSymbol, "build_attention_dense");
  EXPECT_EQ(m->surfaces[0].cppSymbol, "");
  EXPECT_EQ(m->surfaces[0].testPath, "a/b/TestGfx950AttentionDenseSignature.cpp");
  EXPECT_EQ(m->surfaces[0].kmdFields, (std::vector<std::string>{"ragged", "seqlen_q"}));
  EXPECT_EQ(m->surfaces[1].pythonSymbol, "");
  EXPECT_EQ(m->surfaces[1].cppSymbol, "attentionBlock");
  EXPECT_EQ(m->surfaces[1].testPath, "");
  EXPECT_EQ(m->surfaces[1].guard, "");
  ASSERT_EQ(m->kmdFields.size(), 1u);
  EXPECT_EQ(m->kmdFields[0].defaultValue, "128");
}

TEST(Manifest, MalformedYamlNamesTheLine) {
  auto m = parseManifest("arch: gfx950\nlaunch_surface:\n  - name: [unclosed\n");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("line 4: end of sequence flow not found"), std::string_view::npos) << m.status();
}

TEST(Manifest, CommentOnlyEditKeepsTheFingerprint) {
  std::string a = "arch: gfx950\nlaunch_surface:\n  - name: grid\n";
  std::string b = "# profile\narch:   gfx950\nlaunch_surface:\n  - name: grid   # the grid\n";
  std::string c = "arch: gfx942\nlaunch_surface:\n  - name: grid\n";
  EXPECT_EQ(yamlValueFingerprint(a), yamlValueFingerprint(b));
  EXPECT_NE(yamlValueFingerprint(a), yamlValueFingerprint(c));
}

TEST(Descriptor, ReadsArchAndLaunches) {
  auto d = parseDescriptor("x/y.kdp.json", R"({"id":"1","arch":["gfx950"],"kernelDescriptors":[
    {"kernel_source":{"kind":"rocke","source":"kernels/gfx950/a.py","builder":"build_a"}},
    {"kernel_source":{"kind":"rocke","sources":[{"source":"kernels/gfx950/b.py","builder":"build_b"},
                                                {"source":"kernels/gfx950/b.py","builder":"build_b_reduce"}]},
     "arch":["gfx950"]}]})");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->type, "kdp");
  EXPECT_EQ(d->arch, std::vector<std::string>{"gfx950"});
  ASSERT_EQ(d->launches.size(), 3u);
  EXPECT_EQ(d->launches[2].builder, "build_b_reduce");
  EXPECT_EQ(d->ukdCount, 2u);
}

TEST(Descriptor, MalformedJsonIsAnErrorNotACrash) {
  FileFacts f = extractFile("d/x.kdp.json", "{\"arch\": [\"gfx950\",}");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.error.find("byte"), std::string::npos) << f.error;
}

TEST(Extract, InvalidUtf8IsReportedWithItsLine) {
  FileFacts f = extractFile("k/a.py", "x = 1\ny = '\xff'\n");
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.error.find("line 2"), std::string::npos) << f.error;
}

TEST(RealData, ParsesTheRealProfileAndKdp) {
  std::string shared = testing::sharedDir();
  if (shared.empty() || !std::filesystem::exists(shared + "/real-data")) {
    GTEST_SKIP() << "../shared/real-data is absent: real-file parsing not checked";
  }
  auto m = parseManifest(slurp(shared + "/real-data/gfx950_attention_dense.profile.yaml"));
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->arch, "gfx950");
  EXPECT_EQ(m->builder, "build_attention_dense");
  ASSERT_EQ(m->surfaces.size(), 4u);
  EXPECT_EQ(m->surfaces[3].name, "kernargs");
  EXPECT_EQ(m->surfaces[3].pythonSymbol, "build_attention_dense");
  EXPECT_EQ(m->surfaces[3].cppPath,
            "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/"
            "Gfx950AttentionDenseNative.cpp");
  EXPECT_EQ(m->kmdFields.size(), 12u);

  std::string kdpPath = shared + "/real-data/gfx950_attention_dense.kdp.trimmed.json";
  auto d = parseDescriptor("gfx950_attention_dense.kdp.json", slurp(kdpPath));
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->arch, std::vector<std::string>{"gfx950"});
  EXPECT_EQ(d->ukdCount, 4u);
  ASSERT_EQ(d->launches.size(), 4u);
  EXPECT_EQ(d->launches[0].source, "kernels/gfx950/attention_dense.py");
  EXPECT_EQ(d->launches[0].builder, "build_attention_dense");
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

// The real gfx950 dense profile (ROCm/rocm-libraries e712c086) names two mirror symbols in one
// folded cpp_mirror, and another entry's cpp_mirror ends in prose.
TEST(Manifest, CppMirrorNamingTwoSymbolsKeepsBoth) {
  auto m = parseManifest(R"(launch_surface:
  - name: applicability
    python_source: >-
      kernels/gfx950/attention_dense.py:supports_attention_dense (~457-467) -- a thin
      arch gate that RECONSTRUCTS the spec and reports its ValueError.
    cpp_mirror: >-
      dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp:gfx950AttentionDenseGraphMatches
      and kernelMatches
    test: none
  - name: spec_resolution
    python_source: dispatch/attention/gfx950.py:dense_spec_for_request
    cpp_mirror: >-
      dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp:prepare
      -- prepare() trusts persistent/num_persistent/ragged exactly as the KMD states
      them, and prepareAgain and more
    test: none
)");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->surfaces.size(), 2u);
  EXPECT_EQ(m->surfaces[0].cppSymbol, "gfx950AttentionDenseGraphMatches");
  EXPECT_EQ(m->surfaces[0].cppMoreSymbols, std::vector<std::string>{"kernelMatches"});
  EXPECT_EQ(m->surfaces[1].cppSymbol, "prepare");
  EXPECT_TRUE(m->surfaces[1].cppMoreSymbols.empty());
}

TEST(Manifest, MoreLocatorSymbolsReadsCommasAndStopsAtProse) {
  EXPECT_EQ(moreLocatorSymbols("a/B.cpp:f, g and h"), (std::vector<std::string>{"g", "h"}));
  EXPECT_EQ(moreLocatorSymbols("a/B.cpp:f and Handler::launch"), (std::vector<std::string>{"Handler::launch"}));
  EXPECT_TRUE(moreLocatorSymbols("a/B.cpp:f and prepare() trusts it").empty());
  EXPECT_TRUE(moreLocatorSymbols("a/B.cpp:f -- and g").empty());
  EXPECT_TRUE(moreLocatorSymbols("a/B.cpp and g").empty());  // no symbol first: prose
  EXPECT_TRUE(moreLocatorSymbols("a/B.cpp:f").empty());
}

}  // namespace
}  // namespace impact
