#include <gtest/gtest.h>

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

}  // namespace
}  // namespace impact
