// Generator configs (core/extract/GeneratorConfig): the packs, the kernel source each pack's
// kernels are built from, the engine it serves and the expanded variant specs, in every form the
// real configs use (kernels:, variants: with knob sets, axes:), on hand-written configs and on the
// real gfx950 conv config of ../shared/real-data.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "extract/Extract.h"
#include "extract/GeneratorConfig.h"
#include "model/Layout.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const GeneratorVariant* variantNamed(const GeneratorSource& s, const std::string& name) {
  for (const auto& v : s.variants)
    if (v.name == name) return &v;
  return nullptr;
}

constexpr const char* kConfigs = "projects/hipdnn/tools/IngestorGenerator/configs/";

TEST(GeneratorConfig, ConfigsFolderYamlIsAGeneratorConfigAndIsAnalysed) {
  EXPECT_EQ(classify(std::string(kConfigs) + "gfx950_conv_fwd.yaml"), FileKind::GeneratorConfig);
  EXPECT_EQ(classify(std::string(kConfigs) + "gfx950_conv_fwd.profile.yaml"), FileKind::Manifest);
  EXPECT_EQ(classify(".github/workflows/hipdnn.yml"), FileKind::Other) << "a CI workflow stays what it was";
  EXPECT_EQ(classify(std::string(kConfigs) + "gfx950_conv_fwd.requests.json"), FileKind::Other);
  Layout l;
  EXPECT_TRUE(l.analysed(std::string(kConfigs) + "gfx950_wmma.yaml"));
  EXPECT_FALSE(l.analysed("somewhere/else/configs/x.yaml"));
}

TEST(GeneratorConfig, VariantGroupsCrossShapesWithTheirKnobSetArms) {
  auto c = parseGeneratorConfig(R"(
engine:
  name: hipkernel:Gfx950Widget
packs:
- name: widget
  arch: [gfx950]
  kernel_defaults:
    kind: rocke
    source: kernels/gfx950/widget.py
    builder: build_widget
    spec: {layout: NHWC}
  variants:
  - name: widget.{dtype}_t{tile}_{tag}
    spec_defaults: {use_sinks: false, tile: 64}
    knob_sets:
      two:
      - {tile: 64, tag: a}
      - {tile: 128, use_sinks: on, tag: b, metadata: {x: 1}}
    shapes:
    - {dtype: bf16, knobs: two, resolved: {y: 1}}
    - {dtype: fp16}
)");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->engine, "hipkernel:Gfx950Widget");
  ASSERT_EQ(c->sources.size(), 1u);
  const GeneratorSource& s = c->sources[0];
  EXPECT_EQ(s.pack, "widget");
  EXPECT_EQ(s.engine, "hipkernel:Gfx950Widget");
  EXPECT_EQ(s.kind, "rocke");
  EXPECT_EQ(s.source, "kernels/gfx950/widget.py");
  EXPECT_EQ(s.builder, "build_widget");
  EXPECT_EQ(s.arch, std::vector<std::string>{"gfx950"});
  EXPECT_EQ(s.line, 7u) << "the first line of kernel_defaults' mapping (0-based)";
  EXPECT_TRUE(s.incomplete.empty()) << s.incomplete;
  ASSERT_EQ(s.variants.size(), 3u) << "2 arms for the first shape, none named for the second";
  const GeneratorVariant* a = variantNamed(s, "widget.bf16_t64_a");
  const GeneratorVariant* b = variantNamed(s, "widget.bf16_t128_b");
  const GeneratorVariant* plain = variantNamed(s, "widget.fp16_t64_{tag}");
  ASSERT_TRUE(a && b && plain);
  EXPECT_EQ(a->spec, (std::map<std::string, std::string>{{"dtype", "bf16"}, {"layout", "NHWC"}, {"tile", "64"},
                                                         {"use_sinks", "false"}}));
  EXPECT_EQ(b->spec.at("use_sinks"), "true") << "a plain `on` is YAML 1.1's true, as the generator reads it";
  EXPECT_EQ(b->spec.at("tile"), "128");
  EXPECT_FALSE(b->spec.count("tag") || b->spec.count("metadata") || b->spec.count("knobs") || b->spec.count("resolved"));
}

