// libFuzzer target: what the persistent cache reads from disk, which another process, a damaged
// disk or a hostile user may have written. The first byte picks what the rest is:
//   0: an entry's payload, for the facts decoder (core/cache/FactsCodec);
//   1: a pack file, indexed and read by a DiskCache (header, index rows, entries);
//   2: a Python file whose facts are stored, flushed as a pack and loaded back: they must be equal.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "cache/DiskCache.h"
#include "cache/FactsCodec.h"
#include "extract/Extract.h"
#include "git/Snapshot.h"

namespace fs = std::filesystem;

namespace {
const std::string& cacheDir() {
  static const std::string dir = (fs::temp_directory_path() / ("impact-fuzz-cache-" + std::to_string(::getpid()))).string();
  return dir;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)cacheDir();  // made before the handler is registered, so destroyed after it runs
  std::atexit([] {
    std::error_code ec;
    fs::remove_all(cacheDir(), ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string kPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/a.py";
  switch (data[0] % 3) {
    case 0:
      (void)impact::decodeFacts(rest, kPath);
      break;
    case 1: {
      fs::remove_all(cacheDir());
      std::string folder;
      {
        impact::DiskCache probe(cacheDir());
        probe.store(kPath, impact::blobId("x"), impact::FileFacts{});
        probe.flush();  // makes the version folder; its pack is replaced by the input
        auto at = probe.locate(kPath, impact::blobId("x"));
        if (!at) std::abort();
        folder = fs::path(at->file).parent_path().string();
        fs::remove(at->file);
      }
      std::ofstream(folder + "/0000000000000000-1-0.pack", std::ios::binary) << rest;
      impact::DiskCache c(cacheDir());
      for (const auto& e : c.entries()) (void)e;
      (void)c.load(kPath, impact::blobId("x"));
      (void)c.load(kPath, impact::blobId(rest));
      c.trim();
      break;
    }
    case 2: {
      fs::remove_all(cacheDir());
      std::string id = impact::blobId(rest);
      impact::FileFacts facts = impact::extractFile(kPath, rest);
      {
        impact::DiskCache c(cacheDir());
        c.store(kPath, id, facts);
      }  // flushed on destruction
      impact::DiskCache c(cacheDir());
      auto back = c.load(kPath, id);
      if (!back || !(*back == facts)) std::abort();  // what was stored is what is read
      break;
    }
  }
  return 0;
}
