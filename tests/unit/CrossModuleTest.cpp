// A builder whose arguments go on in a helper of another module of the tree is read through it
// (core/analysis/CrossModule, issue 26); a helper not in the tree stays an open end, named.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "analysis/CrossModule.h"
#include "contracts/Kernargs.h"
#include "extract/Extract.h"
#include "extract/python/DeclEval.h"

namespace impact {
namespace {

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";
const std::string kBuilder = kLib + "kernels/gfx950/conv.py";
const std::string kHelper = kLib + "kernels/common/_conv_params.py";

const char* kBuilderSrc = R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, BF16
from kernels.common._conv_params import emit_problem_params

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    b.param("B", PtrType(BF16, "global"))
    problem = emit_problem_params(b, ("N", "C", "H"))
    return b.finish()
)PY";

const char* kHelperSrc = R"PY(
from rocke.core.ir import I32

def emit_problem_params(b, names):
    out = {}
    for n in names:
        out[n] = b.param(f"p_{n}", I32)
    return out
)PY";

// Follows the tree's modules, read from `files` (path -> text; absent: not in the tree).
void follow(TreeFacts& t, const std::map<std::string, std::string>& files) {
  followModules(t, [&](const std::string& p) -> std::optional<std::string> {
    auto it = files.find(p);
    if (it == files.end()) return std::nullopt;
    return it->second;
  });
}

std::vector<std::string> names(const TreeFacts& t) {
  std::vector<std::string> out;
  for (const PyBuilder& b : t.find(kBuilder)->builders)
    if (b.name == "build_conv")
      for (const KernelArg& a : b.abis.at(0).args) out.push_back(a.name + (a.resolved ? "" : "?"));
  return out;
}

TEST(CrossModule, AHelperOfAnotherModuleInTheTreeIsFollowed) {
  std::map<std::string, std::string> files{{kBuilder, kBuilderSrc}, {kHelper, kHelperSrc}};
  TreeFacts t;
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
  const PyAbi& before = t.find(kBuilder)->builders.at(0).abis.at(0);
  ASSERT_EQ(before.tailHelper, "emit_problem_params");  // per file: the list is open there
  follow(t, files);
  EXPECT_EQ(names(t), (std::vector<std::string>{"A", "B", "p_N", "p_C", "p_H"}));
  EXPECT_TRUE(t.find(kBuilder)->builders.at(0).abis.at(0).tailHelper.empty());
  // The helper's declarations sit at the builder's call of it.
  ASSERT_EQ(before.args.size(), 2u);
  EXPECT_EQ(t.find(kBuilder)->builders.at(0).abis.at(0).args[2].range.line, before.args[1].range.line + 1);
  // A changed helper is followed again from the file as extracted.
  files[kHelper] = std::string(kHelperSrc).replace(std::string(kHelperSrc).find("I32)"), 4, "I32)\n    b.param(\"extra\", I32)");
  follow(t, files);
  EXPECT_EQ(names(t), (std::vector<std::string>{"A", "B", "p_N", "p_C", "p_H", "extra"}));
}

TEST(CrossModule, AHelperNotInTheTreeStaysAnOpenEnd) {
  TreeFacts t;
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
  followModules(t, [&](const std::string& p) -> std::optional<std::string> {
    if (p == kBuilder) return std::string(kBuilderSrc);
    return std::nullopt;
  });
  EXPECT_EQ(names(t), (std::vector<std::string>{"A", "B"}));
  EXPECT_EQ(t.find(kBuilder)->builders.at(0).abis.at(0).tailModule, "kernels/common/_conv_params.py");
}


// The typed entry point a KDP or a generator config names often builds nothing itself: it
// dispatches on the spec to builders of other modules (the real build_gfx950_conv_fwd returns
// build_implicit_gemm_conv's kernel, or a direct conv's). Per file each return is an open end at
// the module it calls; with the tree, the ones in it are read through, the others stay named.
const std::string kEntry = kLib + "builders/common/conv_entry.py";
const char* kEntrySrc = R"PY(
from rocke.core.ir import KernelDef
from kernels.gfx950 import conv as _conv
from kernels.common import conv_direct as _direct


