#include "support/EmitFixture.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace impact::testing {

namespace fs = std::filesystem;

EmitFixture::EmitFixture(const std::string& from) {
  fs::path src = from.empty() ? fs::path(exampleDir()) / "rocke-platform" : fs::path(from);
  fs::copy(src, dir(), fs::copy_options::recursive);
  commit("rocKE fixture platform");
  git("checkout -q -b feature");
  char tmpl[] = "/tmp/impact-emit-cache-XXXXXX";
  root_ = ::mkdtemp(tmpl);
  cache_ = root_ + "/cache";
}

EmitFixture::~EmitFixture() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

RunResult EmitFixture::emit(const std::string& extra, const std::string& envPrefix) {
  return run(envPrefix + " " + shellQuote(std::string(IMPACT_BIN_DIR) + "/impact") + " emit --repo " +
             shellQuote(dir()) + " --base main --head feature --cache " + shellQuote(cache_) + " --out " +
             shellQuote(docPath()) + " " + extra);
}

RunResult EmitFixture::emitEdit(const std::string& path, const std::string& from, const std::string& to,
                                const std::string& message, const std::string& extra) {
  replace(path, from, to);
  commit(message);
  return emit(extra);
}

nlohmann::json EmitFixture::doc() const {
  std::ifstream in(docPath());
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str(), nullptr, false);
}

RunResult EmitFixture::report(const std::string& extra) {
  return impact("report --repo " + shellQuote(dir()) + " --base main --head feature --emit " + shellQuote(docPath()) +
                " " + extra);
}

const nlohmann::json* EmitFixture::family(const nlohmann::json& doc, const std::string& source) const {
  if (!doc.contains("families")) return nullptr;
  for (const auto& f : doc["families"])
    if (f["source"] == source) return &f;
  return nullptr;
}

void EmitFixture::addUkd(const std::string& name, const std::string& kernelSource) {
  replace(kKdp, "    {\"version\": 1, \"id\": \"legacy_hip\"",
          "    {\"version\": 1, \"id\": \"" + name + "\", \"name\": \"" + name + "\", \"kernel_source\": " +
              kernelSource + "},\n    {\"version\": 1, \"id\": \"legacy_hip\"");
}

void EmitFixture::refactorScale() {
  git("apply " + shellQuote((fs::path(exampleDir()) / "emitter-refactor.patch").string()));
}

}  // namespace impact::testing