TEST(GeneratorConfig, EnumeratedKernelsAndPerPackEngineAndPerGroupSources) {
  auto c = parseGeneratorConfig(R"(
engine: {name: "hipkernel:Top"}
packs:
- name: seg
  engine: hipkernel:Own
  arch: gfx950
  kernel_defaults: {kind: rocke, source: kernels/gfx950/a.py, builder: build_a, spec: {dtype: bf16}}
  kernels:
  - name: k.segment
    kernel_source: {kind: rocke, source: kernels/gfx950/a.py, builder: build_a, spec: {num_segments: 16, tag: 'on'}}
  - name: k.reduce
    kernel_source: {kind: rocke, source: kernels/gfx950/a.py, builder: build_a_reduce, spec: {num_segments: 16}}
  - name: k.second
    kernel_source: {spec: {num_segments: 8}}
- name: grouped
  kernel_defaults: {kind: rocke, source: kernels/gfx950/b.py, builder: build_b}
  variants:
  - name: g{n}
    source: kernels/gfx950/c.py
    builder: build_c
    arch: [gfx942]
    shapes: [{n: 1}, {n: 2}]
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->sources.size(), 3u);
  const GeneratorSource& a = c->sources[0];
  EXPECT_EQ(a.engine, "hipkernel:Own") << "a pack's own engine wins over the config's";
  EXPECT_EQ(a.builder, "build_a");
  EXPECT_EQ(a.arch, std::vector<std::string>{"gfx950"});
  ASSERT_EQ(a.variants.size(), 2u) << "k.segment and k.second (its kernel_source states no builder: the defaults')";
  EXPECT_EQ(a.variants[0].spec.at("dtype"), "bf16") << "kernel_defaults.spec is under every kernel";
  EXPECT_EQ(a.variants[0].spec.at("tag"), "on") << "a quoted 'on' is a string";
  EXPECT_EQ(a.variants[1].name, "k.second");
  EXPECT_EQ(a.variants[1].spec.at("num_segments"), "8");
  EXPECT_EQ(c->sources[1].builder, "build_a_reduce");
  EXPECT_EQ(c->sources[1].where, "packs[0].kernels[1].kernel_source");
  const GeneratorSource& g = c->sources[2];
  EXPECT_EQ(g.engine, "hipkernel:Top");
  EXPECT_EQ(g.source, "kernels/gfx950/c.py") << "a variant group's own source and builder";
  EXPECT_EQ(g.builder, "build_c");
  EXPECT_EQ(g.arch, std::vector<std::string>{"gfx942"});
  EXPECT_EQ(g.where, "packs[1].variants[0]");
  ASSERT_EQ(g.variants.size(), 2u);
  EXPECT_EQ(g.variants[1].name, "g2");
}

TEST(GeneratorConfig, AxesCrossTheirValuesOverTheTemplate) {
  auto c = parseGeneratorConfig(R"(
engine: {name: hipkernel:Axes}
packs:
- name: axes
  kernel_defaults: {kind: rocke, source: kernels/gfx942/d.py, builder: build_d, spec: {dtype: bf16}}
  axes:
    block_n: [64, 32]
    waves: [2, 4, 8]
    seqlen: [1, 2]
  kernel_template:
    name: d
    kernel_source:
      spec: {seqlen: 256}
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->sources.size(), 1u);
  const auto& vs = c->sources[0].variants;
  ASSERT_EQ(vs.size(), 6u) << "2 x 3; seqlen is pinned by the template";
  std::set<std::string> combos;
  for (const auto& v : vs) {
    EXPECT_EQ(v.spec.at("seqlen"), "256");
    EXPECT_EQ(v.spec.at("dtype"), "bf16");
    combos.insert(v.spec.at("block_n") + "/" + v.spec.at("waves"));
  }
  EXPECT_EQ(combos.size(), 6u);
}

TEST(GeneratorConfig, PartsThatCannotBeReadAreNamedAndTheRestIsRead) {
  auto c = parseGeneratorConfig(R"(
engine: {name: hipkernel:X}
packs:
- 17
- name: ok
  kernel_defaults: {kind: rocke, source: kernels/gfx950/a.py, builder: build_a}
  variants:
  - name: v
    shapes: [{n: 1, knobs: nowhere}, 3, {n: 2}]
- name: nothing
  kernel_defaults: {kind: rocke, source: kernels/gfx950/b.py, builder: build_b}
)");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->problems.size(), 3u);
  EXPECT_EQ(c->problems[0], "packs[0] is not a mapping");
  EXPECT_NE(c->problems[1].find("knob set nowhere"), std::string::npos) << c->problems[1];
  EXPECT_EQ(c->problems[2], "packs[1].variants[0].shapes[1] is not a mapping");
  ASSERT_EQ(c->sources.size(), 2u);
  EXPECT_EQ(c->sources[0].variants.size(), 1u);
  EXPECT_NE(c->sources[0].incomplete.find("knob set nowhere not found"), std::string::npos)
      << "a variant it could not expand makes the set incomplete";
  EXPECT_TRUE(c->sources[1].variants.empty());
  EXPECT_FALSE(c->sources[1].incomplete.empty());
}

