// The kernargs contract on hand-built facts: comparison (R2.1, R2.2) and pairing (R2.3).
#include <gtest/gtest.h>

#include <map>

#include "contracts/Kernargs.h"

namespace impact {
namespace {

KernelArg ptr(std::string name) { return {std::move(name), "global_buffer", 8}; }
KernelArg i32(std::string name) { return {std::move(name), "by_value", 4}; }
KernelArg f32(std::string name) { return {std::move(name), "by_value", 4}; }
KernelArg i64(std::string name) { return {std::move(name), "by_value", 8}; }
KernelArg cond(KernelArg a, std::string c) {
  a.conditional = true;
  a.condition = std::move(c);
  return a;
}
KernelArg unnamed(KernelArg a) {
  a.name.clear();
  return a;
}

PyBuilder builder(std::string name, std::vector<KernelArg> args) {
  PyBuilder b;
  b.name = std::move(name);
  b.abis.push_back({b.name, "", std::move(args)});
  return b;
}

CppArgList copy(std::vector<KernelArg> args, CppArgList::Form form = CppArgList::Form::Static,
                std::string symbol = "sig") {
  CppArgList l;
  l.form = form;
  l.symbol = std::move(symbol);
  for (const auto& a : args) l.named = l.named || !a.name.empty();
  l.args = std::move(args);
  return l;
}

std::vector<KernelArg> eight() {
  return {ptr("q_ptr"), ptr("k_ptr"), ptr("v_ptr"), ptr("o_ptr"), f32("scale"), i32("batch"), i32("seqlen_q"),
          i32("seqlen_kv")};
}

TEST(KernargsCompare, EqualListsAgree) {
  auto c = compareCopy(builder("build_attention_dense", eight()), copy(eight()));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree);
  EXPECT_EQ(c.message, "");
}

TEST(KernargsCompare, MissingArgumentsAreNamedWithKindSizeAndPosition) {
  auto args = eight();
  args.push_back(i32("window_left"));
  args.push_back(i32("window_right"));
  args.push_back(f32("softcap"));
  auto c = compareCopy(builder("b", args), copy(eight()));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message,
            "copy has 8 arguments, builder has 11: missing window_left (by_value/4) at #8, window_right "
            "(by_value/4) at #9, softcap (by_value/4) at #10");
}

TEST(KernargsCompare, UnnamedCopyIsComparedByKindAndSize) {
  std::vector<KernelArg> pin;
  for (auto a : eight()) pin.push_back(unnamed(a));
  EXPECT_EQ(compareCopy(builder("b", eight()), copy(pin)).outcome, Comparison::Outcome::Agree);
  pin[5] = unnamed(i64("batch"));
  auto c = compareCopy(builder("b", eight()), copy(pin));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "#5 batch: copy by_value/8, builder by_value/4");
}

TEST(KernargsCompare, SwappedNamesAreSaidSo) {
  auto swapped = eight();
  std::swap(swapped[1].name, swapped[2].name);
  auto c = compareCopy(builder("b", eight()), copy(swapped));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "k_ptr and v_ptr swapped: copy has v_ptr at #1 and k_ptr at #2");
}

TEST(KernargsCompare, CopyWithoutTheConditionalArgumentAgreesWithoutIt) {
  auto args = eight();
  args.push_back(cond(ptr("sink_ptr"), "spec.use_sinks"));
  auto c = compareCopy(builder("b", args), copy(eight()));
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_EQ(c.message, "copy leaves out the conditional argument sink_ptr (if spec.use_sinks)");
}

TEST(KernargsCompare, CopyMissingAnUnconditionalArgumentDisagrees) {
  auto args = eight();
  args.push_back(ptr("sink_ptr"));  // unconditional (e.g. under `with` or `if True`)
  EXPECT_EQ(compareCopy(builder("b", args), copy(eight())).outcome, Comparison::Outcome::Disagree);
}

