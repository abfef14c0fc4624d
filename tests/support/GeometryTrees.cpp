#include "support/GeometryTrees.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "support/GeometryFixture.h"

namespace impact::testing {

namespace fs = std::filesystem;
using namespace gfx942;

namespace {

// Six shipped variants: four on the default 3-D grid (every one with seqlen_q/block_m, the head
// count and the batch pairwise different, so a swap of any two grid axes shows), two persistent.
struct Shape {
  const char* dtype;
  int d, hq, hkv, b, s, bm;
  bool persistent;
};
constexpr Shape kShapes[] = {{"bf16", 128, 8, 8, 2, 512, 256, false},  {"bf16", 128, 16, 2, 1, 1024, 128, false},
                             {"fp16", 64, 16, 16, 4, 256, 64, false},  {"bf16", 128, 32, 8, 2, 4096, 256, true},
                             {"bf16", 64, 16, 4, 1, 8192, 128, true},  {"fp16", 128, 8, 8, 1, 768, 256, false}};

std::string kdpText() {
  nlohmann::json ukds = nlohmann::json::array();
  int i = 0;
  for (const Shape& s : kShapes) {
    std::string dt = s.dtype;
    std::string name = "attention_dense." + dt + "_d" + std::to_string(s.d) + "_hq" + std::to_string(s.hq) + "_kv" +
                       std::to_string(s.hkv) + "_b" + std::to_string(s.b) + "_s" + std::to_string(s.s) + "_bm" +
                       std::to_string(s.bm) + (s.persistent ? "_persist304" : "") + ".gfx942";
    nlohmann::json spec = {{"dtype", dt}, {"head_size", s.d}, {"num_query_heads", s.hq}, {"num_kv_heads", s.hkv},
                           {"causal", true}, {"batch", s.b}, {"seqlen_q", s.s}, {"seqlen_kv", s.s},
                           {"sliding_window", 0}, {"ragged", false}, {"varlen", false}, {"persistent", s.persistent},
                           {"block_n", 64}, {"waves_per_eu", 2}, {"lds_k_group_pad", 8}, {"interleave", false},
                           {"num_persistent", 304}, {"block_m", s.bm}, {"iglp", false}, {"lds_row_pad", 8}};
    nlohmann::json metadata = {{"dtype", dt == "bf16" ? "BF16" : "FP16"}, {"head_size", s.d}, {"num_query_heads", s.hq},
                               {"num_kv_heads", s.hkv}, {"seqlen_q", s.s}, {"seqlen_kv", s.s}, {"batch", s.b},
                               {"causal", 1}, {"block_n", 64}, {"block_m", s.bm}, {"waves_per_eu", 2},
                               {"persistent", s.persistent ? 1 : 0}, {"num_persistent", 304}, {"use_exp2_fast", -1}};
    ukds.push_back(rockeUkd(name, "7f3c9a1e-0000-4000-8000-00000000000" + std::to_string(i++),
                            "kernels/gfx942/attention_dense.py", "build_attention_dense", spec, metadata));
  }
  nlohmann::json kdp = {{"version", "1.0"}, {"id", "gfx942_attention_dense"}, {"name", "gfx942_attention_dense"},
                        {"matchers", {"hipkernel.gfx942_attention_dense.graph_match"}},
                        {"engine", "hipkernel:Gfx942AttentionDense"},
                        {"dispatch", "hipkernel.gfx942_attention_dense.dispatch"},
                        {"kernelDescriptors", ukds}, {"arch", {"gfx942"}}};
  return kdp.dump(1) + "\n";
}


}  // namespace

std::string realGfx942Missing() {
  std::string shared = sharedDir();
  if (shared.empty() || !fs::is_directory(shared + "/real-data/rocke-cpu") ||
      !fs::is_directory(shared + "/real-data/rocm-libraries"))
    return "shared/real-data is absent: the geometry differential is not checked on real files";
  return "";
}

void writeRealGfx942Family(FixtureRepo& repo) {
  std::string shared = sharedDir();
  fs::copy(shared + "/real-data/rocke-cpu", repo.dir(), fs::copy_options::recursive);
  for (const char* p : {kModule, kPack, kHeader, kProfile}) {
    fs::create_directories((fs::path(repo.dir()) / p).parent_path());
    fs::copy_file(shared + "/real-data/rocm-libraries/" + p, fs::path(repo.dir()) / p);
  }
  std::string lib = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx942/";
  repo.write(lib + "__init__.py", "# stub: not from the repository\n");
  repo.write(lib + "attention_tiled_2d.py",
             "# stub: not from the repository -- the two C-output lane maps attention_dense imports.\n"
             "def _mfma_32x32_c_row(b, lane, i):\n    raise NotImplementedError('stand-in')\n\n\n"
             "def _mfma_32x32_c_col(b, lane, i):\n    raise NotImplementedError('stand-in')\n");
  repo.write(kKdp, kdpText());
}

}  // namespace impact::testing
