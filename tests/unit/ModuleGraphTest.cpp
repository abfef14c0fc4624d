// Module facts (PythonFacts.cpp), the module graph (core/python/ModuleGraph) and C++ function
// index (CppFunctions.cpp): SPEC R2.4, R2.6, R2.7.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "extract/CppFunctions.h"
#include "extract/Extract.h"
#include "judge/Contracts.h"
#include "python/ModuleGraph.h"

namespace impact {
namespace {

// A contract judge with the context judge() would give it.
ContractRows judgeOn(ContractRows (*contract)(const JudgeContext&), const Revision& base, const Revision& head,
                     const Layout& layout) {
  ModuleGraph bg(base.facts, layout), hg(head.facts, layout);
  ArchIndex ba(base.facts, layout, bg), ha(head.facts, layout, hg);
  return contract(JudgeContext{base, head, layout, bg, hg, ba, ha});
}


const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kPlat = "dnn-providers/hip-kernel-provider/rocke/platform/python/";

TreeFacts tree(const std::map<std::string, std::string>& files) {
  TreeFacts t;
  for (const auto& [p, c] : files) t.files[p] = std::make_shared<const FileFacts>(extractFile(p, c));
  return t;
}

const PyDef* def(const FileFacts& f, const std::string& name) {
  for (const auto& d : f.module.defs)
    if (d.name == name) return &d;
  return nullptr;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(ModuleFacts, DefinitionsAnywhereAtModuleLevel) {
  FileFacts f = extractFile(kLib + "kernels/gfx950/a.py", R"PY(
import kernels.common.attention_unified as au
from kernels.common import attention_unified as au2
from ..common import helpers
from . import sibling
import os.path

try:
    from fast import thing
except ImportError:
    def thing(x, y=2):
        return x

if True:
    def under_if(spec, *, arch="gfx950"):
        return au._get_2d_launch_meta(spec) + au2.other(spec.block_m) + helpers.h()

with ctx():
    LIMIT = 4

class Base:
    pass

class Tuning(Base, metaclass=Meta):
    block: int = 8

    def launch_block(self, spec):
        import math
        return (self.block * math.ceil(spec.n), 1, 1)

    @staticmethod
    def helper(a, b):  # comment
        return GLOBAL_X

Gfx950Spec = Tuning
AttentionDenseSpec = Gfx950Spec
)PY");
  ASSERT_TRUE(f.ok) << f.error;
  const PyDef* t = def(f, "thing");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->params, "(x, y=2)");
  const PyDef* u = def(f, "under_if");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->params, "(spec, *, arch=\"gfx950\")");
  EXPECT_TRUE(has(u->refs, "au._get_2d_launch_meta")) << testing::PrintToString(u->refs);
  EXPECT_TRUE(has(u->refs, "au2.other"));
  EXPECT_TRUE(has(u->refs, "helpers.h"));
  EXPECT_FALSE(has(u->refs, "spec.block_m"));  // a parameter is local
  EXPECT_TRUE(has(u->members, "block_m"));
  EXPECT_TRUE(def(f, "LIMIT"));
  const PyDef* c = def(f, "Tuning");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, PyDef::Kind::Class);
  EXPECT_EQ(c->bases, std::vector<std::string>{"Base"});
  const PyDef* m = def(f, "Tuning.launch_block");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->kind, PyDef::Kind::Method);
  EXPECT_EQ(m->params, "(self, spec)");
  EXPECT_TRUE(has(m->refs, "self.block"));
  EXPECT_TRUE(has(m->refs, "math.ceil"));
  EXPECT_TRUE(def(f, "Tuning.block"));
  EXPECT_TRUE(def(f, "Tuning.helper"));
  const PyDef* alias = def(f, "AttentionDenseSpec");
  ASSERT_TRUE(alias);
  EXPECT_EQ(alias->aliasOf, "Gfx950Spec");
  // imports
  bool sawMath = false, sawAu = false, sawRel = false;
  for (const auto& im : f.module.imports) {
    if (im.module == "math") sawMath = im.function == "Tuning.launch_block";
    if (im.alias == "au") sawAu = im.module == "kernels.common.attention_unified" && im.name.empty();
    if (im.alias == "helpers") sawRel = im.module == "..common" && im.name == "helpers";
  }
  EXPECT_TRUE(sawMath && sawAu && sawRel);
  // comments leave the fingerprint alone
  FileFacts g = extractFile(kLib + "kernels/gfx950/a.py", "def f(a):\n    # note\n    return a\n");
  FileFacts h = extractFile(kLib + "kernels/gfx950/a.py", "def f(a):\n    return a  # other\n");
  EXPECT_EQ(def(g, "f")->fingerprint, def(h, "f")->fingerprint);
}