def supports(spec):
    return spec.n > 0, ""


def build_entry(spec, *, arch="gfx950"):
    ok, reason = supports(spec)
    if not ok:
        raise ValueError(reason)
    if spec.is_direct:
        return _direct.build_direct(spec.to_direct(), arch=arch)
    return _conv.build_conv(spec.to_instance(), arch=arch)
)PY";

const PyBuilder* builderNamed(const TreeFacts& t, const std::string& path, const std::string& name) {
  for (const PyBuilder& b : t.find(path)->builders)
    if (b.name == name) return &b;
  return nullptr;
}

// Issue 36 item 2, the real conv scenario AHelperModuleInTheTreeIsFollowed in its form: the
// helper's module is in the tree but lacks the kernel callback the builder imports from it
// (`emit_wavelet_kloop_dynamic` there), called with the IRBuilder on an early-return path after
// the helper's block. That list is open at the callback, with nothing declared after it; the
// launch is open at its trailing pack; the two are compared by the part both state and agree
// (before: "copy has 2 arguments, builder has 5").
TEST(CrossModule, ACallbackTheHelperModuleLacksOpensItsListAndTheOpenLaunchStillAgrees) {
  const char* builderSrc = R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, BF16
from kernels.common._conv_params import emit_problem_params, emit_kloop

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    b.param("B", PtrType(BF16, "global"))
    if spec.wavelet:
        problem = emit_problem_params(b, ("N", "C", "H"))
        emit_kloop(b=b, k_hi=problem["p_N"])
        return b.finish()
    problem = emit_problem_params(b, ("N", "C", "H"))
    return b.finish()
)PY";
  std::map<std::string, std::string> files{{kBuilder, builderSrc}, {kHelper, kHelperSrc}};
  TreeFacts t;
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, builderSrc));
  follow(t, files);
  const PyBuilder* b = builderNamed(t, kBuilder, "build_conv");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 2u);  // the early return's list and the one that falls through
  const PyAbi* wavelet = b->abis[0].tailHelper.empty() ? &b->abis[1] : &b->abis[0];
  EXPECT_TRUE((wavelet == &b->abis[0] ? b->abis[1] : b->abis[0]).tailHelper.empty());
  EXPECT_EQ(wavelet->args.size(), 5u);
  EXPECT_EQ(wavelet->tailHelper.rfind("emit_kloop", 0), 0u) << wavelet->tailHelper;
  EXPECT_TRUE(wavelet->tailModule.empty()) << wavelet->tailModule;
  CppArgList launch;
  launch.form = CppArgList::Form::Launch;
  for (int i = 0; i < 2; ++i) {
    KernelArg a;
    a.kind = "global_buffer";
    a.size = 8;
    launch.args.push_back(a);
  }
  launch.openTail = "the trailing parameter pack values... (from a std::variant)";
  Comparison c = compareCopy(*b, launch);
  EXPECT_NE(c.outcome, Comparison::Outcome::Disagree) << c.message;
}

// After following: the entry's two lists, build_conv's read through it and its helper in a third
// module, build_direct's (its module not in the tree) named, never guessed, under `is_direct`.
void expectReadThroughConv(const TreeFacts& t) {
  const PyBuilder* entry = builderNamed(t, kEntry, "build_entry");
  ASSERT_NE(entry, nullptr);
  ASSERT_EQ(entry->abis.size(), 2u);
  const PyAbi* conv = nullptr;
  const PyAbi* direct = nullptr;
  for (const PyAbi& a : entry->abis) (a.origin == "build_conv" ? conv : direct) = &a;
  ASSERT_NE(conv, nullptr);
  ASSERT_NE(direct, nullptr);
  std::vector<std::string> got;
  for (const KernelArg& a : conv->args) got.push_back(a.name);
  EXPECT_EQ(got, (std::vector<std::string>{"A", "B", "p_N", "p_C", "p_H"}));
  EXPECT_TRUE(conv->tailHelper.empty());
  EXPECT_NE(pyextract::guardText(conv->when).find("is_direct"), std::string::npos) << pyextract::guardText(conv->when);
  EXPECT_TRUE(direct->args.empty());
  EXPECT_EQ(direct->tailModule, "kernels/common/conv_direct.py");
  EXPECT_EQ(direct->tailHelper, "build_direct");
  EXPECT_NE(pyextract::guardText(direct->when).find("is_direct"), std::string::npos) << pyextract::guardText(direct->when);
}

