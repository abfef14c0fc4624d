// Pairing through every declaration (SPEC R2.3), on hand-built facts: the profiles'
// launch_surface entries, then the shipped KDPs' kernel_source, then the generator configs (a pack
// whose engine a config names holds that builder's copies), then the file-name conventions; each
// pair names the declaration that paired it (KernargsPair::pairedBy). And the pack table's
// engine registrations as extracted from C++ text.
#include <gtest/gtest.h>

#include "contracts/Kernargs.h"
#include "contracts/PairingReuse.h"
#include "contracts/kernargs/PackDeclarations.h"
#include "extract/Extract.h"

namespace impact {
namespace {

KernelArg ptr(std::string name) { return {std::move(name), "global_buffer", 8}; }
KernelArg i32(std::string name) { return {std::move(name), "by_value", 4}; }
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

CppArgList list(std::vector<KernelArg> args, CppArgList::Form form = CppArgList::Form::Static,
                std::string symbol = "sig") {
  CppArgList l;
  l.form = form;
  l.symbol = std::move(symbol);
  for (const auto& a : args) l.named = l.named || !a.name.empty();
  l.args = std::move(args);
  return l;
}

// A launch call: its arguments are expressions (no names compared).
CppArgList launch(size_t n) {
  std::vector<KernelArg> args;
  for (size_t i = 0; i < n; ++i) args.push_back(unnamed(i < 2 ? ptr("") : i32("")));
  auto l = list(args, CppArgList::Form::Launch, "Handler::launch");
  l.named = false;
  return l;
}

PyDef function(std::string name) {
  PyDef d;
  d.kind = PyDef::Kind::Function;
  d.name = std::move(name);
  return d;
}

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kEngine = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/";
const std::string kPacks = kEngine + "packs/";
const std::string kConfigs = "projects/hipdnn/tools/IngestorGenerator/configs/";
const std::string kKdps = kEngine + "descriptors/rocKE/";

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
  // A generator config naming `builder` of `source` for `engine`.
  void config(const std::string& name, const std::string& engine, const std::string& source, const std::string& b,
              std::vector<GeneratorVariant> variants = {}) {
    GeneratorConfig c;
    c.engine = engine;
    GeneratorSource s;
    s.pack = name;
    s.engine = engine;
    s.kind = "rocke";
    s.source = source;
    s.builder = b;
    s.arch = {"gfx1151"};
    s.variants = std::move(variants);
    c.sources.push_back(s);
    add(kConfigs + name + ".yaml", FileKind::GeneratorConfig).generator = c;
  }
};

std::vector<KernelArg> abc() { return {ptr("a_ptr"), ptr("b_ptr"), i32("n")}; }
std::vector<KernelArg> xyz() { return {ptr("x_ptr"), ptr("y_ptr"), i32("m")}; }

const KernargsPair* pairOf(const std::vector<KernargsPair>& pairs, const std::string& path,
                           CppArgList::Form form = CppArgList::Form::Launch) {
  for (const auto& p : pairs)
    if (p.copy.path == path && p.copy.list->form == form) return &p;
  return nullptr;
}

TEST(PairingDeclarations, TheEngineTablesRegistrationNamesThePackWhateverItsFileName) {
  Tree t;
  t.add(kLib + "kernels/gfx1151/fmha.py", FileKind::Python).builders = {builder("build_fmha", abc())};
  t.config("gfx1151_wmma", "hipkernel:Gfx1151Wmma", "kernels/gfx1151/fmha.py", "build_fmha");
  // The pack is WmmaPack.cpp, registering through a function no convention names; only the
  // pack table links it to the engine.
  FileFacts& table = t.add(kEngine + "IngestorPacks.cpp", FileKind::Cpp);
  table.symbols.engineRegistrations = {{"hipkernel:Gfx1151Wmma", "registerWmmaPackSymbols", 12}};
  FileFacts& pack = t.add(kPacks + "WmmaPack.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerWmmaPackSymbols")};
  pack.lists = {launch(3)};
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* p = pairOf(pairs, kPacks + "WmmaPack.cpp");
  ASSERT_NE(p, nullptr) << "without the config, nothing pairs this launch";
  ASSERT_TRUE(p->builder);
  EXPECT_EQ(p->builder->builder->name, "build_fmha");
  EXPECT_EQ(p->pairedBy, "generator config " + kConfigs + "gfx1151_wmma.yaml pack hipkernel:Gfx1151Wmma");
  EXPECT_EQ(p->declaration, kConfigs + "gfx1151_wmma.yaml");
  EXPECT_EQ(p->declaredArchs, std::vector<std::string>{"gfx1151"});
  EXPECT_NE(p->note.find("registerWmmaPackSymbols"), std::string::npos) << p->note;
}

