#include "support/GeometryFixture.h"

#include <stdlib.h>

#include <filesystem>

namespace impact::testing {

namespace fs = std::filesystem;

void GeometryFixture::startRepo() {
  repo_ = std::make_unique<FixtureRepo>();
  char tmpl[] = "/tmp/impact-geometry-cache-XXXXXX";
  cache_ = ::mkdtemp(tmpl);
}

void GeometryFixture::ship(const std::string& message) {
  repo_->commit(message);
  repo_->git("checkout -q -b feature");
}

void GeometryFixture::TearDown() {
  std::error_code ec;
  if (!cache_.empty()) fs::remove_all(cache_, ec);
}

RunResult GeometryFixture::report(const std::string& env) const {
  return run("env " + env + " IMPACT_CACHE_DIR=" + shellQuote(cache_) + " " +
             shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " report --repo " + shellQuote(repo_->dir()) +
             " --base main --head feature --geometry --no-cache");
}

nlohmann::json rockeUkd(const std::string& name, const std::string& id, const std::string& source,
                        const std::string& builder, const nlohmann::json& spec, const nlohmann::json& metadata) {
  return {{"version", "1.0"},
          {"id", id},
          {"name", name},
          {"kernel_source", {{"kind", "rocke"}, {"source", source}, {"builder", builder}, {"spec", spec}}},
          {"metadata", metadata},
          {"priority", 0}};
}

}  // namespace impact::testing
