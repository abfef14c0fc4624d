#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "model/LayoutConfig.h"

namespace impact {
namespace {

TEST(LayoutConfig, OverridesOnlyTheKeysGiven) {
  auto l = layoutFromYaml(R"(
provider_root: vendor/hkp/
library_root: vendor/hkp/rocke/library
python_roots: [vendor/hkp/rocke]
packs_dir: vendor/hkp/src/packs
)");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->providerRoot, "vendor/hkp");
  EXPECT_EQ(l->libraryPath("kernels/gfx950/a.py"), "vendor/hkp/rocke/library/kernels/gfx950/a.py");
  EXPECT_EQ(l->pythonRoots, std::vector<std::string>{"vendor/hkp/rocke/"});
  EXPECT_EQ(l->packsDir, "vendor/hkp/src/packs/");
  EXPECT_EQ(l->cppRoots, Layout{}.cppRoots) << "keys not given keep the monorepo's defaults";
  EXPECT_TRUE(l->analysed("vendor/hkp/rocke/library/kernels/gfx950/a.py"));
  EXPECT_FALSE(l->analysed("dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/a.py"));
}

TEST(LayoutConfig, ErrorsNameTheLineAndTheKey) {
  auto unknown = layoutFromYaml("provider_root: a\nlibary_root: b\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "line 2: unknown key 'libary_root'");
  auto notList = layoutFromYaml("cpp_roots: src/\n");
  ASSERT_FALSE(notList.ok());
  EXPECT_EQ(notList.status().message(), "line 1: cpp_roots must be a list of paths");
  auto table = layoutFromYaml("generic_target_table: targets.json\n");
  EXPECT_FALSE(table.ok());
  EXPECT_FALSE(layoutFromYaml("a: [unclosed\n").ok());
  EXPECT_TRUE(layoutFromYaml("").ok()) << "an empty file keeps every default";
}

// The folder scope of a snapshot (Layout::mayHoldAnalysed) keeps every folder on the way to an
// analysed file, of every kind analysed() accepts, with the default and a configured layout, and
// leaves a monorepo's other projects out.
TEST(LayoutConfig, FolderScopeKeepsEveryFolderOfAnAnalysedFile) {
  auto configured = layoutFromYaml("python_roots: [vendor/hkp/rocke]\ncpp_roots: [vendor/hkp/src/]\n"
                                   "descriptor_roots: [vendor/hkp/]\n");
  ASSERT_TRUE(configured.ok()) << configured.status();
  const std::vector<std::string> paths = {
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention.py",
      // a builder in the platform package, named by profiles through ../platform/python/...
      "dnn-providers/hip-kernel-provider/rocke/platform/python/rocke/instances/common/conv_implicit_gemm.py",
      "dnn-providers/hip-kernel-provider/descriptor-packaging/python/pack.py",
      "dnn-providers/hip-kernel-provider/descriptor-packaging/generic_targets.json",
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950Dense.cpp",
      "dnn-providers/hip-kernel-provider/ukds/gfx950/attention.json",
      "dnn-providers/hip-kernel-provider/CMakeLists.txt",
      "projects/hipdnn/plugin_sdk/include/hipdnn_plugin_sdk/KernelArgument.hpp",
      "projects/hipdnn/plugin_sdk/CMakeLists.txt",
      "projects/hipdnn/tools/IngestorGenerator/configs/attention.yaml",
      "projects/hipdnn/data_sdk/include/graph_generated.h",
      "projects/hipdnn/tests/test_categories.txt",
      ".github/workflows/hipdnn-ci.yml",
      "vendor/hkp/rocke/library/kernels/a.py",
      "vendor/hkp/src/packs/A.cpp",
      "vendor/hkp/ukds/a.json",
      "projects/rocblas/library/src/blas1.cpp",
      "projects/other/CMakeLists.txt",
      "shared/tensile/x.py",
  };
  for (const Layout& layout : {Layout{}, *configured}) {
    size_t analysed = 0;
    for (const auto& p : paths) {
      if (!layout.analysed(p)) continue;
      ++analysed;
      for (size_t slash = p.find('/'); slash != std::string::npos; slash = p.find('/', slash + 1))
        EXPECT_TRUE(layout.mayHoldAnalysed(p.substr(0, slash + 1))) << p.substr(0, slash + 1) << " of " << p;
    }
    EXPECT_GE(analysed, 3u);
    EXPECT_FALSE(layout.mayHoldAnalysed("projects/rocblas/"));
    EXPECT_FALSE(layout.mayHoldAnalysed("shared/"));
    EXPECT_TRUE(layout.mayHoldAnalysed("projects/")) << "on the way to projects/hipdnn/";
  }
  EXPECT_FALSE(Layout{}.mayHoldAnalysed("vendor/"));
  EXPECT_TRUE(configured->mayHoldAnalysed("vendor/hkp/rocke/library/"));
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

// Profiles write python_source relative to rocke/library and climb out of it for builders of the
// platform package (the real gfx950 conv fwd profile): the path resolves, and is analysed.
TEST(LayoutConfig, LibraryPathsThatClimbOutOfTheLibraryResolve) {
  Layout l;
  const std::string p = l.libraryPath("../platform/python/rocke/instances/common/conv_implicit_gemm.py");
  EXPECT_EQ(p, "dnn-providers/hip-kernel-provider/rocke/platform/python/rocke/instances/common/conv_implicit_gemm.py");
  EXPECT_TRUE(l.analysed(p));
  EXPECT_EQ(l.libraryPath("./kernels/./gfx950/../common/a.py"), "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/a.py");
  EXPECT_EQ(normalizedPath("a/../../b"), "../b") << "a climb above the first component is kept: no such file";
  // Paths already normal come back as they are; the others as the slow path makes them.
  for (auto [in, out] : std::vector<std::pair<std::string, std::string>>{
           {"a/b/", "a/b/"}, {"a/b.py", "a/b.py"}, {"/a/b", "a/b"}, {"a//b/", "a/b/"}, {"a/b//", "a/b/"},
           {"a/./b/.", "a/b"}, {"..a/b..", "..a/b.."}, {"", ""}})
    EXPECT_EQ(normalizedPath(in), out) << in;
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

// geometry: per family, a call-site expression -> the C++ expression that computes it.
TEST(LayoutConfig, GeometryDeclarationsAreReadPerFamily) {
  auto l = layoutFromYaml(R"yaml(
geometry:
  gfx950_conv_fwd:
    "matched->geometry": "deriveGeometry(problem).value()"
    problem.seqLenQ: {metadata: seqlen_q}
)yaml");
  ASSERT_TRUE(l.ok()) << l.status();
  EXPECT_EQ(l->geometryDeclarations.at("gfx950_conv_fwd").at("matched->geometry"), "deriveGeometry(problem).value()");
  EXPECT_EQ(l->geometryMetadata.at("gfx950_conv_fwd").at("problem.seqLenQ"), "seqlen_q");
  EXPECT_EQ(l->geometryDeclarations.at("gfx950_conv_fwd").count("problem.seqLenQ"), 0u);
  for (const char* text : {"geometry:\n  gfx950_conv_fwd: [a, b]\n", "geometry: [a]\n", "geometry: x\n",
                           "geometry:\n  f:\n    e: [1]\n", "geometry:\n  [f]: {e: x}\n",
                           "geometry:\n  f:\n    e: {metadata: [k]}\n", "geometry:\n  f:\n    e: {meta: k}\n",
                           "geometry:\n  f:\n    e: {metadata: k, other: j}\n"}) {
    auto bad = layoutFromYaml(text);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_NE(std::string(bad.status().message()).find("geometry maps a family"), std::string::npos) << bad.status();
  }
}

}  // namespace
}  // namespace impact
