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
  c.flush();
  auto back = c.load("k/a.py", id);
  ASSERT_TRUE(back);
  EXPECT_TRUE(*back == f);
  // Extraction reads the path too: the same content elsewhere is not served this entry.
  EXPECT_FALSE(c.load("k/b.py", id));
  EXPECT_NE(DiskCache::entryKey("d/x.ukd.json", id), DiskCache::entryKey("d/x.kdp.json", id));
  EXPECT_NE(DiskCache::entryKey("rocke/aot_catalog/gfx950/a/family.json", id),
            DiskCache::entryKey("rocke/aot_catalog/gfx950/b/family.json", id));
  EXPECT_EQ(c.stats().hits, 1u);
  EXPECT_EQ(c.stats().writes, 1u);
  // Another process (another instance) reads it from the pack.
  DiskCache other(dir_.string());
  auto again = other.load("k/a.py", id);
  ASSERT_TRUE(again);
  EXPECT_TRUE(*again == f);
}

// A run's entries are written as one file: a cold run creates one pack, not a file per entry.
TEST_F(DiskCacheTest, ARunsEntriesAreOnePack) {
  std::vector<std::string> ids;
  {
    DiskCache c(dir_.string());
    for (int i = 0; i < 300; ++i) {
      ids.push_back(blobId("def f" + std::to_string(i) + "(): pass\n"));
      c.store("k/f" + std::to_string(i) + ".py", ids.back(), extractFile("k/a.py", kPy));
    }
    c.flush();
    EXPECT_EQ(c.stats().writes, 300u);
  }
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
  DiskCache c(dir_.string());
  EXPECT_EQ(c.entries().size(), 300u);
  for (int i = 0; i < 300; i += 37) EXPECT_TRUE(c.load("k/f" + std::to_string(i) + ".py", ids[i])) << i;
}

TEST_F(DiskCacheTest, ACorruptOrTruncatedEntryIsAMissAndIsRewritten) {
  std::string id = blobId(kPy);
  FileFacts f = extractFile("k/a.py", kPy);
  for (int damage = 0; damage < 4; ++damage) {
    fs::remove_all(dir_);
    DiskCache c(dir_.string());
    c.store("k/a.py", id, f);
    c.flush();
    auto at = c.locate("k/a.py", id);
    ASSERT_TRUE(at) << damage;
    if (damage == 0) {
      fs::resize_file(at->file, at->offset + at->length / 2);  // truncated
    } else {
      std::fstream io(at->file, std::ios::in | std::ios::out | std::ios::binary);
      if (damage == 1) {  // a flipped byte in the payload
        io.seekg(static_cast<std::streamoff>(at->offset + at->length - 3));
        char ch = static_cast<char>(io.get());
        io.seekp(static_cast<std::streamoff>(at->offset + at->length - 3));
        io.put(static_cast<char>(ch ^ 0x5a));
      } else if (damage == 2) {  // only the magic
        io.seekp(static_cast<std::streamoff>(at->offset + 8));
        io << std::string(at->length - 8, '\0');
      } else {  // the pack's index
        io.seekp(30);
        io.put('\x7f');
      }
    }
    DiskCache reader(dir_.string());
    EXPECT_FALSE(reader.load("k/a.py", id)) << damage;
    EXPECT_EQ(reader.stats().corrupt, 1u) << damage;
    // The extraction cache above it extracts and writes the entry again, to a newer pack.
    ExtractCache mem;
    auto shared = std::make_shared<DiskCache>(dir_.string());
    mem.setStore(shared);
    auto got = mem.get("k/a.py", id, [&]() -> absl::StatusOr<std::string> { return std::string(kPy); });
    mem.flush();
    EXPECT_EQ(mem.extractions(), 1u);
    EXPECT_EQ(shared->stats().writes, 1u);
    DiskCache next(dir_.string());
    auto again = next.load("k/a.py", id);
    ASSERT_TRUE(again) << damage;
    EXPECT_TRUE(*again == f);
    EXPECT_EQ(next.stats().corrupt, damage == 3 ? 1u : 0u) << "the newer pack wins; a damaged index is skipped";
  }
}

