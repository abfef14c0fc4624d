// The emitter's cache of family results (SPEC R4): one driver answer per family and revision,
// keyed by the blob ids of the family's module closure and of the data files below the import
// roots, its variants (names, targets, specs), the LLVM flavor and the driver's version. A second
// run after a one-file edit rebuilds only the families whose closure holds that file.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace impact::emitter {

struct CacheKeyInput {
  std::map<std::string, std::string> closureBlobs;  // path -> blob id (modules and data files)
  nlohmann::json variants;                          // [{name, arch, spec}]
  std::string source, builder, flavor, driverVersion;
  bool probe = false;
};

std::string familyCacheKey(const CacheKeyInput& in);

class FamilyCache {
 public:
  explicit FamilyCache(std::string dir) : dir_(std::move(dir)) {}
  std::optional<nlohmann::json> get(const std::string& key) const;
  void put(const std::string& key, const nlohmann::json& answer) const;

 private:
  std::string dir_;  // <cache>/families
};

}  // namespace impact::emitter