TEST(PairingDeclarations, WithoutATableTheConventionalRegistrationNamesThePack) {
  Tree t;
  t.add(kLib + "kernels/gfx1151/fmha.py", FileKind::Python).builders = {builder("build_fmha", abc())};
  t.config("gfx1151_wmma", "hipkernel:Gfx1151Wmma", "kernels/gfx1151/fmha.py", "build_fmha");
  FileFacts& pack = t.add(kPacks + "SomethingElse.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerGfx1151WmmaSymbols")};
  pack.lists = {launch(3)};
  // A test file defining a function of that name is not the pack.
  t.add("dnn-providers/hip-kernel-provider/src/tests/engines/TestWmma.cpp", FileKind::Cpp).module.defs = {
      function("registerGfx1151WmmaSymbols")};
  auto p = kernargs_detail::enginePackFile(t.facts, Layout{}, "hipkernel:Gfx1151Wmma");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->path, kPacks + "SomethingElse.cpp");
  EXPECT_FALSE(p->byFileName);
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* lp = pairOf(pairs, kPacks + "SomethingElse.cpp");
  ASSERT_TRUE(lp && lp->builder);
  EXPECT_EQ(lp->builder->builder->name, "build_fmha");
}

TEST(PairingDeclarations, ThePacksFileNameIsTheLastResortAndSaysSo) {
  Tree t;
  t.add(kLib + "kernels/gfx1151/fmha.py", FileKind::Python).builders = {builder("build_fmha", abc())};
  t.config("gfx1151_wmma", "hipkernel:Gfx1151Wmma", "kernels/gfx1151/fmha.py", "build_fmha");
  t.add(kPacks + "Gfx1151WmmaNative.cpp", FileKind::Cpp).lists = {launch(3)};
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* p = pairOf(pairs, kPacks + "Gfx1151WmmaNative.cpp");
  ASSERT_TRUE(p && p->builder);
  EXPECT_NE(p->pairedBy.find("(pack found by its file name)"), std::string::npos) << p->pairedBy;
}

TEST(PairingDeclarations, AProfileEntryComesBeforeAGeneratorConfig) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", abc())};
  t.add(kLib + "kernels/gfx950/b.py", FileKind::Python).builders = {builder("build_b", abc())};
  t.config("x", "hipkernel:X", "kernels/gfx950/b.py", "build_b");
  FileFacts& pack = t.add(kPacks + "XNative.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerXSymbols")};
  pack.lists = {list(abc())};
  Manifest m;
  m.builder = "build_a";
  SurfaceEntry s;
  s.name = "kernargs";
  s.pythonPath = "kernels/gfx950/a.py";
  s.pythonSymbol = "build_a";
  s.cppPath = kPacks + "XNative.cpp";
  m.surfaces = {s};
  t.add(kConfigs + "x.profile.yaml", FileKind::Manifest).manifest = m;
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* p = pairOf(pairs, kPacks + "XNative.cpp", CppArgList::Form::Static);
  ASSERT_TRUE(p && p->builder);
  EXPECT_EQ(p->builder->builder->name, "build_a");
  EXPECT_EQ(p->pairedBy, "profile " + kConfigs + "x.profile.yaml launch_surface kernargs");
}

