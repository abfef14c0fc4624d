// Symbol facts (SPEC R2.5) of C++ and descriptor files, descriptor copies of the ABI, and the
// spec-selected builder list of a descriptor copy.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "contracts/Kernargs.h"
#include "extract/Descriptor.h"
#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950FooNative.cpp";
constexpr const char* kBundle =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/gfx950_foo/";

uint32_t lineOf(const std::string& src, const std::string& needle) {
  size_t p = src.find(needle);
  EXPECT_NE(p, std::string::npos) << needle;
  return static_cast<uint32_t>(std::count(src.begin(), src.begin() + static_cast<long>(p), '\n'));
}

const CppStringConstant* constant(const FileFacts& f, const std::string& name) {
  for (const auto& k : f.symbols.constants)
    if (k.name == name) return &k;
  return nullptr;
}

// The real recipe pack (RockeSdpaNative.cpp) registers its symbols as literals at the
// registration call; only a `SymbolScope` parameter's `add` registers, and a constant passed to
// `add` is a constant already (not listed twice).
TEST(SymbolFacts, LiteralsRegisteredOnTheSymbolScopeArePackSymbols) {
  const std::string src = R"(namespace hip_kernel_provider::kernel_ingestor_engine
{
constexpr std::string_view DISPATCH_SYMBOL = "hipkernel.rocke_sdpa.dispatch";
void registerRockeSdpaSymbols(hipdnn_plugin_sdk::ingestor::SymbolScope<Handle>& scope)
{
    static const Handler handler;
    scope.add("hipkernel.rocke_sdpa.graph_match", &matchGraph);
    scope.add("hipkernel.rocke_sdpa." "score", &score);
    scope.add(std::string(DISPATCH_SYMBOL), &handler);
}
void unrelated(std::vector<std::string>& names, Registry& registry)
{
    names.push_back("not a symbol");
    registry.add("hipkernel.not_a_scope", &score);
}
} // namespace hip_kernel_provider::kernel_ingestor_engine
)";
  FileFacts f = extractFile(kPack, src);
  ASSERT_TRUE(f.ok) << f.error;
  std::vector<std::string> registered;
  for (const auto& k : f.symbols.constants)
    if (k.name == "scope.add") registered.push_back(k.value);
  EXPECT_EQ(registered, (std::vector<std::string>{"hipkernel.rocke_sdpa.graph_match", "hipkernel.rocke_sdpa.score"}));
  for (const auto& k : f.symbols.constants) {
    EXPECT_NE(k.value, "hipkernel.not_a_scope") << "Registry is no SymbolScope";
    if (k.name == "scope.add") EXPECT_EQ(k.qualified, "registerRockeSdpaSymbols");
  }
  EXPECT_EQ(constant(f, "scope.add")->line, lineOf(src, "scope.add(\"hipkernel.rocke_sdpa.graph_match"));
  ASSERT_NE(constant(f, "DISPATCH_SYMBOL"), nullptr);
}

