// libFuzzer target: the `.impactd.yaml` reader (layoutFromYaml) from raw bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/LayoutConfig.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)impact::layoutFromYaml(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