TEST(ModuleGraph, NamesPathsAndRelativeImports) {
  TreeFacts t = tree({
      {kLib + "kernels/__init__.py", ""},
      {kLib + "kernels/gfx950/__init__.py", ""},
      {kLib + "kernels/gfx950/a.py", "from ..common.util import helper\nfrom . import b\n"},
      {kLib + "kernels/gfx950/b.py", "X = 1\n"},
      {kLib + "kernels/common/util.py", "def helper(x):\n    return x\n"},
  });
  Layout layout;
  ModuleGraph g(t, layout);
  EXPECT_EQ(g.moduleName(kLib + "kernels/gfx950/a.py"), "kernels.gfx950.a");
  EXPECT_EQ(g.moduleName(kLib + "kernels/gfx950/__init__.py"), "kernels.gfx950");
  EXPECT_EQ(g.modulePath("kernels.common.util"), kLib + "kernels/common/util.py");
  Resolution r = g.resolve(kLib + "kernels/gfx950/a.py", "helper");
  ASSERT_EQ(r.kind, Resolution::Kind::Def);
  EXPECT_EQ(r.ref, (SymbolRef{kLib + "kernels/common/util.py", "helper"}));
  Resolution b = g.resolve(kLib + "kernels/gfx950/a.py", "b.X");
  ASSERT_EQ(b.kind, Resolution::Kind::Def);
  EXPECT_EQ(b.ref.path, kLib + "kernels/gfx950/b.py");
  EXPECT_EQ(g.displayPath(kLib + "kernels/common/util.py"), "kernels/common/util.py");
}

TEST(ModuleGraph, PackageReexportsReachTheDefiningModule) {
  TreeFacts t = tree({
      {kPlat + "rocke/__init__.py", ""},
      {kPlat + "rocke/helpers/__init__.py", "from .compile import f\nfrom rocke.helpers.spec import *\n"},
      {kPlat + "rocke/helpers/compile.py", "def f(a):\n    return a\n"},
      {kPlat + "rocke/helpers/spec.py", "class SignatureBuilder:\n    def ptr(self, n, t):\n        return self\n"},
      {kLib + "kernels/x.py",
       "from rocke.helpers import f, SignatureBuilder\nfrom numpy import array\n\n"
       "def build(spec):\n    return f(spec), SignatureBuilder().ptr('a', 'b'), array\n"},
  });
  Layout layout;
  ModuleGraph g(t, layout);
  Resolution r = g.resolve(kLib + "kernels/x.py", "f");
  ASSERT_EQ(r.kind, Resolution::Kind::Def);
  EXPECT_EQ(r.ref.path, kPlat + "rocke/helpers/compile.py");
  Resolution s = g.resolve(kLib + "kernels/x.py", "SignatureBuilder.ptr");
  ASSERT_EQ(s.kind, Resolution::Kind::Def);
  EXPECT_EQ(s.ref, (SymbolRef{kPlat + "rocke/helpers/spec.py", "SignatureBuilder.ptr"}));
  EXPECT_EQ(g.resolve(kLib + "kernels/x.py", "array").kind, Resolution::Kind::External);
  auto readers = g.readers(kPlat + "rocke/helpers/compile.py", "f");
  ASSERT_FALSE(readers.empty());
  bool fromX = false;
  for (const auto& rd : readers) fromX = fromX || rd.path == kLib + "kernels/x.py";
  EXPECT_TRUE(fromX);
  auto closure = g.importClosure(kLib + "kernels/x.py");
  EXPECT_TRUE(closure.count(kPlat + "rocke/helpers/compile.py"));
  EXPECT_TRUE(closure.count(kPlat + "rocke/helpers/__init__.py"));
  EXPECT_TRUE(closure.count(kPlat + "rocke/__init__.py"));
}