TEST(CrossModule, AnEntryPointThatDispatchesToBuildersOfOtherModulesIsReadThroughThem) {
  std::map<std::string, std::string> files{{kEntry, kEntrySrc}, {kBuilder, kBuilderSrc}, {kHelper, kHelperSrc}};
  TreeFacts t;
  t.files[kEntry] = std::make_shared<FileFacts>(extractFile(kEntry, kEntrySrc));
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
  const PyBuilder* entry = builderNamed(t, kEntry, "build_entry");
  ASSERT_NE(entry, nullptr) << "per file, the entry point is a builder open at the modules it returns from";
  EXPECT_EQ(builderNamed(t, kEntry, "supports"), nullptr) << "a function returning no call of another module";
  ASSERT_EQ(entry->abis.size(), 2u);
  std::set<std::string> tails;
  for (const PyAbi& a : entry->abis) {
    EXPECT_TRUE(a.args.empty());
    tails.insert(a.tailModule + ":" + a.tailHelper);
  }
  EXPECT_EQ(tails, (std::set<std::string>{"kernels/gfx950/conv.py:build_conv", "kernels/common/conv_direct.py:build_direct"}));

  follow(t, files);
  expectReadThroughConv(t);
}

// The same dispatch written through functions of the entry's own module: `return _pick(...)` at
// the entry runs `_pick` as the entry (a tail call), so each of its returns is the entry's own
// list, open at the module it returns from, and read through it with the tree — the same lists as
// the direct form above (a rewrite, not a change).
TEST(CrossModule, ADispatchThroughFunctionsOfTheSameModuleIsTheSameDispatch) {
  const std::vector<std::pair<const char*, const char*>> forms{
      {"one intermediate", R"PY(
from kernels.gfx950 import conv as _conv
from kernels.common import conv_direct as _direct


def _pick(spec, arch):
    if spec.is_direct:
        return _direct.build_direct(spec.to_direct(), arch=arch)
    return _conv.build_conv(spec.to_instance(), arch=arch)


def build_entry(spec, *, arch="gfx950"):
    if spec.n <= 0:
        raise ValueError("empty")
    return _pick(spec, arch)
)PY"},
      {"two intermediates, keyword arguments", R"PY(
from kernels.gfx950 import conv as _conv
from kernels.common import conv_direct as _direct


def _implicit(spec, *, arch):
    return _conv.build_conv(spec.to_instance(), arch=arch)


def _dispatch(spec, *, arch):
    if not spec.is_direct:
        return _implicit(spec, arch=arch)
    return _direct.build_direct(spec.to_direct(), arch=arch)


def build_entry(spec, *, arch="gfx950"):
    return _dispatch(spec, arch=arch)
)PY"}};
  for (const auto& [what, src] : forms) {
    SCOPED_TRACE(what);
    std::map<std::string, std::string> files{{kEntry, src}, {kBuilder, kBuilderSrc}, {kHelper, kHelperSrc}};
    TreeFacts t;
    t.files[kEntry] = std::make_shared<FileFacts>(extractFile(kEntry, src));
    t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
    const PyBuilder* entry = builderNamed(t, kEntry, "build_entry");
    ASSERT_NE(entry, nullptr) << "per file, the entry is a builder open at the modules it returns from";
    std::set<std::string> tails;
    for (const PyAbi& a : entry->abis) tails.insert(a.tailModule + ":" + a.tailHelper);
    EXPECT_EQ(tails, (std::set<std::string>{"kernels/gfx950/conv.py:build_conv", "kernels/common/conv_direct.py:build_direct"}));
    follow(t, files);
    expectReadThroughConv(t);
  }
}

// A builder that declares its own list and, under a condition, returns another module's kernel
// instead: that early return is a second list of the builder, open at the module per file and read
// through it with the tree (never the own list compared with the other kernel's copies).
TEST(CrossModule, ABuildersEarlyReturnToAnotherModulesBuilderIsReadThroughIt) {
  const std::string path = kLib + "kernels/gfx950/mixed.py";
  const char* src = R"PY(
from rocke.core.ir import IRBuilder, PtrType, I32, F32
from kernels.gfx950 import conv as _conv


def build_mixed(spec, *, arch="gfx950"):
    if spec.use_conv:
        return _conv.build_conv(spec.to_instance())
    b = IRBuilder("mixed")
    b.param("X", PtrType(F32, "global"))
    b.param("n", I32)
    return b.finish()
)PY";
  std::map<std::string, std::string> files{{path, src}, {kBuilder, kBuilderSrc}, {kHelper, kHelperSrc}};
  TreeFacts t;
  t.files[path] = std::make_shared<FileFacts>(extractFile(path, src));
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, kBuilderSrc));
  auto lists = [&]() {
    std::map<std::string, std::string> out;  // origin -> names, then "+module:helper" when open
    const PyBuilder* b = builderNamed(t, path, "build_mixed");
    if (!b) return out;
    for (const PyAbi& a : b->abis) {
      std::string names;
      for (const KernelArg& k : a.args) names += k.name + " ";
      if (!a.tailHelper.empty()) names += "+" + a.tailModule + ":" + a.tailHelper;
      out[a.origin] = names;
    }
    return out;
  };
  EXPECT_EQ(lists(), (std::map<std::string, std::string>{{"build_mixed", "X n "},
                                                         {"build_conv", "+kernels/gfx950/conv.py:build_conv"}}));
  follow(t, files);
  EXPECT_EQ(lists(), (std::map<std::string, std::string>{{"build_mixed", "X n "}, {"build_conv", "A B p_N p_C p_H "}}));
  const PyBuilder* b = builderNamed(t, path, "build_mixed");
  ASSERT_NE(b, nullptr);
  for (const PyAbi& a : b->abis)
    if (a.origin == "build_conv") EXPECT_EQ(pyextract::guardText(a.when), "spec.use_conv");
}