TEST(GeneratorConfig, MalformedYamlIsAnErrorNamingTheLineNeverACrash) {
  auto bad = parseGeneratorConfig("packs:\n  - name: [unclosed\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("line "), std::string::npos) << bad.status();
  EXPECT_FALSE(parseGeneratorConfig("- a\n- b\n").ok()) << "a config is a mapping";
  auto notList = parseGeneratorConfig("packs: {a: 1}\n");
  ASSERT_FALSE(notList.ok());
  EXPECT_NE(std::string(notList.status().message()).find("packs is not a list"), std::string::npos);
  // Odd but well-formed shapes are read as far as they go.
  for (const char* odd : {"packs: [[], {kernel_defaults: 3}, {variants: 3}, {axes: [1]}, {kernels: {a: 1}}]\n",
                          "engine: [1, 2]\npacks:\n- {kernel_defaults: {source: [x], builder: {y: 1}}}\n",
                          "packs:\n- variants:\n  - {knob_sets: [1], shapes: [{knobs: 3}]}\n", "", "~\n"})
    EXPECT_TRUE(parseGeneratorConfig(odd).ok()) << odd;
  // Through extractFile: a file that does not read says so, with its line.
  FileFacts f = extractFile(std::string(kConfigs) + "broken.yaml", "packs:\n  - name: [unclosed\n");
  EXPECT_EQ(f.kind, FileKind::GeneratorConfig);
  EXPECT_FALSE(f.ok);
  EXPECT_NE(f.error.find("line "), std::string::npos) << f.error;
}

TEST(GeneratorConfig, CommentEditsKeepTheFingerprint) {
  const std::string path = std::string(kConfigs) + "x.yaml";
  const char* a = "engine: {name: hipkernel:X}\npacks:\n- name: p\n  kernel_defaults: {source: a.py, builder: b}\n";
  const char* b = "# a comment\nengine: {name: hipkernel:X}   # trailing\npacks:\n- name: p\n  kernel_defaults: {source: a.py, builder: b}\n";
  const char* c = "engine: {name: hipkernel:Y}\npacks:\n- name: p\n  kernel_defaults: {source: a.py, builder: b}\n";
  EXPECT_EQ(extractFile(path, a).fingerprint, extractFile(path, b).fingerprint);
  EXPECT_NE(extractFile(path, a).fingerprint, extractFile(path, c).fingerprint);
}

// The real gfx950 conv config: 3 variant groups (two implicit-GEMM, one direct) expand into the
// 118 kernels its KDP ships, with the KDP's names and specs.
TEST(GeneratorConfig, TheRealConvConfigExpandsToTheKernelsItsKdpShips) {
  std::string shared = testing::sharedDir();
  const std::string root = shared + "/real-data/rocm-libraries/";
  const std::string config = root + "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_conv_fwd.yaml";
  const std::string kdp = root +
                          "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/"
                          "gfx950_conv_fwd/gfx950_conv_fwd.kdp.json";
  if (shared.empty() || !std::filesystem::exists(config)) GTEST_SKIP() << "../shared/real-data is absent";
  auto c = parseGeneratorConfig(slurp(config));
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->problems.empty());
  ASSERT_EQ(c->sources.size(), 1u);
  const GeneratorSource& s = c->sources[0];
  EXPECT_EQ(s.engine, "hipkernel:Gfx950ConvFwd");
  EXPECT_EQ(s.source, "builders/common/convolution_forward.py");
  EXPECT_EQ(s.builder, "build_gfx950_conv_fwd");
  EXPECT_EQ(s.variants.size(), 118u);
  std::set<std::string> names;
  for (const auto& v : s.variants) names.insert(v.name);
  EXPECT_EQ(names.size(), 118u) << "every generated kernel has its own name";
  size_t direct = 0;
  for (const auto& v : s.variants) direct += v.spec.count("kernel_family") && v.spec.at("kernel_family") == "1";
  EXPECT_EQ(direct, 30u) << "group 3: 6 shapes x 2 arms, 2 x 2, 4 x 1, 4 x 2, 2 x 1 direct kernels";
  // The saved KDP holds the first 4 of the 118: each is a generated kernel, with its very spec.
  nlohmann::json j = nlohmann::json::parse(slurp(kdp));
  ASSERT_EQ(j["kernelDescriptors"].size(), 4u);
  for (const auto& ukd : j["kernelDescriptors"]) {
    const GeneratorVariant* v = variantNamed(s, ukd["name"].get<std::string>());
    ASSERT_NE(v, nullptr) << ukd["name"];
    std::map<std::string, std::string> want;
    for (const auto& [k, x] : ukd["kernel_source"]["spec"].items())
      want[k] = x.is_string() ? x.get<std::string>() : x.dump();
    EXPECT_EQ(v->spec, want) << ukd["name"];
  }
}

}  // namespace
}  // namespace impact