TEST(SymbolFacts, StringConstantsOfEverySpelling) {
  const std::string src = R"(#include "IngestorPacks.hpp"
#include <string_view>
namespace hipdnn_kernel_provider::ingestor {
namespace {
constexpr std::string_view GRAPH_MATCHER_SYMBOL = "hipkernel.gfx950_foo.graph_match";
constexpr const char* KERNEL_MATCHER_SYMBOL = "hipkernel.gfx950_foo." "kernel_match";
const char* const DISPATCH_SYMBOL = "hipkernel.gfx950_foo.dispatch";
const std::string PAYLOAD_SYMBOL = "hipkernel.gfx950_foo.payload";
constexpr auto RAW_SYMBOL = u8R"x(hipkernel.gfx950_foo.raw // not a comment)x";
constexpr auto ALIAS = GRAPH_MATCHER_SYMBOL;
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
std::string_view notConst = "mutable";
}
struct Pack {
  static constexpr std::string_view MEMBER_SYMBOL = "hipkernel.gfx950_foo.member";
};
void f() {
  constexpr std::string_view LOCAL = "a local";
}
}
)";
  FileFacts f = extractFile(kPack, src);
  ASSERT_TRUE(f.ok) << f.error;
  ASSERT_NE(constant(f, "GRAPH_MATCHER_SYMBOL"), nullptr);
  EXPECT_EQ(constant(f, "GRAPH_MATCHER_SYMBOL")->value, "hipkernel.gfx950_foo.graph_match");
  EXPECT_EQ(constant(f, "GRAPH_MATCHER_SYMBOL")->line, lineOf(src, "GRAPH_MATCHER_SYMBOL ="));
  EXPECT_EQ(constant(f, "GRAPH_MATCHER_SYMBOL")->qualified, "hipdnn_kernel_provider::ingestor::GRAPH_MATCHER_SYMBOL");
  ASSERT_NE(constant(f, "KERNEL_MATCHER_SYMBOL"), nullptr);
  EXPECT_EQ(constant(f, "KERNEL_MATCHER_SYMBOL")->value, "hipkernel.gfx950_foo.kernel_match");
  ASSERT_NE(constant(f, "DISPATCH_SYMBOL"), nullptr);
  EXPECT_EQ(constant(f, "DISPATCH_SYMBOL")->value, "hipkernel.gfx950_foo.dispatch");
  ASSERT_NE(constant(f, "PAYLOAD_SYMBOL"), nullptr);
  ASSERT_NE(constant(f, "RAW_SYMBOL"), nullptr);
  EXPECT_EQ(constant(f, "RAW_SYMBOL")->value, "hipkernel.gfx950_foo.raw // not a comment");
  ASSERT_NE(constant(f, "ALIAS"), nullptr);
  EXPECT_EQ(constant(f, "ALIAS")->value, "hipkernel.gfx950_foo.graph_match");
  ASSERT_NE(constant(f, "MEMBER_SYMBOL"), nullptr);
  EXPECT_EQ(constant(f, "PTR"), nullptr);        // not a string
  EXPECT_EQ(constant(f, "notConst"), nullptr);   // not a constant
  EXPECT_EQ(constant(f, "LOCAL"), nullptr);      // a function's local
  ASSERT_EQ(f.symbols.includes.size(), 2u);
  EXPECT_EQ(f.symbols.includes[0], "IngestorPacks.hpp");
  EXPECT_EQ(f.symbols.includes[1], "string_view");
}

TEST(SymbolFacts, KmdFieldReadsThroughFieldConstants) {
  const std::string src = R"(
constexpr std::string_view BLOCK_M_FIELD = "block_m";
constexpr const char* DTYPE_FIELD = "dtype";
constexpr std::string_view SPLITS_FIELD = "num_splits";
namespace fields { constexpr std::string_view HEAD_FIELD = "head_size"; }
void launch(const IngestorKernelCode& kernel) {
  const auto blockM = kernel.getIntMetadata(std::string(BLOCK_M_FIELD));
  const auto dtype = kernel.getStringMetadata(DTYPE_FIELD);
  const auto head = kernel.getIntMetadata(std::string{fields::HEAD_FIELD});
  const auto splits = kernel.tryGetMetadata(std::string(SPLITS_FIELD));
  const auto lit = kernel.getIntMetadata("block_n");
  const auto dyn = kernel.getIntMetadata(name());
}
)";
  FileFacts f = extractFile(kPack, src);
  ASSERT_TRUE(f.ok) << f.error;
  const auto& r = f.symbols.kmdReads;
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].field, "block_m");
  EXPECT_EQ(r[0].constant, "BLOCK_M_FIELD");
  EXPECT_EQ(r[0].method, "getIntMetadata");
  EXPECT_EQ(r[0].line, lineOf(src, "kernel.getIntMetadata(std::string(BLOCK_M_FIELD))"));
  EXPECT_EQ(r[1].field, "dtype");
  EXPECT_EQ(r[1].method, "getStringMetadata");
  EXPECT_EQ(r[2].field, "head_size");
  EXPECT_EQ(r[2].constant, "fields::HEAD_FIELD");
  EXPECT_EQ(r[3].field, "block_n");  // a literal is a read too
  EXPECT_EQ(r[3].constant, "");
  for (const auto& x : r) EXPECT_NE(x.field, "num_splits");  // tryGetMetadata: may be absent
}

