// A tree not laid out like the monorepo: .impactd.yaml (or --config) says where things live.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

namespace fs = std::filesystem;

const char* kConfig = R"(# the monorepo under vendor/rocm
provider_root: vendor/rocm/dnn-providers/hip-kernel-provider
library_root: vendor/rocm/dnn-providers/hip-kernel-provider/rocke/library
python_roots: [vendor/rocm/dnn-providers/hip-kernel-provider/rocke]
cpp_roots: [vendor/rocm/dnn-providers/hip-kernel-provider/src]
manifest_roots: [vendor/rocm/projects/hipdnn/tools/IngestorGenerator/configs]
descriptor_roots: [vendor/rocm/dnn-providers/hip-kernel-provider]
import_roots:
  - vendor/rocm/dnn-providers/hip-kernel-provider/rocke/library
  - vendor/rocm/dnn-providers/hip-kernel-provider/rocke/platform/python
packs_dir: vendor/rocm/dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs
)";

// The example monorepo under vendor/rocm, with the sliding-window change on a branch.
void vendoredExample(FixtureRepo& repo) {
  fs::create_directories(fs::path(repo.dir()) / "vendor/rocm");
  fs::copy(fs::path(exampleDir()) / "monorepo", fs::path(repo.dir()) / "vendor/rocm", fs::copy_options::recursive);
  repo.commit("vendored monorepo");
  repo.git("checkout -q -b feature");
  repo.git("apply --directory=vendor/rocm " + shellQuote(exampleDir() + "/sliding-window.patch"));
  repo.commit("sliding window");
}

TEST(LayoutConfigScenarios, TheConfigAtTheRootMovesEveryPath) {
  FixtureRepo repo;
  vendoredExample(repo);
  RunResult plain = report(repo);
  EXPECT_EQ(lastLine(plain.out), "Runtime impact: N/A") << "with the default layout nothing is on the surface";
  repo.write(".impactd.yaml", kConfig);  // untracked: read from the work tree
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
  EXPECT_EQ(rowsWith(r.out, {"mismatch", "vendor/rocm/dnn-providers/hip-kernel-provider/src/tests/engines/"
                                         "kernel_ingestor_engine/packs/TestGfx950AttentionDenseSignature.cpp"})
                .size(),
            1u)
      << r.out;
}

TEST(LayoutConfigScenarios, ConfigOptionAndItsErrors) {
  FixtureRepo repo;
  vendoredExample(repo);
  std::string cfg = repo.dir() + "/../impact-layout-" + fs::path(repo.dir()).filename().string() + ".yaml";
  std::ofstream(cfg) << kConfig;
  RunResult r = report(repo, "--config " + shellQuote(cfg));
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out << r.err;
  std::ofstream(cfg) << "libary_root: x\n";
  RunResult bad = report(repo, "--config " + shellQuote(cfg));
  EXPECT_EQ(bad.exitCode, 3);
  EXPECT_NE(bad.err.find(cfg + ": line 1: unknown key 'libary_root'"), std::string::npos) << bad.err;
  fs::remove(cfg);
}

}  // namespace
}  // namespace impact::testing
