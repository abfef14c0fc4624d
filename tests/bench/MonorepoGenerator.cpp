#include "MonorepoGenerator.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

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

std::string packSource(int i) {
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

}  // namespace impact::bench