TEST(SymbolFacts, DescriptorSymbolStringsAndKmdFields) {
  const std::string ued = "{\n  \"id\": \"1\",\n  \"graph_match\": {\n    \"native\": \"hipkernel.gfx950_foo.graph_match\"\n  }\n}\n";
  FileFacts u = extractFile(std::string(kBundle) + "gfx950_foo.ued.json", ued);
  ASSERT_TRUE(u.ok) << u.error;
  ASSERT_EQ(u.symbols.descriptorSymbols.size(), 1u);
  EXPECT_EQ(u.symbols.descriptorSymbols[0].key, "graph_match.native");
  EXPECT_EQ(u.symbols.descriptorSymbols[0].value, "hipkernel.gfx950_foo.graph_match");
  EXPECT_EQ(u.symbols.descriptorSymbols[0].line, 3u);

  FileFacts m = extractFile(std::string(kBundle) + "gfx950_foo.umd.json",
                            R"({"match_symbol": "hipkernel.gfx950_foo.kernel_match", "scope": "kernel"})");
  ASSERT_EQ(m.symbols.descriptorSymbols.size(), 1u);
  EXPECT_EQ(m.symbols.descriptorSymbols[0].key, "match_symbol");
  EXPECT_EQ(m.symbols.descriptorSymbols[0].scope, "kernel");

  FileFacts h = extractFile(std::string(kBundle) + "gfx950_foo.uhd.json", R"({"payload": "hipkernel.gfx950_foo.payload"})");
  ASSERT_EQ(h.symbols.descriptorSymbols.size(), 1u);
  EXPECT_EQ(h.symbols.descriptorSymbols[0].key, "payload");

  FileFacts d = extractFile(std::string(kBundle) + "gfx950_foo.udd.json", R"({"dispatch_symbol": "hipkernel.gfx950_foo.dispatch"})");
  ASSERT_EQ(d.symbols.descriptorSymbols.size(), 1u);
  EXPECT_EQ(d.symbols.descriptorSymbols[0].value, "hipkernel.gfx950_foo.dispatch");

  const std::string kmd = R"({
  "fields": [
    {"name": "dtype", "type": "string"},
    {"name": "block_m", "type": "int", "default_value": 256}
  ]
})";
  FileFacts k = extractFile(std::string(kBundle) + "gfx950_foo.kmd.json", kmd);
  EXPECT_TRUE(k.symbols.kmdSchema);
  ASSERT_EQ(k.symbols.kmdFields.size(), 2u);
  EXPECT_EQ(k.symbols.kmdFields[1].name, "block_m");
  EXPECT_TRUE(k.symbols.kmdFields[1].hasDefault);
  EXPECT_FALSE(k.symbols.kmdFields[0].hasDefault);
  EXPECT_EQ(k.symbols.kmdFields[1].line, lineOf(kmd, "block_m"));

  // A KDP names no symbol strings.
  FileFacts kdp = extractFile(std::string(kBundle) + "gfx950_foo.kdp.json", R"({"graph_match": {"native": "x"}})");
  EXPECT_TRUE(kdp.symbols.descriptorSymbols.empty());
}