TEST(KernargsCompare, LaunchCallsAreComparedByCountAndKindNeverByName) {
  // A launch call states expressions, not names: `s.scale` at the slot named `scale` agrees,
  // and so does an argument whose kind the file does not state (reported separately).
  std::vector<KernelArg> launch;
  for (const char* e : {"q.ptr", "k.ptr", "v.ptr", "o.ptr"}) launch.push_back({e, "global_buffer", 8});
  launch.push_back({"binding.scale", "by_value", 4});
  for (const char* e : {"static_cast<int32_t>(s.b)", "1", "2"}) launch.push_back({e, "by_value", 4});
  EXPECT_EQ(compareCopy(builder("b", eight()), copy(launch, CppArgList::Form::Launch)).outcome,
            Comparison::Outcome::Agree);
  // Count always.
  auto shorter = launch;
  shorter.pop_back();
  auto c = compareCopy(builder("b", eight()), copy(shorter, CppArgList::Form::Launch));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "copy has 7 arguments, builder has 8: missing seqlen_kv (by_value/4) at #7");
  // Kind and size where known: an int64_t cast where the builder has I32.
  auto wide = launch;
  wide[6] = {"static_cast<int64_t>(sq)", "by_value", 8};
  c = compareCopy(builder("b", eight()), copy(wide, CppArgList::Form::Launch));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "#6 seqlen_q: copy by_value/8, builder by_value/4");
  EXPECT_EQ(c.focusCopy, 6);
  // Unknown kind: not a mismatch, but said.
  auto unknown = launch;
  unknown[5] = {"compute(s)", "", 0};
  unknown[5].resolved = false;
  unknown[5].unresolvedReason = "the result type of 'compute(...)' is not stated in this file";
  c = compareCopy(builder("b", eight()), copy(unknown, CppArgList::Form::Launch));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree);
  ASSERT_EQ(c.unresolved.size(), 1u);
  EXPECT_EQ(c.unresolved[0],
            "launch argument #5 compute(s) (the result type of 'compute(...)' is not stated in this file)");
}

TEST(KernargsCompare, TheClosestOfSeveralListsIsChosen) {
  PyBuilder b = builder("build_attention_dense", eight());
  b.abis.push_back({"_build_attention_dense_persistent", "spec.persistent",
                    {ptr("q_ptr"), ptr("k_ptr"), ptr("v_ptr"), ptr("o_ptr"), i32("work_items")}});
  // The guard as the extractor reads it (structure; the text is for messages).
  b.abis.back().when.root = addNode(b.abis.back().when, GuardNode{GuardNode::Op::Name, "spec.persistent", {}});
  std::vector<KernelArg> five;
  for (const auto& a : b.abis[1].args) five.push_back(unnamed(a));
  auto c = compareCopy(b, copy(five));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree);
  EXPECT_EQ(c.abi->origin, "_build_attention_dense_persistent");
}

TEST(KernargsCompare, UnresolvedTypesAreReported) {
  auto args = eight();
  args[4].resolved = false;
  args[4].kind.clear();
  args[4].size = 0;
  args[4].unresolvedReason = "type 'acc' could not be resolved";
  auto c = compareCopy(builder("b", args), copy(eight()));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree);
  ASSERT_EQ(c.unresolved.size(), 1u);
  EXPECT_EQ(c.unresolved[0], "scale: type 'acc' could not be resolved");
}

// Pairing, on a tree of hand-built facts.
struct Tree {
  TreeFacts facts;
  FileFacts& add(const std::string& path, FileKind kind) {
    auto f = std::make_shared<FileFacts>();
    f->path = path;
    f->kind = kind;
    FileFacts& ref = *f;
    facts.files[path] = f;
    return ref;
  }
};

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kPacks = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";
const std::string kPins = "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/";

