#include "MonorepoGenerator.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace fs = std::filesystem;

namespace impact::bench {

namespace {
const std::string kHkp = "dnn-providers/hip-kernel-provider";
const std::string kLib = kHkp + "/rocke/library";
const std::string kPacks = kHkp + "/src/engines/kernel_ingestor_engine/packs";
const std::string kPins = kHkp + "/src/tests/engines/kernel_ingestor_engine/packs";
const std::string kDesc = kHkp + "/src/engines/kernel_ingestor_engine/descriptors/rocKE";

void write(const std::string& root, const std::string& path, const std::string& text) {
  fs::path p = fs::path(root) / path;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

void sh(const std::string& cmd) {
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("command failed: " + cmd);
}

std::string camel(int i) { return absl::StrCat("Gfx950Op", i); }

// Builder i declares 4 pointers and (4 + i % 5) scalars.
int scalarCount(int i) { return 4 + i % 5; }

std::string builderSource(int i, bool extra) {
  std::string s = absl::StrCat("\"\"\"gfx950 op ", i, ".\"\"\"\n\nfrom rocke.core.ir import F32, I32, IRBuilder, PtrType\n\n\n",
                               "def op_", i, "_grid(spec):\n    return (spec.m // 64, 1, 1)\n\n\n",
                               "def build_op_", i, "(spec, *, arch=\"gfx950\"):\n    b = IRBuilder(\"op_", i, "\")\n",
                               "    dtype = spec.dtype_ir\n");
  for (const char* p : {"a_ptr", "b_ptr", "c_ptr", "d_ptr"})
    absl::StrAppend(&s, "    b.param(\"", p, "\", PtrType(dtype, \"global\"), noalias=True)\n");
  for (int k = 0; k < scalarCount(i); ++k) absl::StrAppend(&s, "    b.param(\"s", k, "\", ", k % 2 ? "F32" : "I32", ")\n");
  if (extra) s += "    b.param(\"window_left\", I32)\n";
  s += "    if spec.use_bias:\n        b.param(\"bias_ptr\", PtrType(F32, \"global\"))\n    return b.finish()\n";
  // Padding: real kernel modules are long.
  for (int k = 0; k < 40; ++k) absl::StrAppend(&s, "\n\ndef _helper_", k, "(x):\n    return x * ", k, " + 1\n");
  return s;
}

std::string packSource(int i, bool extra = false) {
  std::string s = absl::StrCat(
      "// Copyright (c) Advanced Micro Devices, Inc.\n#include <vector>\n\nnamespace hipdnn_kernel_provider::ingestor\n{\n"
      "namespace\n{\nconstexpr auto PTR = static_cast<uint32_t>(sizeof(void*));\n"
      "constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));\nconstexpr auto F32 = static_cast<uint32_t>(sizeof(float));\n\n"
      "std::vector<KernelArgument> op", i, "KernelSignature()\n{\n    return {\n");
  int off = 0;
  for (const char* p : {"a_ptr", "b_ptr", "c_ptr", "d_ptr"}) {
    absl::StrAppend(&s, "        {\"global_buffer\", PTR, ", off, ", \"", p, "\"},\n");
    off += 8;
  }
  for (int k = 0; k < scalarCount(i); ++k) {
    absl::StrAppend(&s, "        {\"by_value\", ", k % 2 ? "F32" : "I32", ", ", off, ", \"s", k, "\"},\n");
    off += 4;
  }
  if (extra) absl::StrAppend(&s, "        {\"by_value\", I32, ", off, ", \"window_left\"},\n");
  s += "    };\n}\n} // namespace\n} // namespace hipdnn_kernel_provider::ingestor\n";
  return s;
}

std::string pinSource(int i) {
  std::string s = "#include <gtest/gtest.h>\n\nnamespace\n{\nstd::vector<KernelArgument> expectedSignature()\n{\n    return {\n";
  int off = 0;
  for (int k = 0; k < 4; ++k, off += 8) absl::StrAppend(&s, "        KernelArgument{\"global_buffer\", 8, ", off, ", \"\"},\n");
  for (int k = 0; k < scalarCount(i); ++k, off += 4)
    absl::StrAppend(&s, "        KernelArgument{\"by_value\", 4, ", off, ", \"\"},\n");
  absl::StrAppend(&s, "    };\n}\n} // namespace\n\nTEST(Test", camel(i), "Signature, Matches)\n{\n    EXPECT_EQ(expectedSignature().size(), ",
                  4 + scalarCount(i), "U);\n}\n");
  return s;
}
// A Python module of the rocKE tree that declares no kernel: 40 to 160 lines of classes,
// dataclasses and functions that call each other.
std::string pythonModule(int i) {
  std::string s = absl::StrCat("\"\"\"Module ", i, ": tiling and dispatch helpers.\"\"\"\n\nfrom __future__ import annotations\n\n",
                               "import math\nfrom dataclasses import dataclass, field\n\n",
                               "from rocke.core.ir import F32, I32\n\n\n@dataclass(frozen=True)\nclass Config", i, ":\n",
                               "    block_m: int = 64\n    block_n: int = 64\n    num_warps: int = 4\n",
                               "    stages: list = field(default_factory=lambda: [1, 2, ", i % 5 + 3, "])\n\n",
                               "    def tiles(self, m: int, n: int) -> int:\n",
                               "        return math.ceil(m / self.block_m) * math.ceil(n / self.block_n)\n\n\n",
                               "def choose_", i, "(m, n, k, *, dtype=\"bf16\"):\n    if m * n < 4096:\n",
                               "        return Config", i, "(32, 32, 2)\n    if k > 1024 and dtype in (\"bf16\", \"fp16\"):\n",
                               "        return Config", i, "(128, 64, 8)\n    return Config", i, "()\n");
  for (int k = 0; k < 4 + 3 * (i % 7); ++k)
    absl::StrAppend(&s, "\n\ndef rule_", k, "(spec, table={\"a\": ", k, ", \"b\": [", k, ", ", i, "]}):\n",
                    "    \"\"\"Rule ", k, ".\"\"\"\n    if getattr(spec, \"causal\", False):\n",
                    "        return choose_", i, "(spec.m, spec.n, spec.k + ", k, ")\n",
                    "    return [x * ", k, " for x in table[\"b\"] if x > ", k % 3, "]\n");
  return s;
}

// A C++ source or header of the provider or the plugin SDK: a class, tables in initializer
// lists, calls; 40 to 140 lines.
std::string cppSource(int i, bool header) {
  std::string s = absl::StrCat("// Copyright (c) Advanced Micro Devices, Inc. All rights reserved.\n",
                               header ? "#pragma once\n" : "", "#include <cstdint>\n#include <string>\n#include <vector>\n\n",
                               "namespace hipdnn_kernel_provider::part", i % 50, "\n{\n\nclass Stage", i, "\n{\npublic:\n",
                               "    explicit Stage", i, "(int n) : _n(n) {}\n",
                               "    int run(const std::vector<int>& xs) const\n    {\n        int s = 0;\n",
                               "        for(int x : xs)\n            s += x * _n;\n        return s;\n    }\n\n",
                               "private:\n    int _n;\n};\n\n");
  for (int k = 0; k < 3 + 2 * (i % 6); ++k)
    absl::StrAppend(&s, "inline std::vector<std::pair<std::string, int64_t>> table", i, "_", k, "()\n{\n",
                    "    return {{\"block_m\", ", 64 + k, "}, {\"block_n\", ", 32 + k, "}, {\"stage\", ", k, "}};\n}\n\n",
                    "inline int apply", i, "_", k, "(int x)\n{\n    auto t = Stage", i, "(x + ", k, ");\n",
                    "    return t.run({1, 2, ", k, "}) + static_cast<int>(table", i, "_", k, "().size());\n}\n\n");
  absl::StrAppend(&s, "} // namespace hipdnn_kernel_provider::part", i % 50, "\n");
  return s;
}

// A profile YAML (launch-surface manifest) of op i, in the real profiles' form (keys, nested
// bindings, KMD fields, folded prose), about 150 lines.
std::string profileYaml(int i, bool changed) {
  const char* fields[] = {"dtype", "head_size", "num_query_heads", "num_kv_heads", "causal", "ragged",
                          "sliding_window", "batch", "seqlen_q", "seqlen_kv", "block_m", "block_n"};
  std::string s = absl::StrCat("# Profile: gfx950 op ", i, "\n#\n# Drives dispatch_parity.py and knob_sweep.py.\n\n",
                               "arch: gfx950\nslug: gfx950_op_", i, "\nprovider_root: dnn-providers/hip-kernel-provider\n\n",
                               "source: kernels/gfx950/op_", i, ".py\nbuilder: build_op_", i, "\n\n",
                               "dispatch:\n  module: dispatch.op_", i, ".gfx950\n  function: spec_for_request\n\n",
                               "request:\n  module: dispatch.common\n  class: OpRequest\n  defaults:\n    arch: gfx950\n",
                               "    persistent: \"", changed ? "on" : "off", "\"\n\n",
                               "predicate:\n  module: kernels.gfx950.op_", i, "\n  function: supports_op_", i, "\n\n",
                               "metadata_fields:\n");
  for (const char* f : fields) absl::StrAppend(&s, "  - ", f, "\n");
  s += "\nspecialization:\n  metadata_fields:\n";
  for (const char* f : fields) absl::StrAppend(&s, "    - ", f, "\n");
  s += "  matcher_only_fields: []\n  vocabulary:\n    dtype:\n      bf16: BF16\n      fp16: FP16\n  bindings:\n";
  for (const char* f : fields) absl::StrAppend(&s, "    ", f, ":\n      field: ", f, "\n");
  absl::StrAppend(&s, "\ndialect: packaged\nauthored_subpath: rocKE/gfx950_op_", i, "\n\nengine:\n",
                  "  name: \"hipkernel:Gfx950Op", i, "\"\n  sdk_version: \"1.0.0\"\n  heuristic: native\n\nkmd_fields:\n");
  for (const char* f : fields)
    absl::StrAppend(&s, "  - name: ", f, "\n    type: ", std::string_view(f) == "dtype" ? "string" : "int\n    default_value: 64",
                    "\n");
  s += "\nkernel_source_kind: rocke\nworkspace_policy: none\n\nsweep:\n";
  for (const char* f : {"block_m", "block_n", "lds_pad"})
    absl::StrAppend(&s, "  ", f, ":\n    values: [32, 64, 128, 256]\n    hazard: >\n",
                    "      Moves with the other tile sizes. Catalog tiles satisfy block_m % block_n == 0\n",
                    "      and static LDS within 163,840 bytes; an arm that builds is not thereby legal.\n");
  return s;
}
// One AOT catalog family in the real gfx1151 form (produce_rmsnorm2d_co.py, RmsNormAdapter.cpp).
void writeAotFamily(const std::string& dir, int i) {
  const std::string folder = absl::StrCat(kHkp, "/rocke/aot_catalog/gfx1151/aot_op_", i, "/");
  write(dir, absl::StrCat(kHkp, "/rocke/platform/python/rocke/instances/common/aot_op_", i, ".py"),
        absl::StrCat("\"\"\"AOT op ", i, ".\"\"\"\n\nfrom dataclasses import dataclass\n\n"
                     "from ...core.ir import F16, F32, I32, IRBuilder, PtrType\n\n\n"
                     "@dataclass(frozen=True)\nclass AotOp", i, "Spec:\n    n_per_block: int\n    block_size: int = 256\n"
                     "    vec: int = 4\n    save_stats: bool = False\n    name: str = \"rocke_aot_op_", i, "\"\n\n"
                     "    def kernel_name(self) -> str:\n"
                     "        return f\"{self.name}_N{self.n_per_block}_b{self.block_size}_v{self.vec}\"\n\n\n"
                     "def build_aot_op_", i, "(spec: AotOp", i, "Spec):\n    b = IRBuilder(spec.kernel_name())\n"
                     "    x = b.param(\"X\", PtrType(F16, \"global\"), noalias=True, readonly=True)\n"
                     "    y = b.param(\"Y\", PtrType(F16, \"global\"), noalias=True, writeonly=True)\n"
                     "    if spec.save_stats:\n        b.param(\"Stats\", PtrType(F32, \"global\"))\n"
                     "    m = b.param(\"M\", I32)\n    n = b.param(\"N\", I32)\n    eps = b.param(\"eps\", F32)\n"
                     "    return b.finish()\n"));
  write(dir, absl::StrCat(folder, "produce_aot_op_", i, "_co.py"),
        absl::StrCat("import os\nimport sys\n\nfrom rocke.instances.common.aot_op_", i, " import AotOp", i,
                     "Spec, build_aot_op_", i, "\nfrom rocke.helpers.compile import compile_kernel\n\nARCH = \"gfx1151\"\n\n"
                     "CONFIGS = [(1024, 256, 4), (2048, 256, 4), (2048, 128, 8), (4096, 512, 4)]\n\n\n"
                     "def main() -> int:\n    out_dir = sys.argv[1] if len(sys.argv) > 1 else \".\"\n"
                     "    for n, block_size, vec in CONFIGS:\n        spec = AotOp", i,
                     "Spec(n_per_block=n, block_size=block_size, vec=vec, save_stats=False)\n"
                     "        artifact = compile_kernel(build_aot_op_", i, "(spec), arch=ARCH)\n"
                     "        with open(os.path.join(out_dir, spec.kernel_name() + \".co\"), \"wb\") as f:\n"
                     "            f.write(artifact.hsaco)\n    return 0\n\n\n"
                     "if __name__ == \"__main__\":\n    raise SystemExit(main())\n"));
  std::string j = absl::StrCat("{\n    \"family\": \"aot_op_", i, "_gfx1151\",\n    \"op_kind\": \"aot_op_", i,
                               "\",\n    \"arch\": \"gfx1151\",\n    \"kernels\": [\n");
  int k = 0;
  for (auto [n, bs, vec] : {std::tuple{1024, 256, 4}, {2048, 256, 4}, {2048, 128, 8}, {4096, 512, 4}}) {
    std::string sym = absl::StrCat("rocke_aot_op_", i, "_N", n, "_b", bs, "_v", vec);
    absl::StrAppend(&j, k++ ? ",\n" : "", "        {\n            \"symbol\": \"", sym, "\",\n            \"co_file\": \"", sym,
                    ".co\",\n            \"constraints\": {\"N\": {\"equals\": ", n, "}},\n",
                    "            \"grid\": {\"x\": \"M\", \"y\": 1, \"z\": 1},\n            \"block\": [", bs,
                    ", 1, 1],\n            \"args_signature\": [\n",
                    "                {\"name\": \"X\", \"type\": \"ptr\"},\n                {\"name\": \"Y\", \"type\": \"ptr\"},\n",
                    "                {\"name\": \"M\", \"type\": \"i32\"},\n                {\"name\": \"N\", \"type\": \"i32\"},\n",
                    "                {\"name\": \"eps\", \"type\": \"f32\"}\n            ],\n            \"workspace_bytes\": 0\n        }");
  }
  j += "\n    ]\n}\n";
  write(dir, folder + "family.json", j);
  write(dir, absl::StrCat(kHkp, "/src/engines/aot_catalog_engine/ops/AotOp", i, "Adapter.cpp"),
        absl::StrCat("#include \"AotOp", i, "Adapter.hpp\"\n\nnamespace hipdnn_kernel_provider::aot_catalog\n{\n\n"
                     "std::string_view AotOp", i, "Adapter::opKind() const\n{\n    return \"aot_op_", i, "\";\n}\n\n"
                     "catalog::LaunchBindings AotOp", i, "Adapter::buildBindings(const Problem& problem, const Attrs& attrs) const\n{\n"
                     "    catalog::LaunchBindings bindings;\n"
                     "    bindings.pointerUids.emplace(\"X\", attrs.x_tensor_uid());\n"
                     "    bindings.pointerUids.emplace(\"Y\", attrs.y_tensor_uid());\n"
                     "    bindings.scalars.emplace(\"M\", catalog::ScalarValue{problemInt(problem, \"M\")});\n"
                     "    bindings.scalars.emplace(\"N\", catalog::ScalarValue{problemInt(problem, \"N\")});\n"
                     "    const float eps = attrs.epsilon();\n"
                     "    bindings.scalars.emplace(\"eps\", catalog::ScalarValue{eps});\n"
                     "    return bindings;\n}\n\n}\n"));
}

}  // namespace

std::string builderModule(int i) { return absl::StrCat(kLib, "/kernels/gfx950/op_", i, ".py"); }
std::string pinFile(int i) { return absl::StrCat(kPins, "/Test", camel(i), "Signature.cpp"); }

std::string generateMonorepo(const std::string& dir, const GeneratorSize& size) {
  if (fs::exists(dir)) throw std::runtime_error(dir + " exists");
  fs::create_directories(dir);
  write(dir, kHkp + "/rocke/platform/python/rocke/core/ir.py", "class IRBuilder:\n    pass\n");
  for (int i = 0; i < size.kernelModules; ++i) {
    write(dir, builderModule(i), builderSource(i, false));
    write(dir, absl::StrCat(kPacks, "/", camel(i), "Native.cpp"), packSource(i));
    write(dir, pinFile(i), pinSource(i));
  }
  for (int i = 3 * size.kernelModules; i < size.cppFiles; ++i)
    write(dir, absl::StrCat(kHkp, "/src/engines/kernel_ingestor_engine/Helper", i, ".cpp"),
          absl::StrCat("int helper", i, "(int x) { return x + ", i, "; }\n"));
  // KDPs: one per kernel module that has UKDs, ukds spread evenly.
  int perKdp = std::max(1, size.ukds / std::max(1, size.kernelModules));
  for (int i = 0, made = 0; i < size.kernelModules && made < size.ukds; ++i) {
    std::string j = absl::StrCat("{\"version\":\"1.0\",\"id\":\"kdp-", i, "\",\"name\":\"hipkernel:op_", i,
                                 "\",\"kernelDescriptors\":[");
    for (int u = 0; u < perKdp && made < size.ukds; ++u, ++made)
      absl::StrAppend(&j, u ? "," : "", "{\"version\":\"1.0\",\"id\":\"ukd-", made, "\",\"name\":\"op_", i, ".v", u,
                      "\",\"kernel_source\":{\"kind\":\"rocke\",\"source\":\"kernels/gfx950/op_", i,
                      ".py\",\"builder\":\"build_op_", i, "\",\"spec\":{\"m\":", 64 * (u + 1),
                      ",\"use_bias\":false}},\"metadata\":{\"m\":", 64 * (u + 1), "}}");
    j += "],\"arch\":[\"gfx950\"]}\n";
    write(dir, absl::StrCat(kDesc, "/op_", i, "/op_", i, ".kdp.json"), j);
  }
  for (int i = 0; i < size.aotFamilies; ++i) writeAotFamily(dir, i);
  for (int i = 0; i < size.unrelatedFiles; ++i)
    write(dir, absl::StrCat("projects/other/d", i % 200, "/f", i, i % 3 ? ".md" : ".cpp"),
          absl::StrCat("// unrelated ", i, "\n"));
  std::string g = "git -C '" + dir + "' -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false -c gc.auto=0 ";
  sh(g + "init -q -b main");
  sh(g + "add -A");
  sh(g + "commit -q -m base");
  sh(g + "checkout -q -b feature");
  write(dir, builderModule(0), builderSource(0, true));
  sh(g + "commit -q -am 'op_0: window_left'");
  // Packed, as a clone is; and no automatic gc left running beside what is measured.
  sh(g + "-c gc.autoDetach=false gc -q");
  return builderModule(0);
}

std::string generateSurfaceMonorepo(const std::string& dir, int scale) {
  if (fs::exists(dir)) throw std::runtime_error(dir + " exists");
  fs::create_directories(dir);
  const std::string configs = "projects/hipdnn/tools/IngestorGenerator/configs/";
  const std::string sdk = "projects/hipdnn/plugin_sdk/include/hipdnn_plugin_sdk/";
  const int ops = 100;  // builders, packs, pins, KDPs (1,000 UKDs), profiles: the contracts
  write(dir, kHkp + "/rocke/platform/python/rocke/core/ir.py", "class IRBuilder:\n    pass\n");
  for (int i = 0; i < ops; ++i) {
    write(dir, builderModule(i), builderSource(i, false));
    write(dir, absl::StrCat(kPacks, "/", camel(i), "Native.cpp"), packSource(i));
    write(dir, pinFile(i), pinSource(i));
    write(dir, absl::StrCat(configs, "gfx950_op_", i, ".profile.yaml"), profileYaml(i, false));
    std::string j = absl::StrCat("{\"version\":\"1.0\",\"id\":\"kdp-", i, "\",\"name\":\"hipkernel:op_", i,
                                 "\",\"kernelDescriptors\":[");
    for (int u = 0; u < 10; ++u)
      absl::StrAppend(&j, u ? "," : "", "{\"version\":\"1.0\",\"id\":\"ukd-", i * 10 + u, "\",\"name\":\"op_", i, ".v", u,
                      "\",\"kernel_source\":{\"kind\":\"rocke\",\"source\":\"kernels/gfx950/op_", i,
                      ".py\",\"builder\":\"build_op_", i, "\",\"spec\":{\"m\":", 64 * (u + 1),
                      ",\"use_bias\":false}},\"metadata\":{\"m\":", 64 * (u + 1), "}}");
    j += "],\"arch\":[\"gfx950\"]}\n";
    write(dir, absl::StrCat(kDesc, "/op_", i, "/op_", i, ".kdp.json"), j);
  }
  // Python: 6.8k modules in all (kernels' helpers, dispatch and tests of the library, the platform).
  const char* arches[] = {"gfx942", "gfx950", "gfx90a", "gfx1201"};
  for (int i = 0; i < 6699 * scale; ++i) {
    std::string path = i % 5 == 0   ? absl::StrCat(kLib, "/kernels/", arches[i % 4], "/util_", i, ".py")
                       : i % 5 == 1 ? absl::StrCat(kLib, "/dispatch/d", i % 40, "/m_", i, ".py")
                       : i % 5 == 2 ? absl::StrCat(kLib, "/tests/t", i % 40, "/test_", i, ".py")
                                    : absl::StrCat(kHkp, "/rocke/platform/python/rocke/p", i % 60, "/m_", i, ".py");
    write(dir, path, pythonModule(i));
  }
  // C++: 6.9k files in all (the provider's sources and tests, the plugin SDK's headers).
  for (int i = 0; i < 6700 * scale; ++i) {
    bool header = i % 3 == 0;
    std::string path = i % 7 == 0 ? absl::StrCat(sdk, "s", i % 30, "/Sdk", i, ".hpp")
                       : i % 7 < 4 ? absl::StrCat(kHkp, "/src/engines/e", i % 45, "/Part", i, header ? ".hpp" : ".cpp")
                                   : absl::StrCat(kHkp, "/src/tests/e", i % 45, "/TestPart", i, ".cpp");
    write(dir, path, cppSource(i, header || i % 7 == 0));
  }
  // Markdown: 6.7k, a tenth under the provider.
  const char* projects[] = {"rocblas", "miopen", "hipblaslt", "rocfft", "hipcub", "rocprim"};
  for (int i = 0; i < 6700 * scale; ++i)
    write(dir,
          i % 10 == 0 ? absl::StrCat(kHkp, "/docs/d", i % 20, "/page_", i, ".md")
                      : absl::StrCat("projects/", projects[i % 6], "/docs/s", i % 50, "/page_", i, ".md"),
          absl::StrCat("# Page ", i, "\n\nSome prose about the library, its build and its tests.\n"));
  std::string g = "git -C '" + dir + "' -c user.name=bench -c user.email=bench@example.invalid -c commit.gpgsign=false -c gc.auto=0 ";
  sh(g + "init -q -b main");
  sh(g + "add -A");
  sh(g + "commit -q -m base");
  sh(g + "checkout -q -b feature");
  // The 3-file change: the builder gains an argument, its pack follows, its profile changes.
  write(dir, builderModule(0), builderSource(0, true));
  write(dir, absl::StrCat(kPacks, "/", camel(0), "Native.cpp"), packSource(0, true));
  write(dir, absl::StrCat(configs, "gfx950_op_0.profile.yaml"), profileYaml(0, true));
  sh(g + "commit -q -am 'op_0: window_left'");
  sh(g + "-c gc.autoDetach=false gc -q");
  return builderModule(0);
}

}  // namespace impact::bench
