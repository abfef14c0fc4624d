// libFuzzer target: the YAML readers of the configs folder from raw bytes: the launch-surface
// manifest (*.profile.yaml: parseManifest) and the generator config (<slug>.yaml:
// parseGeneratorConfig), the value fingerprint, and the whole extraction of each (extractFile).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/Extract.h"
#include "extract/GeneratorConfig.h"
#include "extract/Manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view content(reinterpret_cast<const char*>(data), size);
  (void)impact::parseManifest(content);
  (void)impact::yamlValueFingerprint(content);
  impact::extractFile("projects/hipdnn/tools/IngestorGenerator/configs/fuzz.profile.yaml", content);
  (void)impact::parseGeneratorConfig(content);
  impact::extractFile("projects/hipdnn/tools/IngestorGenerator/configs/fuzz.yaml", content);
  return 0;
}
