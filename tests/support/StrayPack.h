// A pack no profile, KDP or generator config names, whose launch call shares no argument name
// with any builder of the bundled example: a copy that pairs with nothing (accounting tests).
#pragma once

namespace impact::testing {

inline constexpr const char* kStrayPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950StrayNative.cpp";
inline constexpr const char* kStrayText = R"CPP(#include <cstdint>
namespace hip_kernel_provider::kernel_ingestor_engine {
struct Kernel { template <class... A> void launch(void* stream, A... a) const; };
void launchStray(const Kernel& kernel, void* stream, const float* in, float* out, int32_t n)
{
    kernel.launch(stream, in, out, n);
}
} // namespace hip_kernel_provider::kernel_ingestor_engine
)CPP";

}  // namespace impact::testing