TEST(SymbolFacts, KpackSignatureIsACopyOfTheArgumentList) {
  const std::string kdp = R"({
  "id": "k",
  "kernelDescriptors": [
    {
      "name": "foo.rocke",
      "kernel_source": {"kind": "rocke", "source": "kernels/gfx950/foo.py", "builder": "build_foo", "spec": {}}
    },
    {
      "name": "foo.packed",
      "kernel_source": {
        "kind": "kpack", "library": "foo.kpack", "toc_key": "foo", "symbol": "foo_kernel", "sha256": "0",
        "source": "kernels/gfx950/foo.py", "builder": "build_foo",
        "spec": {"persistent": true, "block_m": 128},
        "signature": [
          {"kind": "global_buffer", "size": 8, "offset": 0, "name": "x_ptr"},
          {"kind": "by_value", "size": 4, "offset": 8}
        ]
      }
    }
  ],
  "arch": ["gfx950"]
})";
  FileFacts f = extractFile(std::string(kBundle) + "gfx950_foo.kdp.json", kdp);
  ASSERT_TRUE(f.ok) << f.error;
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(l.form, CppArgList::Form::Static);
  EXPECT_EQ(l.symbol, "foo.packed");
  EXPECT_TRUE(l.named);
  EXPECT_EQ(l.range.line, lineOf(kdp, "\"signature\""));
  ASSERT_TRUE(l.builderHint.has_value());
  EXPECT_EQ(l.builderHint->source, "kernels/gfx950/foo.py");
  EXPECT_EQ(l.builderHint->builder, "build_foo");
  EXPECT_EQ(l.spec.at("persistent"), "true");
  EXPECT_EQ(l.spec.at("block_m"), "128");
  ASSERT_EQ(l.args.size(), 2u);
  EXPECT_EQ(l.args[0].name, "x_ptr");
  EXPECT_EQ(l.args[0].kind, "global_buffer");
  EXPECT_EQ(l.args[0].size, 8u);
  EXPECT_EQ(l.args[1].name, "");
  EXPECT_EQ(l.args[1].offset, 8);
  EXPECT_EQ(l.args[1].range.line, lineOf(kdp, "\"offset\": 8}"));
  // The descriptor itself is still read.
  ASSERT_TRUE(f.descriptor.has_value());
  EXPECT_EQ(f.descriptor->launches.size(), 1u);
  // A value edit of the signature changes the list's fingerprint; a whitespace edit does not.
  std::string edited = kdp;
  edited.replace(edited.find("\"size\": 4"), 9, "\"size\": 8");
  EXPECT_NE(extractFile(std::string(kBundle) + "gfx950_foo.kdp.json", edited).lists[0].fingerprint, l.fingerprint);
  std::string spaced = kdp;
  spaced.replace(spaced.find("\"size\": 4"), 9, "\"size\" :   4");
  EXPECT_EQ(extractFile(std::string(kBundle) + "gfx950_foo.kdp.json", spaced).lists[0].fingerprint, l.fingerprint);
}

TEST(SymbolFacts, CatalogArgsSignatureEntriesAreUnnamedCopies) {
  const std::string path = "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/attention_dense/family.json";
  EXPECT_EQ(classify(path), FileKind::Descriptor);
  EXPECT_EQ(classify("dnn-providers/hip-kernel-provider/rocke/other/family.json"), FileKind::Other);
  const std::string cat = R"({
  "source": "kernels/gfx950/attention_dense.py",
  "builder": "build_attention_dense",
  "entries": [
    {"name": "e1", "spec": {"persistent": false},
     "args_signature": [{"name": "Q", "type": "ptr<bf16,global>"}, {"name": "scale_raw", "type": "f32"},
                        {"name": "n", "type": "i64"}, {"name": "h", "type": "f16"}, {"name": "z", "type": "weird"}]},
    {"name": "e2", "kernel_source": {"source": "kernels/gfx950/other.py", "builder": "build_other"},
     "args_signature": [{"name": "X", "type": "float*"}]}
  ]
})";
  FileFacts f = extractFile(path, cat);
  ASSERT_TRUE(f.ok) << f.error;
  ASSERT_EQ(f.lists.size(), 2u);
  const CppArgList& a = f.lists[0];
  EXPECT_EQ(a.symbol, "e1");
  EXPECT_FALSE(a.named);
  EXPECT_EQ(a.range.line, lineOf(cat, "\"args_signature\""));
  ASSERT_TRUE(a.builderHint.has_value());
  EXPECT_EQ(a.builderHint->builder, "build_attention_dense");
  EXPECT_EQ(a.spec.at("persistent"), "false");
  ASSERT_EQ(a.args.size(), 5u);
  for (const auto& x : a.args) EXPECT_EQ(x.name, "");
  EXPECT_EQ(a.args[0].kind, "global_buffer");
  EXPECT_EQ(a.args[0].size, 8u);
  EXPECT_EQ(a.args[1].kind, "by_value");
  EXPECT_EQ(a.args[1].size, 4u);
  EXPECT_EQ(a.args[2].size, 8u);
  EXPECT_EQ(a.args[3].size, 2u);
  EXPECT_FALSE(a.args[4].resolved);
  EXPECT_NE(a.args[4].unresolvedReason.find("weird"), std::string::npos);
  const CppArgList& b = f.lists[1];
  ASSERT_TRUE(b.builderHint.has_value());
  EXPECT_EQ(b.builderHint->builder, "build_other");
  EXPECT_EQ(b.args[0].kind, "global_buffer");
}

