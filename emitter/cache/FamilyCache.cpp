#include "cache/FamilyCache.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "git/Snapshot.h"

namespace impact::emitter {

namespace fs = std::filesystem;

std::string familyCacheKey(const CacheKeyInput& in) {
  nlohmann::json j = {{"closure", in.closureBlobs}, {"variants", in.variants}, {"source", in.source},
                      {"builder", in.builder},      {"flavor", in.flavor},     {"driver", in.driverVersion},
                      {"probe", in.probe}};
  return blobId(j.dump());
}

std::optional<nlohmann::json> FamilyCache::get(const std::string& key) const {
  std::ifstream in(fs::path(dir_) / (key + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return nlohmann::json::parse(ss.str());
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a damaged entry is rebuilt
  }
}

void FamilyCache::put(const std::string& key, const nlohmann::json& answer) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  fs::path tmp = fs::path(dir_) / (key + ".tmp" + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary);
    out << answer.dump();
    if (!out) return;
  }
  fs::rename(tmp, fs::path(dir_) / (key + ".json"), ec);
}

}  // namespace impact::emitter