TEST_F(DiskCacheTest, ManyThreadsWritingAndReadingOneEntryNeverSeeAPartOfIt) {
  std::string id = blobId(kPy);
  FileFacts f = extractFile("k/a.py", kPy);
  DiskCache c(dir_.string());
  std::atomic<int> bad{0}, seen{0}, writersDone{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      DiskCache other(dir_.string());  // another reader, as another process would be
      // A reader reads until every writer is done, then once more (a loaded machine may run a
      // reader's hundred loads before any writer's first store: it must still see the entry).
      for (int i = 0; t % 2 ? i < 100 : (i < 100 || writersDone.load() < 4); ++i) {
        if (t % 2) {
          c.store("k/a.py", id, f);
          c.flush();  // a pack each: the packs are merged as they pile up
        } else if (auto got = (t % 4 ? c : other).load("k/a.py", id)) {
          ++seen;
          if (!(*got == f)) ++bad;
        }
      }
      if (t % 2) {
        ++writersDone;
      } else if (auto got = (t % 4 ? c : other).load("k/a.py", id)) {  // once more, every store made
        ++seen;
        if (!(*got == f)) ++bad;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(c.stats().corrupt, 0u);
  EXPECT_GT(seen.load(), 0);
  // No temp file is left behind, and merging kept the packs few.
  size_t packs = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
    packs += e.path().extension() == ".pack";
  }
  EXPECT_LE(packs, 25u);
  EXPECT_TRUE(DiskCache(dir_.string()).load("k/a.py", id));
}

TEST_F(DiskCacheTest, TrimKeepsTheBoundRemovingTheLeastRecentlyUsedAndStaleTempFiles) {
  // A bound of 4 packs' worth; 10 packs of one entry written, the first ones made older. (Each
  // write is over a tenth of the bound, so the writes trim as they go as well.)
  FileFacts f = extractFile("k/a.py", kPy);
  uint64_t packSize = 0;
  {
    DiskCache probe(dir_.string());
    probe.store("k/a.py", blobId("probe"), f);
    probe.flush();
    packSize = fs::file_size(probe.locate("k/a.py", blobId("probe"))->file);
  }
  fs::remove_all(dir_);

  DiskCache c(dir_.string(), packSize * 4);
  std::vector<std::string> ids;
  auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 10; ++i) {
    ids.push_back(blobId("content " + std::to_string(i)));
    c.store("k/a.py", ids.back(), f);
    c.flush();
    fs::last_write_time(c.locate("k/a.py", ids.back())->file, now - std::chrono::hours(10 - i));
  }
  // What a writer killed mid-write leaves: a temp file, stale after ten minutes.
  std::string stale = c.locate("k/a.py", ids[9])->file + ".tmp.999999.0";
  std::ofstream(stale) << "half a pack";
  fs::last_write_time(stale, now - std::chrono::hours(1));
  std::string fresh = c.locate("k/a.py", ids[9])->file + ".tmp.999999.1";
  std::ofstream(fresh) << "being written";

  auto r = c.trim();
  EXPECT_LE(r.bytesAfter, packSize * 4);
  EXPECT_GE(r.removed, 1u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // a live writer's file is left alone
  // The newest entries stay, the oldest went (for this process and the next).
  for (DiskCache* reader : {&c, std::make_unique<DiskCache>(dir_.string()).release()}) {
    EXPECT_TRUE(reader->load("k/a.py", ids[9]));
    EXPECT_TRUE(reader->load("k/a.py", ids[8]));
    EXPECT_FALSE(reader->load("k/a.py", ids[0]));
    EXPECT_FALSE(reader->load("k/a.py", ids[1]));
    if (reader != &c) delete reader;
  }
}

TEST_F(DiskCacheTest, AFolderThatCannotBeWrittenIsOnlyAMiss) {
  fs::create_directories(dir_);
  std::ofstream(dir_ / "facts-x") << "a file where a folder would go";
  DiskCache c((dir_ / "facts-x").string());
  std::string id = blobId(kPy);
  c.store("k/a.py", id, extractFile("k/a.py", kPy));
  c.flush();
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