TEST(ModuleGraph, ReachFollowsModuleAliasesAcrossModules) {
  TreeFacts t = tree({
      {kLib + "kernels/common/attention_unified.py",
       "BLOCK = 64\n\ndef _get_2d_launch_meta(spec):\n    return _tile(spec), BLOCK\n\n"
       "def _tile(spec):\n    return spec.n\n\ndef unrelated():\n    return 0\n"},
      {kLib + "kernels/common/other.py", "def g():\n    return 1\n"},
      {kLib + "kernels/gfx950/attention_unified.py",
       "import kernels.common.attention_unified as au\nfrom kernels.common import other as o\n\n"
       "def grid(spec):\n    return au._get_2d_launch_meta(spec), o.g()\n\n"
       "class Tuning:\n    n: int = 1\n    def launch_block(self, spec):\n        return self._half(), 1, 1\n"
       "    def _half(self):\n        return self.n // 2\n"},
  });
  Layout layout;
  ModuleGraph g(t, layout);
  const std::string common = kLib + "kernels/common/attention_unified.py";
  auto r = g.reach(kLib + "kernels/gfx950/attention_unified.py", "grid");
  EXPECT_TRUE(r.count({common, "_get_2d_launch_meta"}));
  EXPECT_TRUE(r.count({common, "_tile"}));
  EXPECT_TRUE(r.count({common, "BLOCK"}));
  EXPECT_TRUE(r.count({kLib + "kernels/common/other.py", "g"}));
  EXPECT_FALSE(r.count({common, "unrelated"}));
  auto m = g.reach(kLib + "kernels/gfx950/attention_unified.py", "Tuning.launch_block");
  EXPECT_TRUE(m.count({kLib + "kernels/gfx950/attention_unified.py", "Tuning._half"}));
  EXPECT_TRUE(m.count({kLib + "kernels/gfx950/attention_unified.py", "Tuning.n"}));
  EXPECT_FALSE(m.count({kLib + "kernels/gfx950/attention_unified.py", "Tuning"}));
}

TEST(ModuleGraph, BaseClassMembersAndAliases) {
  TreeFacts t = tree({
      {kLib + "kernels/common/base.py", "class Base:\n    def launch(self):\n        return 1\n"},
      {kLib + "kernels/gfx950/spec.py",
       "from kernels.common.base import Base\n\nclass Gfx950Spec(Base):\n    pass\n\nSpec = Gfx950Spec\n"},
  });
  Layout layout;
  ModuleGraph g(t, layout);
  Resolution r = g.resolve(kLib + "kernels/gfx950/spec.py", "Spec.launch");
  ASSERT_EQ(r.kind, Resolution::Kind::Def);
  EXPECT_EQ(r.ref, (SymbolRef{kLib + "kernels/common/base.py", "Base.launch"}));
  EXPECT_TRUE(g.derives({kLib + "kernels/gfx950/spec.py", "Gfx950Spec"}, {kLib + "kernels/common/base.py", "Base"}));
}

TEST(ModuleGraph, ShippedClosureFromDescriptorLaunches) {
  TreeFacts t = tree({
      {kLib + "kernels/gfx950/a.py", "from kernels.common import util\n"},
      {kLib + "kernels/common/util.py", "X = 1\n"},
      {kLib + "kernels/gfx950/unused.py", "Y = 1\n"},
      {"dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/descriptors/rocKE/a/a.kdp.json",
       R"({"version":"1.0","id":"x","name":"a","arch":["gfx950"],"kernelDescriptors":[{"id":"u","name":"u",
           "kernel_source":{"kind":"rocke","source":"kernels/gfx950/a.py","builder":"build_a","spec":{}}}]})"},
  });
  Layout layout;
  ModuleGraph g(t, layout);
  EXPECT_TRUE(g.inShippedClosure(kLib + "kernels/gfx950/a.py"));
  EXPECT_TRUE(g.inShippedClosure(kLib + "kernels/common/util.py"));
  EXPECT_FALSE(g.inShippedClosure(kLib + "kernels/gfx950/unused.py"));
}