TEST(CrossModule, AFunctionReturningALibraryCallIsNoBuilder) {
  // Returning what another module's function returns is a dispatch only when that function is a
  // builder: a function of a module outside the tree stays open, and one of the tree that builds
  // nothing is not a builder once followed.
  const std::string path = kLib + "builders/common/names.py";
  const char* src = R"PY(
import json
from kernels.common import naming as _naming


def spec_key(spec):
    return json.dumps(spec.to_dict())


def short_name(spec):
    return _naming.short(spec.name)
)PY";
  const std::string naming = kLib + "kernels/common/naming.py";
  std::map<std::string, std::string> files{{path, src}, {naming, "def short(n):\n    return n[:8]\n"}};
  TreeFacts t;
  t.files[path] = std::make_shared<FileFacts>(extractFile(path, src));
  follow(t, files);
  EXPECT_EQ(builderNamed(t, path, "short_name"), nullptr) << "followed: short builds nothing";
  EXPECT_EQ(builderNamed(t, path, "spec_key"), nullptr) << "json is not in the tree: no builder is shown";
}

// What makes a call an open end is what it is, never its name: a function of a module the reader
// cannot see, given the IRBuilder (by position or keyword). Each case: the builder's module, the
// helper module's text ("" when it is not in the tree), the names read per file (then "+" for an
// open end), and the names once the tree is followed.
struct HelperCase {
  const char* what;
  const char* builder;
  const char* helper;
  std::vector<std::string> perFile, followed;
  bool openAfter;
};

