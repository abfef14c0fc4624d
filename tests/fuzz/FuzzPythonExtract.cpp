// libFuzzer target: the Python extractor from raw bytes, through the public entry point
// extractFile(path, content) (a builder module under the kernels library).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "extract/Extract.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view content(reinterpret_cast<const char*>(data), size);
  impact::extractFile("dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/fuzz_kernel.py", content);
  return 0;
}