TEST(KernargsPairing, NamedListsPairWithTheBuilderWhoseNamesTheyMatch) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", eight()),
                                                                   builder("build_b", {ptr("x"), ptr("y"), i32("n")})};
  t.add(kPacks + "Gfx950BNative.cpp", FileKind::Cpp).lists = {copy({ptr("x"), ptr("y"), i32("n")})};
  auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 1u);
  ASSERT_TRUE(pairs[0].builder);
  EXPECT_EQ(pairs[0].builder->builder->name, "build_b");
  EXPECT_FALSE(pairs[0].declared);
}

TEST(KernargsPairing, AListMatchingNoBuilderIsComparedWithTheClosest) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", eight())};
  auto drifted = eight();
  drifted.pop_back();
  drifted.push_back(i32("seqlen_k"));
  t.add(kPacks + "Gfx950ANative.cpp", FileKind::Cpp).lists = {copy(drifted),
                                                             copy({ptr("q_ptr"), ptr("zz"), ptr("yy"), ptr("xx"), ptr("ww")})};
  auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 1u) << "a list sharing one name of five is no copy";
  EXPECT_EQ(pairs[0].builder->builder->name, "build_a");
  EXPECT_NE(pairs[0].note.find("compared with the closest, build_a"), std::string::npos) << pairs[0].note;
}

TEST(KernargsPairing, ManifestDeclaresPackAndTestFiles) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", eight())};
  Manifest m;
  m.source = "kernels/gfx950/a.py";
  m.builder = "build_a";
  SurfaceEntry s;
  s.name = "kernargs";
  s.pythonPath = "kernels/gfx950/a.py";
  s.pythonSymbol = "build_a";
  s.cppPath = kPacks + "Gfx950ANative.cpp";
  s.testPath = kPins + "SomeOddName.cpp";
  m.surfaces = {s};
  t.add("projects/hipdnn/tools/IngestorGenerator/configs/a.profile.yaml", FileKind::Manifest).manifest = m;
  std::vector<KernelArg> pin;
  for (auto a : eight()) pin.push_back(unnamed(a));
  t.add(kPins + "SomeOddName.cpp", FileKind::Cpp).lists = {copy(pin)};
  t.add(kPacks + "Gfx950ANative.cpp", FileKind::Cpp).lists = {copy({ptr("unrelated"), i32("names")})};
  auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 2u);
  for (const auto& p : pairs) {
    EXPECT_TRUE(p.declared);
    if (p.copy.path == kPins + "SomeOddName.cpp") {
      ASSERT_TRUE(p.builder);
      EXPECT_EQ(p.builder->builder->name, "build_a");
    } else {
      EXPECT_FALSE(p.builder);
      EXPECT_NE(p.note.find("shares too few names with build_a"), std::string::npos) << p.note;
    }
  }
}

TEST(KernargsPairing, UnnamedPinPairsThroughThePackFileName) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", eight())};
  t.add(kPacks + "Gfx950ANative.cpp", FileKind::Cpp).lists = {copy(eight())};
  std::vector<KernelArg> pin;
  for (auto a : eight()) pin.push_back(unnamed(a));
  t.add(kPins + "TestGfx950ASignature.cpp", FileKind::Cpp).lists = {copy(pin)};
  t.add(kPins + "TestGfx950OtherSignature.cpp", FileKind::Cpp).lists = {copy(pin)};
  auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 2u) << "the pin of an unknown pack pairs with nothing";
  const KernargsPair* pinPair = nullptr;
  for (const auto& p : pairs)
    if (p.copy.path == kPins + "TestGfx950ASignature.cpp") pinPair = &p;
  ASSERT_NE(pinPair, nullptr);
  EXPECT_EQ(pinPair->builder->builder->name, "build_a");
}

TEST(KernargsPairing, CopyKeysAreStableAndDistinct) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", eight())};
  t.add(kPacks + "Gfx950ANative.cpp", FileKind::Cpp).lists = {copy(eight(), CppArgList::Form::Static, "f"),
                                                             copy(eight(), CppArgList::Form::Static, "f")};
  auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_NE(pairs[0].copy.key, pairs[1].copy.key);
  EXPECT_EQ(pairs[0].copy.key, pairKernargs(t.facts, Layout{})[0].copy.key);
}