TEST(PairingDeclarations, AShippedKdpComesBeforeAGeneratorConfigAndNamesItsPackByItsDispatchSymbol) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", abc())};
  t.add(kLib + "kernels/gfx950/b.py", FileKind::Python).builders = {builder("build_b", abc())};
  t.config("x", "hipkernel:X", "kernels/gfx950/b.py", "build_b");
  FileFacts& pack = t.add(kPacks + "XNative.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerXSymbols")};
  pack.symbols.constants = {{"DISPATCH_SYMBOL", "DISPATCH_SYMBOL", "hipkernel.x_pack.dispatch", 3, 0}};
  pack.lists = {launch(3)};
  DescriptorFacts kdp;
  kdp.type = "kdp";
  kdp.name = "hipkernel:something_else";
  kdp.dispatch = "udd-1";
  kdp.arch = {"gfx950"};
  kdp.launches = {{"kernels/gfx950/a.py", "build_a", {}, "x.v0", "{\"use_sinks\":false}", {{"use_sinks", "false"}}}};
  t.add(kKdps + "x/x.kdp.json", FileKind::Descriptor).descriptor = kdp;
  DescriptorFacts udd;
  udd.type = "udd";
  udd.id = "udd-1";
  FileFacts& uf = t.add(kKdps + "x/x.udd.json", FileKind::Descriptor);
  uf.descriptor = udd;
  uf.symbols.descriptorSymbols = {{"dispatch_symbol", "hipkernel.x_pack.dispatch", "", 1}};
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* p = pairOf(pairs, kPacks + "XNative.cpp");
  ASSERT_TRUE(p && p->builder);
  EXPECT_EQ(p->builder->builder->name, "build_a");
  EXPECT_EQ(p->pairedBy, "KDP " + kKdps + "x/x.kdp.json kernel_source");
  EXPECT_NE(p->note.find("hipkernel.x_pack.dispatch"), std::string::npos) << p->note;
  ASSERT_TRUE(p->shipped) << "the KDP's specs are build_a's shipped variants";
  EXPECT_EQ(p->shipped->variants.size(), 1u);
  EXPECT_EQ(p->shipped->variants[0].spec->at("use_sinks"), "false");
}

TEST(PairingDeclarations, AGeneratorConfigComesBeforeTheFileNameConventions) {
  Tree t;
  // kernels/gfx950/foo.py is what Gfx950FooNative.cpp's name points at; the config says the
  // engine's pack holds build_bar's copies.
  t.add(kLib + "kernels/gfx950/foo.py", FileKind::Python).builders = {builder("build_foo", abc())};
  t.add(kLib + "kernels/gfx950/bar.py", FileKind::Python).builders = {builder("build_bar", xyz())};
  t.config("gfx950_foo", "hipkernel:Gfx950Foo", "kernels/gfx950/bar.py", "build_bar");
  FileFacts& pack = t.add(kPacks + "Gfx950FooNative.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerGfx950FooSymbols")};
  pack.lists = {launch(3)};
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* p = pairOf(pairs, kPacks + "Gfx950FooNative.cpp");
  ASSERT_TRUE(p && p->builder);
  EXPECT_EQ(p->builder->builder->name, "build_bar");
  EXPECT_EQ(p->pairedBy.rfind("generator config ", 0), 0u) << p->pairedBy;
  // Without the config, the file-name convention pairs it, and says so.
  t.facts.files.erase(kConfigs + "gfx950_foo.yaml");
  pairs = pairKernargs(t.facts, Layout{});
  p = pairOf(pairs, kPacks + "Gfx950FooNative.cpp");
  ASSERT_TRUE(p && p->builder);
  EXPECT_EQ(p->builder->builder->name, "build_foo");
  EXPECT_EQ(p->pairedBy, "file name convention (" + kLib + "kernels/gfx950/foo.py)");
}

TEST(PairingDeclarations, NamesChooseAmongTheBuildersOfAMultiLaunchPackAndLengthAmongItsLaunches) {
  Tree t;
  t.add(kLib + "kernels/gfx950/seg.py", FileKind::Python).builders = {
      builder("build_segment", abc()), builder("build_reduce", {ptr("x_ptr"), ptr("y_ptr"), i32("m"), i32("k")})};
  GeneratorConfig c;
  c.engine = "hipkernel:Seg";
  for (const char* b : {"build_segment", "build_reduce"}) {
    GeneratorSource s;
    s.pack = "seg";
    s.engine = c.engine;
    s.source = "kernels/gfx950/seg.py";
    s.builder = b;
    c.sources.push_back(s);
  }
  t.add(kConfigs + "seg.yaml", FileKind::GeneratorConfig).generator = c;
  FileFacts& pack = t.add(kPacks + "SegPack.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerSegSymbols")};
  pack.lists = {list({ptr("x_ptr"), ptr("y_ptr"), i32("m"), i32("k")}), launch(3)};
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* named = pairOf(pairs, kPacks + "SegPack.cpp", CppArgList::Form::Static);
  const KernargsPair* l = pairOf(pairs, kPacks + "SegPack.cpp");
  ASSERT_TRUE(named && named->builder && l && l->builder);
  EXPECT_EQ(named->builder->builder->name, "build_reduce");
  EXPECT_EQ(l->builder->builder->name, "build_segment") << "the only builder with a 3-argument list";
  EXPECT_NE(l->note.find("the one with 3 arguments"), std::string::npos) << l->note;
}

