// The persistent extraction cache: the facts codec round-trips the real files, and the disk
// cache survives corrupt entries, killed writers, many threads and its size bound.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cache/DiskCache.h"
#include "cache/FactsCodec.h"
#include "extract/Extract.h"
#include "git/Snapshot.h"

namespace impact {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every analysable file of a folder, with the repository path it is classified by.
std::vector<std::pair<std::string, std::string>> filesUnder(const fs::path& root, const std::string& prefix = "") {
  std::vector<std::pair<std::string, std::string>> out;
  if (!fs::is_directory(root)) return out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() == ".pyc") continue;
    std::string rel = prefix + fs::relative(e.path(), root).generic_string();
    // The trimmed real KDP is read as the KDP it was cut from.
    if (rel.ends_with(".kdp.trimmed.json")) rel = rel.substr(0, rel.size() - 17) + ".kdp.json";
    out.emplace_back(rel, slurp(e.path()));
  }
  return out;
}

void expectRoundTrip(const std::string& path, const std::string& content) {
  FileFacts f = extractFile(path, content);
  auto back = decodeFacts(encodeFacts(f), path);
  ASSERT_TRUE(back.ok()) << path << ": " << back.status();
  EXPECT_TRUE(*back == f) << path << ": the facts differ after a round trip";
}

TEST(FactsCodec, RealFilesRoundTripToEqualFacts) {
  fs::path real = fs::path(IMPACT_SHARED_DIR) / "real-data";
  if (!fs::is_directory(real)) GTEST_SKIP() << real << " is absent: real files not checked";
  auto files = filesUnder(real / "rocm-libraries");
  for (auto& f : filesUnder(real / "rocke-cpu")) files.push_back(std::move(f));
  files.emplace_back("projects/hipdnn/tools/IngestorGenerator/configs/gfx950_attention_dense.profile.yaml",
                     slurp(real / "gfx950_attention_dense.profile.yaml"));
  files.emplace_back("dnn-providers/hip-kernel-provider/descriptors/gfx950_attention_dense.kdp.json",
                     slurp(real / "gfx950_attention_dense.kdp.trimmed.json"));
  // What the files hold, so that the round trip is known to cover every part of the facts.
  size_t builders = 0, manifests = 0, descriptors = 0, defs = 0, imports = 0, constants = 0;
  for (const auto& [path, content] : files) {
    expectRoundTrip(path, content);
    FileFacts f = extractFile(path, content);
    builders += f.builders.size();
    manifests += f.manifest.has_value();
    descriptors += f.descriptor.has_value();
    defs += f.module.defs.size();
    imports += f.module.imports.size();
    constants += f.symbols.constants.size();
  }
  EXPECT_GT(files.size(), 40u);
  EXPECT_GT(builders, 0u);
  EXPECT_GT(manifests, 0u);
  EXPECT_GT(descriptors, 0u);
  EXPECT_GT(defs, 0u);
  EXPECT_GT(imports, 0u);
  EXPECT_GT(constants, 0u);
}

TEST(FactsCodec, ExampleFilesRoundTripToo) {
  // Descriptors of every type (UED/UMD symbols, KMD schema fields) and the kpack signature.
  auto files = filesUnder(fs::path(IMPACT_EXAMPLE_DIR) / "monorepo");
  ASSERT_GT(files.size(), 10u);
  size_t lists = 0, kmdFields = 0, descriptorSymbols = 0;
  for (const auto& [path, content] : files) {
    expectRoundTrip(path, content);
    FileFacts f = extractFile(path, content);
    lists += f.lists.size();
    kmdFields += f.symbols.kmdFields.size();
    descriptorSymbols += f.symbols.descriptorSymbols.size();
  }
  EXPECT_GT(lists, 0u);
  EXPECT_GT(kmdFields, 0u);
  EXPECT_GT(descriptorSymbols, 0u);
  // A file that does not parse keeps its error.
  expectRoundTrip("kernels/broken.py", "def f(:\n");
}

TEST(FactsCodec, BytesThatAreNoEncodingAreAnErrorNotACrash) {
  std::string good = encodeFacts(extractFile("a.py", "def build_x(spec):\n    return 1\n"));
  EXPECT_FALSE(decodeFacts("", "a.py").ok());
  EXPECT_FALSE(decodeFacts("not cbor at all", "a.py").ok());
  EXPECT_FALSE(decodeFacts(good.substr(0, good.size() / 2), "a.py").ok());
  EXPECT_TRUE(decodeFacts(good, "a.py").ok());
}

class DiskCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("impact-diskcache-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

const char* kPy = "def build_x(spec):\n    b = IRBuilder(\"x\")\n    b.param(\"a_ptr\", PtrType(F32, \"global\"))\n";

TEST_F(DiskCacheTest, StoredFactsLoadBackForTheirPathOnly) {
  DiskCache c(dir_.string());
  std::string id = blobId(kPy);
  EXPECT_FALSE(c.load("k/a.py", id));
  FileFacts f = extractFile("k/a.py", kPy);
  c.store("k/a.py", id, f);
  auto back = c.load("k/a.py", id);
  ASSERT_TRUE(back);
  EXPECT_TRUE(*back == f);
  // Extraction reads the path too: the same content elsewhere is not served this entry.
  EXPECT_FALSE(c.load("k/b.py", id));
  EXPECT_NE(c.entryPath("d/x.ukd.json", id), c.entryPath("d/x.kdp.json", id));
  EXPECT_NE(c.entryPath("rocke/aot_catalog/gfx950/a/family.json", id),
            c.entryPath("rocke/aot_catalog/gfx950/b/family.json", id));
  EXPECT_EQ(c.stats().hits, 1u);
  EXPECT_EQ(c.stats().writes, 1u);
}

TEST_F(DiskCacheTest, ACorruptOrTruncatedEntryIsAMissAndIsRewritten) {
  std::string id = blobId(kPy);
  FileFacts f = extractFile("k/a.py", kPy);
  for (int damage = 0; damage < 3; ++damage) {
    DiskCache c(dir_.string());
    c.store("k/a.py", id, f);
    std::string file = c.entryPath("k/a.py", id);
    std::string bytes = slurp(file);
    if (damage == 0) bytes.resize(bytes.size() / 2);        // truncated
    else if (damage == 1) bytes[bytes.size() - 3] ^= 0x5a;  // a flipped byte in the payload
    else bytes = "IMPACTFC";                                // only the magic
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    EXPECT_FALSE(c.load("k/a.py", id)) << damage;
    EXPECT_EQ(c.stats().corrupt, 1u) << damage;
    // The extraction cache above it extracts and writes the entry again.
    ExtractCache mem;
    auto shared = std::make_shared<DiskCache>(dir_.string());
    mem.setStore(shared);
    auto got = mem.get("k/a.py", id, [&]() -> absl::StatusOr<std::string> { return std::string(kPy); });
    EXPECT_EQ(mem.extractions(), 1u);
    EXPECT_EQ(shared->stats().writes, 1u);
    auto again = c.load("k/a.py", id);
    ASSERT_TRUE(again) << damage;
    EXPECT_TRUE(*again == f);
  }
}

TEST_F(DiskCacheTest, ManyThreadsWritingAndReadingOneEntryNeverSeeAPartOfIt) {
  std::string id = blobId(kPy);
  FileFacts f = extractFile("k/a.py", kPy);
  DiskCache c(dir_.string());
  std::atomic<int> bad{0}, seen{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        if (t % 2) c.store("k/a.py", id, f);
        else if (auto got = c.load("k/a.py", id)) {
          ++seen;
          if (!(*got == f)) ++bad;
        }
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(c.stats().corrupt, 0u);
  EXPECT_GT(seen.load(), 0);
  // No temp file is left behind.
  for (const auto& e : fs::recursive_directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

TEST_F(DiskCacheTest, TrimKeepsTheBoundRemovingTheLeastRecentlyUsedAndStaleTempFiles) {
  // A bound of 4 entries' worth; 10 entries written, the first ones made older. (Each write is
  // over a tenth of the bound, so the writes trim as they go as well.)
  FileFacts f = extractFile("k/a.py", kPy);
  DiskCache probe(dir_.string());
  probe.store("k/a.py", blobId("probe"), f);
  uint64_t entrySize = fs::file_size(probe.entryPath("k/a.py", blobId("probe")));
  fs::remove_all(dir_);

  DiskCache c(dir_.string(), entrySize * 4);
  std::vector<std::string> ids;
  auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 10; ++i) {
    ids.push_back(blobId("content " + std::to_string(i)));
    c.store("k/a.py", ids.back(), f);
    fs::last_write_time(c.entryPath("k/a.py", ids.back()), now - std::chrono::hours(10 - i));
  }
  // What a writer killed mid-write leaves: a temp file, stale after ten minutes.
  std::string stale = c.entryPath("k/a.py", ids[9]) + ".tmp.999999.0";
  std::ofstream(stale) << "half an entry";
  fs::last_write_time(stale, now - std::chrono::hours(1));
  std::string fresh = c.entryPath("k/a.py", ids[9]) + ".tmp.999999.1";
  std::ofstream(fresh) << "being written";

  auto r = c.trim();
  EXPECT_LE(r.bytesAfter, entrySize * 4);
  EXPECT_GE(r.removed, 1u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // a live writer's file is left alone
  // The newest entries stay, the oldest went.
  EXPECT_TRUE(c.load("k/a.py", ids[9]));
  EXPECT_TRUE(c.load("k/a.py", ids[8]));
  EXPECT_FALSE(c.load("k/a.py", ids[0]));
  EXPECT_FALSE(c.load("k/a.py", ids[1]));
}

TEST_F(DiskCacheTest, AFolderThatCannotBeWrittenIsOnlyAMiss) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "facts-x") << "a file where a folder would go";
  DiskCache c((dir_ / "facts-x").string());
  std::string id = blobId(kPy);
  c.store("k/a.py", id, extractFile("k/a.py", kPy));
  EXPECT_FALSE(c.load("k/a.py", id));
  EXPECT_EQ(c.stats().writeErrors, 1u);
}

TEST(DiskCacheDir, FollowsXdgCacheHomeThenHome) {
  std::string oldXdg = std::getenv("XDG_CACHE_HOME") ? std::getenv("XDG_CACHE_HOME") : "";
  std::string oldHome = std::getenv("HOME") ? std::getenv("HOME") : "";
  ::setenv("XDG_CACHE_HOME", "/x/cache", 1);
  ::setenv("HOME", "/home/u", 1);
  EXPECT_EQ(DiskCache::defaultDir(), "/x/cache/impactd");
  ::setenv("XDG_CACHE_HOME", "", 1);
  EXPECT_EQ(DiskCache::defaultDir(), "/home/u/.cache/impactd");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(DiskCache::defaultDir(), "/home/u/.cache/impactd");
  if (!oldXdg.empty()) ::setenv("XDG_CACHE_HOME", oldXdg.c_str(), 1);
  ::setenv("HOME", oldHome.c_str(), 1);
}

}  // namespace
}  // namespace impact
