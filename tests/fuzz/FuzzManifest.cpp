// libFuzzer target: the launch-surface manifest reader (*.profile.yaml) from raw bytes:
// parseManifest, the value fingerprint, and the whole extraction (extractFile).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/Extract.h"
#include "extract/Manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view content(reinterpret_cast<const char*>(data), size);
  (void)impact::parseManifest(content);
  (void)impact::yamlValueFingerprint(content);
  impact::extractFile("projects/hipdnn/tools/IngestorGenerator/configs/fuzz.profile.yaml", content);
  return 0;
}
