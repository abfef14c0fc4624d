// Bad input never crashes or hangs extraction: mutated copies of the example's real-style files
// (byte flips, cuts, splices, NULs, invalid UTF-8) must give facts, ok or not, with a reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "extract/Extract.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string mutate(const std::string& s, std::mt19937& rng) {
  std::string out = s;
  if (out.empty()) return out;
  std::uniform_int_distribution<size_t> pos(0, out.size() - 1);
  switch (rng() % 6) {
    case 0:  // flip bytes
      for (int i = 0; i < 8; ++i) out[pos(rng)] = static_cast<char>(rng() & 0xff);
      break;
    case 1:  // cut the tail
      out.resize(pos(rng));
      break;
    case 2: {  // drop a slice
      size_t a = pos(rng), b = pos(rng);
      if (a > b) std::swap(a, b);
      out.erase(a, b - a);
      break;
    }
    case 3: {  // duplicate a slice somewhere else
      size_t a = pos(rng), b = pos(rng);
      if (a > b) std::swap(a, b);
      out.insert(pos(rng), s.substr(a, std::min<size_t>(b - a, 4096)));
      break;
    }
    case 4:  // brackets and quotes
      for (int i = 0; i < 16; ++i) out.insert(pos(rng), 1, "{}[]()\"'#/\\\n"[rng() % 12]);
      break;
    default:  // a NUL or an invalid UTF-8 sequence
      out.insert(pos(rng), rng() % 2 ? std::string(1, '\0') : std::string("\xc3\x28"));
  }
  return out;
}

TEST(ExtractRobustness, MutatedSurfaceFilesGiveFactsNeverACrash) {
  fs::path root = fs::path(testing::exampleDir()) / "monorepo";
  // IMPACT_FUZZ_RUNS / IMPACT_FUZZ_SEED widen a local search; the suite runs 60 per file.
  const int perFile = std::getenv("IMPACT_FUZZ_RUNS") ? std::atoi(std::getenv("IMPACT_FUZZ_RUNS")) : 60;
  std::mt19937 rng(std::getenv("IMPACT_FUZZ_SEED") ? std::atoi(std::getenv("IMPACT_FUZZ_SEED")) : 20261202);
  size_t files = 0, runs = 0, unreadable = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    std::string rel = fs::relative(e.path(), root).string();
    if (classify(rel) == FileKind::Other) continue;
    ++files;
    std::string text = slurp(e.path());
    for (int i = 0; i < perFile; ++i, ++runs) {
      FileFacts f = extractFile(rel, mutate(text, rng));
      EXPECT_EQ(f.path, rel);
      if (!f.ok) {
        ++unreadable;
        EXPECT_FALSE(f.error.empty()) << rel << ": a file that cannot be read says why";
      }
    }
  }
  EXPECT_GE(files, 8u);
  EXPECT_GT(unreadable, 0u) << "the mutations should break some files";
  RecordProperty("runs", static_cast<int>(runs));
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

TEST(ExtractRobustness, DeeplyNestedFilesAreRefusedOrReadNeverACrash) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  FileFacts json = extractFile("d/rocKE/x/x.kdp.json", deep);
  EXPECT_FALSE(json.ok);
  EXPECT_EQ(json.error, "JSON nested deeper than 256 levels");
  FileFacts catalog = extractFile("dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/x/family.json", deep);
  EXPECT_FALSE(catalog.ok);
  FileFacts py = extractFile("dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/x.py",
                             "x = " + std::string(100000, '(') + std::string(100000, ')') + "\n");
  EXPECT_TRUE(py.builders.empty());
  FileFacts cpp = extractFile("dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/X.cpp",
                              "int x = " + std::string(100000, '{') + std::string(100000, '}') + ";\n");
  EXPECT_TRUE(cpp.lists.empty());
  FileFacts yaml = extractFile("projects/hipdnn/tools/IngestorGenerator/configs/x.profile.yaml",
                               "a: " + deep + "\n");
  EXPECT_FALSE(yaml.ok) << "a YAML document that deep is refused with the parser's reason";
}

}  // namespace
}  // namespace impact