TEST(SymbolFacts, RealFormatCatalogEntriesCarryFolderSymbolVariantAndGeometry) {
  const std::string path =
      "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/attention_dense_prefill/family.json";
  const std::string cat = R"({
  "family": "attention_dense_prefill_gfx950",
  "arch": "gfx950",
  "kernels": [
    {"symbol": "rocke_attention_dense_d128_bf16",
     "grid": {"x": {"ceil_div": ["S_q", 256]}, "y": "H", "z": "B"},
     "block": [512, 1, 1],
     "args_signature": [{"name": "Q", "type": "ptr"}, {"name": "n", "type": "i32", "size_bytes": 8}]},
    {"symbol": "rocke_attention_dense_d128_bf16_persist256",
     "block": [256, 1, 1],
     "args_signature": [{"name": "Q", "type": "ptr"}]}
  ]
})";
  FileFacts f = extractFile(path, cat);
  ASSERT_TRUE(f.ok) << f.error;
  ASSERT_EQ(f.lists.size(), 2u);
  const CppArgList& a = f.lists[0];
  EXPECT_EQ(a.symbol, "rocke_attention_dense_d128_bf16");
  EXPECT_FALSE(a.builderHint.has_value());
  ASSERT_TRUE(a.catalog.has_value());
  EXPECT_EQ(a.catalog->arch, "gfx950");
  EXPECT_EQ(a.catalog->family, "attention_dense_prefill");
  EXPECT_FALSE(a.catalog->persistent);
  EXPECT_EQ(a.spec.at("persistent"), "false");
  EXPECT_EQ(a.catalog->block, "[512,1,1]");
  EXPECT_EQ(a.catalog->geometry.line, lineOf(cat, "\"grid\""));
  ASSERT_EQ(a.args.size(), 2u);
  EXPECT_EQ(a.args[1].size, 8u) << "size_bytes overrides the type's size";
  const CppArgList& b = f.lists[1];
  ASSERT_TRUE(b.catalog.has_value());
  EXPECT_TRUE(b.catalog->persistent);
  EXPECT_EQ(b.spec.at("persistent"), "true");
  EXPECT_EQ(b.catalog->geometry.line, lineOf(cat, "\"block\": [256")) << "no grid: the block";
  // The argument list's fingerprint leaves the geometry out (judged by catalog-geometry).
  std::string moved = cat;
  moved.replace(moved.find("[512, 1, 1]"), 11, "[256, 1, 1]");
  FileFacts g = extractFile(path, moved);
  EXPECT_EQ(g.lists[0].fingerprint, a.fingerprint);
  EXPECT_NE(g.lists[0].catalog->block, a.catalog->block);
}

