// libFuzzer target: the descriptor reader from raw bytes. A first byte below 9 picks the
// descriptor type (KDP, UKD, KMD, UED, UMD, UDD, UHD, the generic-target table, an AOT catalog
// family) and is dropped; otherwise (a real file as it stands) the input is a KDP. The content
// goes through parseDescriptor and the whole extraction (extractFile).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "extract/Descriptor.h"
#include "extract/Extract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kPaths[] = {
      "descriptors/rocKE/k/k.kdp.json", "descriptors/rocKE/k/k.ukd.json", "descriptors/rocKE/k/k.kmd.json",
      "descriptors/rocKE/k/k.ued.json", "descriptors/rocKE/k/k.umd.json", "descriptors/rocKE/k/k.udd.json",
      "descriptors/rocKE/k/k.uhd.json", "descriptors/generic_targets.json",
      "rocke/aot_catalog/gfx950/attention/family.json"};
  size_t type = data[0];
  bool picked = type < sizeof(kPaths) / sizeof(kPaths[0]);
  std::string path = kPaths[picked ? type : 0];
  std::string_view content(reinterpret_cast<const char*>(data + picked), size - picked);
  (void)impact::parseDescriptor(path, content);
  impact::extractFile(path, content);
  (void)impact::jsonValueFingerprint(content);
  return 0;
}
