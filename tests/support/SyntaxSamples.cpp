#include "support/SyntaxSamples.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace impact::testing {

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> realFilesWithExtension(const std::vector<std::string>& exts) {
  std::vector<fs::path> out;
  fs::path real = fs::path(IMPACT_SHARED_DIR) / "real-data";
  if (!fs::is_directory(real)) return out;
  for (auto& e : fs::recursive_directory_iterator(real))
    if (e.is_regular_file())
      for (auto& x : exts)
        if (e.path().extension() == x) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

const char* const kOwnCppShapes = R"cpp(
namespace ns {
constexpr const char* KIND = "global_buffer";
struct Outer {
  struct Inner { int a, b = 2; float* p; };
  static constexpr auto K = "x";
  void run(hipStream_t s, const Inner& in) {
    auto add = [&](const char* kind, uint32_t size) { args.push_back(KernelArgument{kind, size}); };
    add(KIND, 8);
    auto go = [&](int n) { kernel.launch(s, in.p, static_cast<int32_t>(n), 1.0F); };
    go(3);
    std::vector<KernelArgument> args{KernelArgument{"by_value", 4}};
    int x = 1, y, *z = nullptr;
  }
};
}  // namespace ns
void broken( { int q = ; kernel.launch(s, a, b);
)cpp";

}  // namespace impact::testing