TEST(SymbolFacts, CatalogTypeKindSize) {
  std::string k;
  uint32_t s = 0;
  EXPECT_TRUE(catalogTypeKindSize("ptr<bf16, global>", k, s));
  EXPECT_EQ(k, "global_buffer");
  EXPECT_EQ(s, 8u);
  EXPECT_TRUE(catalogTypeKindSize("I32", k, s));
  EXPECT_EQ(k, "by_value");
  EXPECT_EQ(s, 4u);
  EXPECT_TRUE(catalogTypeKindSize("bf16", k, s));
  EXPECT_EQ(s, 2u);
  EXPECT_TRUE(catalogTypeKindSize("i64", k, s));
  EXPECT_EQ(s, 8u);
  EXPECT_FALSE(catalogTypeKindSize("tensor", k, s));
}

KernelArg arg(const char* name, const char* kind, uint32_t size) {
  KernelArg a;
  a.name = name;
  a.kind = kind;
  a.size = size;
  return a;
}

TEST(SymbolFacts, ASpecPicksTheBuilderListItStates) {
  PyBuilder b;
  b.name = "build_x";
  std::vector<KernelArg> own = {arg("q", "global_buffer", 8), arg("k", "global_buffer", 8), arg("scale", "by_value", 4),
                                arg("n", "by_value", 4), arg("m", "by_value", 4)};
  std::vector<KernelArg> persistent = {arg("q", "global_buffer", 8), arg("k", "global_buffer", 8),
                                       arg("work", "by_value", 4)};
  // Guards as the extractor reads them (structure; the text is for messages).
  Guard when;
  when.root = addNode(when, GuardNode{GuardNode::Op::Name, "spec.persistent", {}});
  b.abis = {PyAbi{"build_x", "", own, {}, {}, {}, {}}, PyAbi{"_persistent", "spec.persistent", persistent, "", "", when, ""}};
  CppArgList copy;
  for (const auto& a : persistent) copy.args.push_back(KernelArg{"", a.kind, a.size});
  // Without a spec the copy is compared with the closest list: the persistent one agrees.
  EXPECT_EQ(compareCopy(b, copy).outcome, Comparison::Outcome::Agree);
  copy.spec = {{"persistent", "true"}};
  EXPECT_EQ(compareCopy(b, copy).outcome, Comparison::Outcome::Agree);
  // A non-persistent variant states the builder's own list: the 3-argument copy is stale.
  copy.spec = {{"persistent", "false"}};
  Comparison c = compareCopy(b, copy);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(c.message.find("copy has 3 arguments, builder has 5"), std::string::npos) << c.message;
  // A spec that does not name the guard's field leaves every list in play.
  copy.spec = {{"dtype", "bf16"}};
  EXPECT_EQ(compareCopy(b, copy).outcome, Comparison::Outcome::Agree);
  // Negated and compared guards.
  b.abis[1].guard = "not spec.dense and spec.mode == \"persist\"";
  Guard both;
  uint32_t dense = addNode(both, GuardNode{GuardNode::Op::Name, "spec.dense", {}});
  uint32_t notDense = addNode(both, GuardNode{GuardNode::Op::Not, "", {dense}});
  uint32_t mode = addNode(both, GuardNode{GuardNode::Op::Name, "spec.mode", {}});
  uint32_t persist = addNode(both, GuardNode{GuardNode::Op::Str, "persist", {}});
  uint32_t eq = addNode(both, GuardNode{GuardNode::Op::Compare, "==", {mode, persist}});
  both.root = addNode(both, GuardNode{GuardNode::Op::And, "", {notDense, eq}});
  b.abis[1].when = both;
  copy.spec = {{"dense", "false"}, {"mode", "persist"}};
  EXPECT_EQ(compareCopy(b, copy).outcome, Comparison::Outcome::Agree);
  copy.spec = {{"dense", "false"}, {"mode", "tiled"}};
  EXPECT_EQ(compareCopy(b, copy).outcome, Comparison::Outcome::Disagree);
}

}  // namespace
}  // namespace impact
