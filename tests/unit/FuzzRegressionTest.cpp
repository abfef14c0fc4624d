// Inputs the fuzzers (tests/fuzz) found crashing, each with what the reader must now give.
// Under scripts/ci-sanitizers.sh (ASan) each would report the original memory error again.
#include <gtest/gtest.h>

#include "extract/Extract.h"
#include "extract/Manifest.h"

namespace impact {
namespace {

// FuzzManifest, heap-use-after-free in splitLocator: a launch-surface `test:` locator with a
// ":symbol" was split into its own path string, which the assignment freed while the symbol
// was still read from it.
TEST(FuzzRegression, ManifestTestLocatorWithASymbol) {
  const std::string yaml =
      "launch_surface:\n"
      "  - name: grid\n"
      "    python_source: kernels/gfx950/scale.py:scale_grid\n"
      "    cpp_mirror: dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ScaleGeometry.hpp\n"
      "    test: dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950ScaleGeometry.cpp:GridMatchesTheBuilder  and some prose\n";
  auto m = parseManifest(yaml);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->surfaces.size(), 1u);
  EXPECT_EQ(m->surfaces[0].testPath,
            "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/TestGfx950ScaleGeometry.cpp");
  // The same through the whole extraction.
  FileFacts f = extractFile("projects/hipdnn/tools/IngestorGenerator/configs/gfx950_scale.profile.yaml", yaml);
  EXPECT_TRUE(f.ok) << f.error;
  // And splitLocator into its own argument.
  std::string path = "a/b.cpp:Sym,", symbol;
  splitLocator(path, path, symbol);
  EXPECT_EQ(path, "a/b.cpp");
  EXPECT_EQ(symbol, "Sym");
}

}  // namespace
}  // namespace impact