TEST(PairingDeclarations, ABuilderAConfigNamesThatTheTreeLacksIsSaidOnTheCopy) {
  Tree t;
  t.config("x", "hipkernel:X", "kernels/gfx950/gone.py", "build_gone");
  FileFacts& pack = t.add(kPacks + "XNative.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerXSymbols")};
  pack.lists = {launch(3)};
  auto pairs = pairKernargs(t.facts, Layout{});
  const KernargsPair* p = pairOf(pairs, kPacks + "XNative.cpp");
  ASSERT_NE(p, nullptr);
  EXPECT_FALSE(p->builder);
  EXPECT_NE(p->note.find("build_gone (named by generator config"), std::string::npos) << p->note;
  EXPECT_NE(p->note.find("not found in " + kLib + "kernels/gfx950/gone.py"), std::string::npos) << p->note;
}

TEST(PairingDeclarations, NameMatchingSaysItPairedByArgumentNames) {
  Tree t;
  t.add(kLib + "kernels/gfx950/a.py", FileKind::Python).builders = {builder("build_a", abc())};
  t.add(kPacks + "Unrelated.cpp", FileKind::Cpp).lists = {list(abc())};
  auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].pairedBy, "argument names");
  EXPECT_TRUE(pairs[0].declaration.empty());
}

// An editor's keystroke reuses the pairing only when no declaration it reads changed.
TEST(PairingDeclarations, ADeclarationEditRePairsAndABodyEditDoesNot) {
  Tree t;
  t.add(kLib + "kernels/gfx1151/fmha.py", FileKind::Python).builders = {builder("build_fmha", abc())};
  t.config("w", "hipkernel:W", "kernels/gfx1151/fmha.py", "build_fmha", {{"w.a", {{"use_sinks", "false"}}}});
  FileFacts& pack = t.add(kPacks + "WNative.cpp", FileKind::Cpp);
  pack.module.defs = {function("registerWSymbols")};
  pack.lists = {launch(3)};
  const auto pairs = pairKernargs(t.facts, Layout{});
  ASSERT_EQ(pairs.size(), 1u);
  auto edited = [&](const std::string& path, auto&& edit) {
    TreeFacts now = t.facts;
    auto f = std::make_shared<FileFacts>(*t.facts.find(path));
    edit(*f);
    now.files[path] = f;
    return reusePairs(pairs, t.facts, now, {path}).has_value();
  };
  EXPECT_TRUE(edited(kPacks + "WNative.cpp", [](FileFacts& f) { f.fingerprint += 1; })) << "a body edit";
  EXPECT_FALSE(edited(kConfigs + "w.yaml", [](FileFacts& f) { f.generator->sources[0].variants[0].spec["use_sinks"] = "true"; }))
      << "a generator config decides pairs and shipped variants";
  EXPECT_FALSE(edited(kPacks + "WNative.cpp", [](FileFacts& f) { f.module.defs[0].name = "registerOtherSymbols"; }))
      << "the registration names the pack";
}

// The pack table, as C++: a brace entry naming an engine and taking a function's address.
TEST(PairingDeclarations, EngineRegistrationsAreReadFromTheSyntaxTree) {
  FileFacts f = extractFile(kEngine + "IngestorPacks.cpp", R"(
#include "engines/kernel_ingestor_engine/IngestorPacks.hpp"
namespace hip_kernel_provider::kernel_ingestor_engine {
const std::vector<IngestorPack>& ingestorPacks()
{
    static const std::vector<IngestorPack> s_packs = {
        {"hipkernel:Pointwise", &registerPointwiseSymbols, true, &resetPointwiseModuleCache},
        // a comment between entries
        {"hipkernel:ConvFwd",
         &ns::registerConvFwdSymbols,
         true,
         nullptr},
        {"not an engine", &registerNothing, false, nullptr},
        {"hipkernel:NoFunction", true, false},
    };
    return s_packs;
}
}
)");
  ASSERT_TRUE(f.ok) << f.error;
  const auto& r = f.symbols.engineRegistrations;
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].engine, "hipkernel:Pointwise");
  EXPECT_EQ(r[0].function, "registerPointwiseSymbols");
  EXPECT_EQ(r[1].engine, "hipkernel:ConvFwd");
  EXPECT_EQ(r[1].function, "registerConvFwdSymbols");
  EXPECT_EQ(r[1].line, 8u);
}

}  // namespace
}  // namespace impact