TEST(CppFunctions, IndexesFunctionsAndMethods) {
  FileFacts f = extractFile("dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/G.cpp", R"CPP(
namespace ns {
inline std::array<uint32_t, 3> gridOf(uint32_t a) { return {a, 1, 1}; }
class Pack {
 public:
  std::vector<int> signature() const { return {}; }
  void prepare();
};
void Pack::prepare() { /* body */ }
}
)CPP");
  std::vector<std::string> names;
  for (const auto& d : f.module.defs) names.push_back(d.name);
  EXPECT_TRUE(has(names, "gridOf")) << testing::PrintToString(names);
  EXPECT_TRUE(has(names, "Pack::signature"));
  EXPECT_TRUE(has(names, "Pack::prepare"));
  EXPECT_TRUE(cppSymbolMatches("Pack::prepare", "prepare"));
  EXPECT_TRUE(cppSymbolMatches("Pack::prepare", "Pack::prepare"));
  EXPECT_FALSE(cppSymbolMatches("OtherPack::prepare", "Pack::prepare"));
}

// Two trees for the judges: files as {path: content}; FileRef ids are the contents' hashes.
struct Side {
  TreeFacts facts;
  std::map<std::string, FileRef> refs;
  explicit Side(const std::map<std::string, std::string>& files) : facts(tree(files)) {
    for (const auto& [p, c] : files) refs[p] = FileRef{std::to_string(fnv1a(c)), nullptr};
  }
  Revision rev() const {
    return Revision{facts, [this](const std::string& p) -> const FileRef* {
                      auto it = refs.find(p);
                      return it == refs.end() ? nullptr : &it->second;
                    }, nullptr};
  }
};

const Row* rowFor(const ContractRows& rows, const std::string& reader) {
  for (const auto& r : rows.rows)
    if (r.mirror.path == reader) return &r;
  return nullptr;
}

TEST(RemovedSymbols, ReadersOfARemovedMember) {
  const std::string base = kLib + "kernels/common/tuning.py";
  std::map<std::string, std::string> files = {
      {base, "class TuningBase:\n    def lanes(self):\n        return 64\n\n    def waves(self):\n        return 4\n"},
      {kLib + "kernels/pkg/__init__.py", "def __getattr__(name):\n    return None\n"},
      // a lazy export the resolver cannot follow: may still be the class
      {kLib + "kernels/lazy_reader.py", "from kernels.pkg import TuningBase\n\ndef f():\n    return TuningBase.lanes(None)\n"},
      // an import from outside the repository proves another class
      {kLib + "kernels/external_reader.py", "from thirdparty import TuningBase\nimport kernels.common.tuning\n\n"
                                           "def f():\n    return TuningBase.lanes(None)\n"},
      // the same name defined in the reader's own module is another class
      {kLib + "kernels/local_reader.py", "class TuningBase:\n    def lanes(self):\n        return 1\n\n"
                                        "def f():\n    return TuningBase.lanes(None)\n"},
      // a receiver of unknown type in a module whose imports reach the class: changed
      {kLib + "kernels/untyped_reader.py", "import kernels.common.tuning\n\ndef f(t):\n    return t.lanes()\n"},
      // ... and in a module whose imports do not reach it: nothing
      {kLib + "kernels/far_reader.py", "def f(t):\n    return t.lanes()\n"},
  };
  Side b(files);
  files[base] = "class TuningBase:\n    def waves(self):\n        return 4\n";
  Side h(files);
  Layout layout;
  ContractRows rows = judgeOn(&judgeRemovedSymbols, b.rev(), h.rev(), layout);
  const Row* lazy = rowFor(rows, kLib + "kernels/lazy_reader.py");
  ASSERT_TRUE(lazy);
  EXPECT_EQ(lazy->status, Status::Mismatch) << lazy->message;
  EXPECT_FALSE(rowFor(rows, kLib + "kernels/external_reader.py"));
  EXPECT_FALSE(rowFor(rows, kLib + "kernels/local_reader.py"));
  const Row* untyped = rowFor(rows, kLib + "kernels/untyped_reader.py");
  ASSERT_TRUE(untyped);
  EXPECT_EQ(untyped->status, Status::Changed) << untyped->message;
  EXPECT_FALSE(rowFor(rows, kLib + "kernels/far_reader.py"));
}

