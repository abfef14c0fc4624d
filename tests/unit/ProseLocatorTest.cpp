// A launch_surface python_source written as prose (SPEC R2.4): the files and names it mentions are
// picked out and resolved; when none resolves, one note says so and no row claims a mismatch.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "extract/Extract.h"
#include "extract/Manifest.h"
#include "extract/ProseLocator.h"
#include "judge/Contracts.h"
#include "parse/Syntax.h"
#include "python/ModuleGraph.h"

namespace impact {
namespace {

using Strings = std::vector<std::string>;

TEST(ProseLocator, PicksOutFilesAndCodeNames) {
  auto m = proseMentions(
      "Two surfaces, not one (notes.md §2). (a) supports_tiled (attention_tiled.py:120-180), 9 decline rows;\n"
      "(b) TiledSpec.__post_init__ (:40-90), overwhelmingly flag policing; see also\n"
      "kernels/common/unified.py:_launch_meta and the 2D/3D gate, which is OURS. TiledSpec again.");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->files, (Strings{"attention_tiled.py", "kernels/common/unified.py"}));
  EXPECT_EQ(m->symbols, (Strings{"supports_tiled", "TiledSpec.__post_init__", "_launch_meta", "TiledSpec"}));
}

TEST(ProseLocator, ALocatorIsNoProse) {
  EXPECT_FALSE(proseMentions("kernels/gfx950/attention_tiled_2d.py (~1191-1230) -- EIGHTEEN b.param(...) slots"));
  EXPECT_FALSE(proseMentions("kernels/common/attention_unified.py:_get_2d_launch_meta (~4058-4103), branch B"));
  EXPECT_FALSE(proseMentions("  attention_tiled_2d.py:supports_tiled_2d"));
  // The real conv profile climbs out of rocke/library into the platform package.
  EXPECT_FALSE(proseMentions("../platform/python/rocke/instances/common/conv_implicit_gemm.py:build_implicit_gemm_conv"));
  auto none = proseMentions("Three surfaces, not one.");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->files.empty());
  EXPECT_TRUE(none->symbols.empty());
}

TEST(ProseLocator, ManifestKeepsProseOutOfThePathAndSymbol) {
  auto m = parseManifest(R"Y(
arch: gfx950
source: kernels/gfx950/attention_tiled.py
builder: build_tiled
launch_surface:
  - name: applicability
    python_source: >-
      Three surfaces, not one. (a) supports_tiled
      (attention_tiled.py:120-180); (b) TiledSpec.__post_init__ (:40-90).
    cpp_mirror: dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/G.cpp:matches
  - name: grid
    python_source: kernels/gfx950/attention_tiled.py:tiled_grid (~10-20) -- the grid
)Y");
  ASSERT_TRUE(m.ok()) << m.status();
  const SurfaceEntry& a = m->surfaces[0];
  EXPECT_TRUE(a.pythonProse);
  EXPECT_EQ(a.pythonPath, "");
  EXPECT_EQ(a.pythonSymbol, "");
  EXPECT_EQ(a.proseFiles, (Strings{"attention_tiled.py"}));
  EXPECT_EQ(a.proseSymbols, (Strings{"supports_tiled", "TiledSpec.__post_init__"}));
  const SurfaceEntry& g = m->surfaces[1];
  EXPECT_FALSE(g.pythonProse);
  EXPECT_EQ(g.pythonPath, "kernels/gfx950/attention_tiled.py");
  EXPECT_EQ(g.pythonSymbol, "tiled_grid");
}

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kModule = kLib + "kernels/gfx950/attention_tiled.py";
const std::string kPack = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950Tiled.cpp";
const std::string kProfile = "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_tiled.profile.yaml";

std::string profile(const std::string& prose) {
  return "arch: gfx950\nsource: kernels/gfx950/attention_tiled.py\nbuilder: build_tiled\nlaunch_surface:\n"
         "  - name: applicability\n    python_source: >-\n      " + prose + "\n    cpp_mirror: " + kPack +
         ":tiledGraphMatches\n";
}

const char* kPython = R"PY(
class TiledSpec:
    block_m: int = 64

    def __post_init__(self):
        if self.block_m % 16:
            raise ValueError("block_m")


def supports_tiled(spec, *, arch):
    return spec.block_m in (32, 64), ""
)PY";

const char* kCpp = "bool tiledGraphMatches(int blockM) { return blockM == 32 || blockM == 64; }\n";

struct Side {
  TreeFacts facts;
  std::map<std::string, FileRef> refs;
  explicit Side(const std::map<std::string, std::string>& files) {
    for (const auto& [p, c] : files) {
      facts.files[p] = std::make_shared<const FileFacts>(extractFile(p, c));
      refs[p] = FileRef{std::to_string(fnv1a(c)), nullptr};
    }
  }
  Revision rev() const {
    return Revision{facts, [this](const std::string& p) -> const FileRef* {
                      auto it = refs.find(p);
                      return it == refs.end() ? nullptr : &it->second;
                    }, nullptr};
  }
};

ContractRows surfaces(const std::map<std::string, std::string>& before, const std::map<std::string, std::string>& after) {
  Side b(before), h(after);
  Layout layout;
  ModuleGraph bg(b.facts, layout), hg(h.facts, layout);
  ArchIndex ba(b.facts, layout, bg), ha(h.facts, layout, hg);
  return judgeLaunchSurfaces(JudgeContext{b.rev(), h.rev(), layout, bg, hg, ba, ha});
}

TEST(ProseLocator, ResolvedProseIsJudgedThroughTheNamesItMentions) {
  std::map<std::string, std::string> before = {
      {kModule, kPython}, {kPack, kCpp},
      {kProfile, profile("Two surfaces. (a) supports_tiled (attention_tiled.py:9-11); (b) TiledSpec.__post_init__.")}};
  auto after = before;
  after[kModule] = std::string(kPython).replace(std::string(kPython).find("(32, 64)"), 8, "(32, 64, 128)");
  ContractRows rows = surfaces(before, after);
  ASSERT_EQ(rows.rows.size(), 1u);
  const Row& r = rows.rows[0];
  EXPECT_EQ(r.status, Status::Changed) << r.message;
  EXPECT_EQ(r.python.path, kModule);
  EXPECT_EQ(r.python.symbol, "supports_tiled, TiledSpec.__post_init__");
  EXPECT_EQ(r.python.line, 10u);
  EXPECT_NE(r.message.find("python side changed: supports_tiled changed"), std::string::npos) << r.message;
  EXPECT_TRUE(rows.notes.empty());
}

TEST(ProseLocator, ProseThatResolvesNothingIsOneNoteNeverAMismatch) {
  std::map<std::string, std::string> before = {{kModule, kPython}, {kPack, kCpp}, {kProfile, profile("Three surfaces.")}};
  auto after = before;
  after[kProfile] = profile("Three surfaces, not one: missing_helper (gone.py:1-2).");
  ContractRows rows = surfaces(before, after);
  EXPECT_TRUE(rows.rows.empty()) << rows.rows[0].message;
  ASSERT_EQ(rows.notes.size(), 1u);
  EXPECT_EQ(rows.notes[0], "launch-surface:applicability in " + kProfile +
                               ": python_source is prose and none of the files or names it mentions resolves "
                               "(gone.py, missing_helper); its Python side is not checked");
}

}  // namespace
}  // namespace impact