// Real AOT catalog entries (DOMAIN.md §6) pair through the folder and the symbol.
TEST(KernargsPairing, CatalogEntriesPairThroughFamilyModuleAndSymbol) {
  Tree t;
  t.add(kLib + "kernels/gfx950/attention_dense.py", FileKind::Python).builders = {
      builder("build_attention_dense_reduce", {ptr("p")}), builder("build_attention_dense", eight()),
      builder("_build_attention_dense_persistent", {ptr("q")})};
  auto entry = [](std::string family, std::string symbol) {
    CppArgList l = copy({unnamed(ptr("Q"))}, CppArgList::Form::Static, symbol);
    l.catalog = CppArgList::CatalogEntry{"gfx950", std::move(family), std::move(symbol)};
    return l;
  };
  const std::string cat = "dnn-providers/hip-kernel-provider/rocke/aot_catalog/gfx950/";
  // attention_dense_prefill -> attention_dense.py; the longest op the symbol starts with wins
  // (not the private persistent body).
  t.add(cat + "attention_dense_prefill/family.json", FileKind::Descriptor).lists = {
      entry("attention_dense_prefill", "rocke_attention_dense_d128_bf16"),
      entry("attention_dense_prefill", "rocke_attention_dense_reduce_d128")};
  // No such module, nor any shorter family name.
  t.add(cat + "softmax_online/family.json", FileKind::Descriptor).lists = {entry("softmax_online", "rocke_softmax")};
  auto pairs = pairKernargs(t.facts, Layout{});
  std::map<std::string, const KernargsPair*> bySymbol;
  for (const auto& p : pairs) bySymbol[p.copy.list->symbol] = &p;
  ASSERT_EQ(bySymbol.size(), 3u);
  ASSERT_TRUE(bySymbol["rocke_attention_dense_d128_bf16"]->builder);
  EXPECT_EQ(bySymbol["rocke_attention_dense_d128_bf16"]->builder->builder->name, "build_attention_dense");
  ASSERT_TRUE(bySymbol["rocke_attention_dense_reduce_d128"]->builder);
  EXPECT_EQ(bySymbol["rocke_attention_dense_reduce_d128"]->builder->builder->name, "build_attention_dense_reduce");
  EXPECT_FALSE(bySymbol["rocke_softmax"]->builder);
  EXPECT_EQ(bySymbol["rocke_softmax"]->note,
            "catalog family softmax_online (gfx950): no module " + kLib + "kernels/gfx950/softmax_online.py nor " + kLib +
                "kernels/gfx950/softmax.py");
}

// A catalog entry's variant picks the builder's list: `persistent` true -> the early return.
TEST(KernargsCompare, APersistentCatalogEntryIsComparedWithThePersistentBody) {
  PyBuilder b = builder("build_attention_dense", eight());
  b.abis.push_back({"_build_attention_dense_persistent", "spec.persistent",
                    {ptr("q_ptr"), ptr("k_ptr"), ptr("v_ptr"), ptr("o_ptr"), i32("work_items")}});
  // The guard as the extractor reads it (structure; the text is for messages).
  b.abis.back().when.root = addNode(b.abis.back().when, GuardNode{GuardNode::Op::Name, "spec.persistent", {}});
  std::vector<KernelArg> five;
  for (const auto& a : eight()) five.push_back(unnamed(a));
  five.resize(5);
  CppArgList persistent = copy(five);
  persistent.spec["persistent"] = "true";
  // Four pointers and an f32 where the persistent body has an i32 of the same size: agrees in
  // kind and size. The non-persistent variant of the same list is stale.
  EXPECT_EQ(compareCopy(b, persistent).abi->origin, "_build_attention_dense_persistent");
  CppArgList plain = copy(five);
  plain.spec["persistent"] = "false";
  auto c = compareCopy(b, plain);
  EXPECT_EQ(c.abi->origin, "build_attention_dense");
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
}

}  // namespace
}  // namespace impact
