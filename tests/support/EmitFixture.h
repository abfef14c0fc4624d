// The emitter's fixture: examples/rocke-platform (a small rocKE platform package in the
// real API's shape, three families, a KDP) committed on main with `feature` checked out, and a
// private emitter cache. emit() runs `impact emit`, report() folds its document.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "support/FixtureRepo.h"

namespace impact::testing {

class EmitFixture : public FixtureRepo {
 public:
  // from: a folder copied into the repository (default: the rocke-platform fixture)
  explicit EmitFixture(const std::string& from = "");
  ~EmitFixture();

  static constexpr const char* kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
  static constexpr const char* kPlatform = "dnn-providers/hip-kernel-provider/rocke/platform/python/rocke/";
  static constexpr const char* kScale = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/scale.py";
  static constexpr const char* kKdp =
      "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_fixture/"
      "gfx950_fixture.kdp.json";

  const std::string& cacheDir() const { return cache_; }
  std::string docPath() const { return cache_ + "/../emit.json"; }
  // `impact emit --repo . --base main --head feature --cache C --out docPath() <extra>`
  RunResult emit(const std::string& extra = "", const std::string& envPrefix = "");
  // One edit of the head: `from` replaced with `to` in `path`, committed on feature as `message`,
  // then emit(extra).
  RunResult emitEdit(const std::string& path, const std::string& from, const std::string& to,
                     const std::string& message, const std::string& extra = "");
  nlohmann::json doc() const;
  // `impact report --repo . --base main --head feature --emit docPath() <extra>`
  RunResult report(const std::string& extra = "");
  const nlohmann::json* family(const nlohmann::json& doc, const std::string& source) const;
  // Adds a UKD (its kernel_source object as JSON text) to the KDP.
  void addUkd(const std::string& name, const std::string& kernelSource);

  // IR-preserving refactor of build_scale (examples/emitter-refactor.patch).
  void refactorScale();

 private:
  std::string root_, cache_;
};

}  // namespace impact::testing
