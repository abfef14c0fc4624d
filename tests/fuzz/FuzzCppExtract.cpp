// libFuzzer target: the C++ extractor from raw bytes, through the public entry point
// extractFile(path, content): a pack source, then the same bytes as a header.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/Extract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view content(reinterpret_cast<const char*>(data), size);
  impact::extractFile("dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/FuzzNative.cpp", content);
  impact::extractFile("dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/FuzzGeometry.hpp", content);
  return 0;
}