TEST(RemovedSymbols, ARemovedFunctionKeepsItsReadersBoundToTheOldModule) {
  const std::string common = kLib + "kernels/common/util.py";
  std::map<std::string, std::string> files = {
      {common, "def helper(x):\n    return x\n"},
      {kLib + "kernels/gfx942/util.py", "def helper(x):\n    return 2 * x\n"},
      {kLib + "kernels/common/__init__.py", "from .util import helper\n"},
      {kLib + "kernels/gfx950/a.py", "import kernels.common.util as u\n\ndef f():\n    return u.helper(1)\n"},
      {kLib + "kernels/gfx950/b.py", "from kernels.common import helper\n"},
      {kLib + "kernels/gfx950/c.py", "from kernels.gfx942.util import helper\n"},
  };
  Side b(files);
  files[common] = "X = 1\n";
  Side h(files);
  Layout layout;
  ContractRows rows = judgeOn(&judgeRemovedSymbols, b.rev(), h.rev(), layout);
  const Row* a = rowFor(rows, kLib + "kernels/gfx950/a.py");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, Status::Mismatch);
  EXPECT_NE(a->message.find("kernels/common/util.py:helper was removed"), std::string::npos) << a->message;
  const Row* viaInit = rowFor(rows, kLib + "kernels/gfx950/b.py");
  ASSERT_TRUE(viaInit);  // through the package __init__ re-export
  EXPECT_EQ(viaInit->status, Status::Mismatch);
  EXPECT_FALSE(rowFor(rows, kLib + "kernels/gfx950/c.py"));
}

TEST(LaunchSurfaces, SymbolsResolveAnywhereInTheModule) {
  const std::string profile = "projects/hipdnn/tools/IngestorGenerator/configs/x.profile.yaml";
  const std::string hpp = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/XGeometry.hpp";
  auto entry = [](const std::string& name, const std::string& py, const std::string& cpp) {
    return "  - name: " + name + "\n    python_source: " + py + "\n    cpp_mirror: " + cpp + "\n    guard: none\n    test: none\n";
  };
  std::string yaml = "arch: gfx950\nlaunch_surface:\n" +
                     entry("grid", "kernels/gfx950/x.py:grid_under_try", hpp + ":gridOf") +
                     entry("block", "kernels/gfx950/x.py:Tuning.launch_block", hpp + ":Geo::block") +
                     entry("matcher", "kernels/gfx950/x.py", hpp) +
                     entry("applicability", "kernels/gfx950/x.py:supports_x  (see the guard)", hpp);
  std::map<std::string, std::string> files = {
      {profile, yaml},
      {kLib + "kernels/gfx950/x.py",
       "try:\n    import fast\nexcept ImportError:\n    def grid_under_try(spec):\n        return (1, 1, 1)\n\n"
       "class Tuning:\n    def launch_block(self, spec):\n        return (64, 1, 1)\n\n"
       "if True:\n    def supports_x(spec):\n        return True, ''\n"},
      {hpp, "inline int gridOf(int a) { return a; }\nstruct Geo {\n  static int block(int a) { return a; }\n};\n"},
  };
  Side b(files);
  files[profile] = yaml + entry("extra", "kernels/gfx950/x.py:nope", hpp + ":nothere");
  files[kLib + "kernels/gfx950/x.py"] += "\n# touched\n";
  Side h(files);
  Layout layout;
  ContractRows rows = judgeOn(&judgeLaunchSurfaces, b.rev(), h.rev(), layout);
  int mismatches = 0;
  for (const auto& r : rows.rows) {
    if (r.status == Status::Mismatch) {
      ++mismatches;
      EXPECT_EQ(r.contract, "launch-surface:extra");
      EXPECT_NE(r.message.find("python_source symbol nope is not defined"), std::string::npos) << r.message;
    } else {
      EXPECT_EQ(r.status, Status::Inert) << r.contract << ": " << r.message;
    }
  }
  EXPECT_EQ(mismatches, 1);
}

}  // namespace
}  // namespace impact
