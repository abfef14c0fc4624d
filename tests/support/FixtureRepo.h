// Test fixtures: small git repositories laid out like the monorepo, built by the tests.
#pragma once

#include <string>
#include <vector>

namespace impact::testing {

struct RunResult {
  int exitCode = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs a shell command line; captures stdout and stderr separately.
RunResult run(const std::string& commandLine, const std::string& cwd = "");
std::string shellQuote(const std::string& s);

// A throwaway git repository in a fresh temp folder, removed on destruction.
class FixtureRepo {
 public:
  FixtureRepo();
  ~FixtureRepo();
  FixtureRepo(const FixtureRepo&) = delete;
  FixtureRepo& operator=(const FixtureRepo&) = delete;

  const std::string& dir() const { return dir_; }
  void write(const std::string& path, const std::string& content);
  std::string read(const std::string& path) const;
  // Replaces the first occurrence of `from` in the file with `to`; fails the test if absent.
  void replace(const std::string& path, const std::string& from, const std::string& to);
  void remove(const std::string& path);
  // git add -A && git commit; returns the new commit id.
  std::string commit(const std::string& message);
  // Runs `git ARGS` in the repository; fails the test on a non-zero exit. Returns stdout.
  std::string git(const std::string& args);
  // 1-based line of the first line containing `needle` in the file.
  int lineOf(const std::string& path, const std::string& needle) const;

 private:
  std::string dir_;
};

// The bundled example monorepo (examples/monorepo) committed on main, with a branch
// `feature` checked out at the same commit: each scenario edits it and commits or not.
class MonorepoFixture : public FixtureRepo {
 public:
  MonorepoFixture();
  static constexpr const char* kAttention =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
  static constexpr const char* kRmsNorm =
      "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/rms_norm.py";
  static constexpr const char* kAttentionPack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp";
  static constexpr const char* kRmsNormPack =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950RmsNormNative.cpp";
  static constexpr const char* kAttentionPin =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950AttentionDenseSignature.cpp";
  static constexpr const char* kRmsNormPin =
      "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
      "TestGfx950RmsNormSignature.cpp";
  static constexpr const char* kProfile =
      "projects/hipdnn/tools/IngestorGenerator/configs/gfx950_attention_dense.profile.yaml";
  // The sliding-window change (examples/sliding-window.patch): three new builder arguments
  // (window_left, window_right, softcap); the pack's list and launch call following them.
  void addSlidingWindowToBuilder();
  void addSlidingWindowToPack();
};

std::string exampleDir();

// Runs build/bin/impact with the arguments; cwd defaults to the fixture.
RunResult impact(const std::string& args, const std::string& cwd = "");

// The shared/ folder beside the repository ("" when absent).
std::string sharedDir();

// The folder of the `impact` and `impactd` programs the tests run: $IMPACT_TEST_BIN_DIR when set
// (scripts/ci-sanitizers.sh runs this build's tests against the ThreadSanitizer build's programs,
// so that only the programs are built twice), else this build's bin folder.
const char* binDir();

}  // namespace impact::testing

#define IMPACT_BIN_DIR ::impact::testing::binDir()