const char* kDeclares = R"PY(
from rocke.core.ir import I32

def problem_block(b, names):
    return {n: b.param(f"p_{n}", I32) for n in names}
)PY";

const char* kEmitsCode = R"PY(
def lane_row(b, lane, i):
    return b.add(lane, b.const_i32(i))
)PY";

class HelperKinds : public ::testing::TestWithParam<HelperCase> {};

TEST_P(HelperKinds, AreReadByWhatTheCallIs) {
  const HelperCase& c = GetParam();
  std::map<std::string, std::string> files{{kBuilder, c.builder}};
  if (*c.helper) files[kHelper] = c.helper;
  TreeFacts t;
  t.files[kBuilder] = std::make_shared<FileFacts>(extractFile(kBuilder, c.builder));
  auto read = [&](const TreeFacts& tf) {
    std::vector<std::string> out = names(tf);
    if (!tf.find(kBuilder)->builders.at(0).abis.at(0).tailHelper.empty()) out.push_back("+");
    return out;
  };
  EXPECT_EQ(read(t), c.perFile) << c.what;
  follow(t, files);
  EXPECT_EQ(read(t), c.followed) << c.what;
  EXPECT_EQ(!t.find(kBuilder)->builders.at(0).abis.at(0).tailHelper.empty(), c.openAfter) << c.what;
}

INSTANTIATE_TEST_SUITE_P(
    CrossModule, HelperKinds,
    ::testing::Values(
        HelperCase{"a helper whose name says nothing, given the builder by keyword", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16
from kernels.common._conv_params import problem_block

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    problem = problem_block(names=("N", "C"), b=b)
    return b.finish()
)PY",
                   kDeclares, {"A", "+"}, {"A", "p_N", "p_C"}, false},
        HelperCase{"the same helper, imported relatively", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16
from ..common._conv_params import problem_block

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    problem_block(b, ("N",))
    return b.finish()
)PY",
                   kDeclares, {"A", "+"}, {"A", "p_N"}, false},
        HelperCase{"followed, then open again at a helper of a module not in the tree", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16
from kernels.common._conv_params import problem_block
from kernels.common._not_here import lane_row

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    problem_block(b, ("N",))
    lane_row(b, 0, 0)
    return b.finish()
)PY",
                   kDeclares, {"A", "+"}, {"A", "p_N", "+"}, true},
        HelperCase{"a helper of the tree that emits code, called in a nested function of the kernel", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16, I32
from kernels.common._conv_params import lane_row

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    b.param("n", I32)
    lane = b.lane_id()

    def body(i):
        return b.add(lane, lane_row(b, lane, i))

    body(0)
    return b.finish()
)PY",
                   kEmitsCode, {"A", "n", "+"}, {"A", "n"}, false},
        HelperCase{"the same helper when its module is not in the tree: not guessed", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16, I32
from kernels.common._conv_params import lane_row

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    b.param("n", I32)
    lane = b.lane_id()
    x = lane_row(b, lane, 0)
    return b.finish()
)PY",
                   "", {"A", "n", "+"}, {"A", "n", "+"}, true},
        HelperCase{"rocKE's IR library emits code: no open end", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16, I32
from rocke.helpers.attention import mfma_32x32x8_for_dtype

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    b.param("n", I32)
    mfma_32x32x8_for_dtype(b, "bf16")
    return b.finish()
)PY",
                   "", {"A", "n"}, {"A", "n"}, false},
        HelperCase{"a helper not given the builder: no open end", R"PY(
from rocke.core.ir import IRBuilder, PtrType, BF16, I32
from kernels.common._conv_params import tile_shape

def build_conv(spec):
    b = IRBuilder("conv")
    b.param("A", PtrType(BF16, "global"))
    shape = tile_shape(spec)
    b.param("n", I32)
    return b.finish()
)PY",
                   "", {"A", "n"}, {"A", "n"}, false}));

}  // namespace
}  // namespace impact
