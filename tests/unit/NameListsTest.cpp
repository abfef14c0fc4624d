// Names lists and names arrays: the static evaluator of module-level Python functions that build
// lists of names (extract/python/StaticEval, recorded by NameLists as FileFacts::nameLists), the
// C++ names arrays (extract/cpp/NamesArrays, FileFacts::nameArrays) and their comparison
// (contracts/kernargs/NameLists). The real conv_abi.py is read from ../shared/real-data at test
// time (skipped, saying so, when absent).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "contracts/kernargs/NameLists.h"
#include "extract/Extract.h"
#include "support/RealCorpus.h"

namespace impact {
namespace {

const std::string kAbiPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/common/conv_abi.py";
const std::string kGeometryPath =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdGeometry.hpp";

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const PyNameList* listOf(const FileFacts& f, const std::string& fn) {
  for (const auto& l : f.nameLists)
    if (l.function == fn) return &l;
  return nullptr;
}

std::vector<std::string> words(const std::string& s) { return absl::StrSplit(s, ' ', absl::SkipEmpty()); }

// The real-data README's lists, word for word.
const std::string kFwd =
    "A B D A_bytes B_bytes D_bytes p_N p_Hi p_Wi p_C p_K p_Y p_X p_sH p_sW p_pH p_pW p_dH p_dW p_groups p_Ho p_Wo "
    "p_cpg p_kpg p_K_gemm p_M p_A_stride_n p_A_stride_hi p_A_stride_wi p_B_stride_k p_B_stride_y p_B_stride_x "
    "p_D_stride_n p_D_stride_ho p_D_stride_wo p_magic_m_Ho_mult p_magic_m_Ho_shift p_magic_m_Wo_mult "
    "p_magic_m_Wo_shift p_magic_k_X_mult p_magic_k_X_shift p_magic_k_cpg_mult p_magic_k_cpg_shift p_num_pid_m "
    "p_num_pid_n";
const std::string kDirect =
    "A B D A_bytes B_bytes D_bytes p_N p_Hi p_Wi p_Ho p_Wo p_groups p_total_c p_total_k p_A_stride_n p_A_stride_hi "
    "p_A_stride_wi p_D_stride_n p_D_stride_ho p_D_stride_wo";

TEST(NameLists, RealConvAbiGivesTheFortyFiveForwardAndTwentyDirectNames) {
  IMPACT_REQUIRE_REAL_CORPUS();
  const std::string src = readAll(testing::realCorpusDir() + "/" + kAbiPath);
  ASSERT_FALSE(src.empty());
  FileFacts f = extractFile(kAbiPath, src);
  const PyNameList* fwd = listOf(f, "conv_arg_names");
  ASSERT_NE(fwd, nullptr);
  ASSERT_TRUE(fwd->evaluated) << fwd->reason;
  EXPECT_EQ(fwd->names, words(kFwd));
  ASSERT_EQ(fwd->kinds.size(), 45u);
  EXPECT_EQ(fwd->kinds[0], "a");
  EXPECT_EQ(fwd->kinds[44], "i32");
  // The magic names are written once, as f-strings in _magic: their site is that f-string.
  ASSERT_EQ(fwd->sites.size(), 45u);
  EXPECT_EQ(fwd->sites[35].line, fwd->sites[37].line);
  const PyNameList* direct = listOf(f, "conv_direct_arg_names");
  ASSERT_NE(direct, nullptr);
  ASSERT_TRUE(direct->evaluated) << direct->reason;
  EXPECT_EQ(direct->names, words(kDirect));
  // conv_fwd_problem_block is the forward list without its six leading names (a slice by the
  // module-level _LEADING_ARGS).
  const PyNameList* block = listOf(f, "conv_fwd_problem_block");
  ASSERT_NE(block, nullptr);
  ASSERT_TRUE(block->evaluated) << block->reason;
  EXPECT_EQ(block->names, std::vector<std::string>(fwd->names.begin() + 6, fwd->names.end()));
  // Lists of dicts are not names lists: said, not guessed.
  const PyNameList* sig = listOf(f, "conv_args_signature");
  ASSERT_NE(sig, nullptr);
  EXPECT_FALSE(sig->evaluated);
  EXPECT_EQ(sig->reason, "not a names list: element #0 is a dict");
  // Functions with a required parameter are not evaluated on their own.
  EXPECT_EQ(listOf(f, "_dims"), nullptr);
  EXPECT_EQ(listOf(f, "conv_desc_names"), nullptr);
}

TEST(NameLists, RealGeometryHeaderHoldsTwoNamesArrays) {
  IMPACT_REQUIRE_REAL_CORPUS();
  const std::string src = readAll(testing::realCorpusDir() + "/" + kGeometryPath);
  ASSERT_FALSE(src.empty());
  FileFacts f = extractFile(kGeometryPath, src);
  ASSERT_EQ(f.nameArrays.size(), 2u);
  EXPECT_EQ(f.nameArrays[0].variable, "IMPLICIT_GEMM_KERNARG_NAMES");
  EXPECT_EQ(f.nameArrays[0].form, CppArgList::Form::Names);
  std::vector<std::string> names;
  for (const auto& a : f.nameArrays[0].args) names.push_back(a.name);
  const std::vector<std::string> fwd = words(kFwd);
  EXPECT_EQ(names, std::vector<std::string>(fwd.begin() + 6, fwd.end()));
  EXPECT_EQ(f.nameArrays[1].variable, "DIRECT_KERNARG_NAMES");
  EXPECT_EQ(f.nameArrays[1].args.size(), 14u);
  // Not a KernelArgument list: the kernargs pairing does not see them.
  for (const auto& l : f.lists) EXPECT_NE(l.form, CppArgList::Form::Names);
}

FileFacts py(const std::string& src) { return extractFile("rocke/library/kernels/common/abi.py", src); }

TEST(NameLists, OwnSampleWithLoopsConditionsCallsAndSlices) {
  FileFacts f = py(R"py(
LEAD = 2
_EXTRA = ("x", "y")


def _pair(prefix: str, names):
    out = []
    for n in names:
        out.append((f"{prefix}{n}_a", "i32"))
    return out


def names(*, wide: bool = False, mode: str = "fwd") -> list:
    """Docstring."""
    out: list = [("P", "ptr"), ("Q", "ptr")]  # leading
    out += [("n0", "i32")]
    if wide and mode != "bwd":
        out += [("wide", "i32")]
    elif mode in ("fwd", "both"):
        out += _pair("m_", ["H"] + (["D"] if wide else []))
    else:
        raise ValueError(f"bad {mode!r}")
    out.extend([(e, "i32") for e in []] if False else [])
    out = out + [(s, "i32") for s in ()] if wide else out
    return out


def tail() -> list:
    return names(mode="both")[LEAD:]


def plain():
    return ["a", "b"] + list(_EXTRA)


def comprehension():
    return [(f"{n}_stride", "i32") for n in ("a", "b") if n != "c"] + [(n, k) for n, k in {"c": "ptr"}.items()]
)py");
  const PyNameList* n = listOf(f, "names");
  ASSERT_NE(n, nullptr);
  ASSERT_TRUE(n->evaluated) << n->reason;
  EXPECT_EQ(absl::StrJoin(n->names, " "), "P Q n0 m_H_a");
  const PyNameList* t = listOf(f, "tail");
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->evaluated) << t->reason;
  EXPECT_EQ(absl::StrJoin(t->names, " "), "n0 m_H_a");
  const PyNameList* p = listOf(f, "plain");
  ASSERT_NE(p, nullptr);
  ASSERT_TRUE(p->evaluated) << p->reason;
  EXPECT_EQ(absl::StrJoin(p->names, " "), "a b x y");
  EXPECT_TRUE(p->kinds.empty());
  // The one evaluator of the Python side reads comprehensions, as it does in a builder.
  const PyNameList* c = listOf(f, "comprehension");
  ASSERT_NE(c, nullptr);
  ASSERT_TRUE(c->evaluated) << c->reason;
  EXPECT_EQ(absl::StrJoin(c->names, " "), "a_stride b_stride c");
  EXPECT_EQ(absl::StrJoin(c->kinds, " "), "i32 i32 ptr");
}

TEST(NameLists, WhatItDoesNotReadIsSaidNeverGuessed) {
  FileFacts f = py(R"py(
import os

MODE = "fwd"
MODE = "bwd"


def raises(direction="up"):
    if direction == "up":
        raise ValueError("no")
    return ["a"]


def imported():
    return [os.sep]


def rebound():
    return [MODE]


def conditional(n=None):
    out = ["a"]
    if n.wide:
        out.append("b")
    return out


def mixed():
    return ["a", ("b", "i32")]


def forever(n=0):
    return forever(n + 1)


def scalar():
    return 3


def extended():
    out = ["a"]
    out.extend(os.environ["EXTRA"].split(","))
    return out
)py");
  auto reason = [&](const char* fn) {
    const PyNameList* l = listOf(f, fn);
    EXPECT_NE(l, nullptr) << fn;
    if (!l) return std::string();
    EXPECT_FALSE(l->evaluated) << fn;
    EXPECT_TRUE(l->names.empty()) << fn;
    return l->reason;
  };
  EXPECT_EQ(reason("raises"), "not evaluable: reaches `raise ValueError(\"no\")`");
  EXPECT_EQ(reason("imported"), "not evaluable: element #0 is not known (os:sep, imported)");
  EXPECT_EQ(reason("rebound"), "not evaluable: element #0 is not known ('MODE' is bound 2 times at module level)");
  EXPECT_EQ(reason("conditional"), "not evaluable: element #1 is added only when n.wide");
  EXPECT_EQ(reason("mixed"), "not a names list: it mixes names and (name, kind) tuples");
  // Recursion runs as Python runs it, to the call-depth limit (issue 36 item 2).
  EXPECT_EQ(reason("forever"), "not evaluable: a recursive call of forever past the depth limit");
  EXPECT_EQ(reason("scalar"), "not a names list: returns an int");
  // Extended by elements it cannot know: said, never a list silently one element long.
  EXPECT_EQ(reason("extended").rfind("not evaluable: element #1 is not known", 0), 0u) << reason("extended");
}

TEST(NameLists, LoopsAreBoundedBySteps) {
  FileFacts f = py(R"py(
def grow():
    out = ["a"]
    for _ in out:
        out.append("a")
    return out
)py");
  // The loop reads the list as it was when it started: one pass.
  const PyNameList* l = listOf(f, "grow");
  ASSERT_NE(l, nullptr);
  ASSERT_TRUE(l->evaluated) << l->reason;
  EXPECT_EQ(l->names.size(), 2u);
  // Six nested loops over ten names: a million steps, cut at the bound.
  std::string big = "XS = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\", \"j\"]\n\n\ndef big():\n";
  std::string indent = "    ";
  for (int i = 0; i < 6; ++i, indent += "    ") big += indent + "for v" + std::to_string(i) + " in XS:\n";
  big += indent + "pass\n    return XS\n";
  FileFacts g = py(big);
  const PyNameList* b = listOf(g, "big");
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->evaluated);
  EXPECT_EQ(b->reason, "not evaluable: the step limit (400000)");
}

TEST(NameLists, NamesArraysOfEveryStringForm) {
  FileFacts f = extractFile("src/packs/Names.hpp", R"cpp(
#include <array>
#include <string_view>
namespace conv {
constexpr std::array<std::string_view, 3> VIEW_NAMES{"p_N", "p_Hi", "p_Wi"};
inline constexpr std::array<const char*, 2> PTR_NAMES = {"a", "b"};
static const char* const C_NAMES[] = {"c", "d"};
struct Table {
  static constexpr std::array<std::string_view, 2> MEMBER{"x", "y"};
};
constexpr std::array<int, 2> NOT_NAMES{1, 2};
constexpr std::array<std::string_view, 2> NOT_ALL_LITERALS{"a", OTHER};
constexpr std::array<std::string_view, 1> ESCAPED{"a\n"};
}  // namespace conv
)cpp");
  std::vector<std::string> got;
  for (const auto& a : f.nameArrays) {
    std::vector<std::string> names;
    for (const auto& x : a.args) names.push_back(x.name);
    got.push_back(a.variable + "=" + absl::StrJoin(names, ","));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"VIEW_NAMES=p_N,p_Hi,p_Wi", "PTR_NAMES=a,b", "C_NAMES=c,d", "MEMBER=x,y"}));
}

PyNameList listNamed(const std::string& fn, const std::string& names) {
  PyNameList l;
  l.function = fn;
  l.evaluated = true;
  l.names = words(names);
  return l;
}

CppArgList arrayNamed(const std::string& names) {
  CppArgList a;
  a.form = CppArgList::Form::Names;
  a.variable = "NAMES";
  for (const auto& n : words(names)) {
    KernelArg k;
    k.name = n;
    a.args.push_back(k);
  }
  return a;
}

TEST(NameLists, ComparisonNamesThePositionsThatDiffer) {
  PyNameList l = listNamed("abi", "A B n h w c");
  NamesComparison same = compareNames(l, arrayNamed("n h w c"), nullptr);
  EXPECT_TRUE(same.agree);
  EXPECT_EQ(same.leading, words("A B"));
  NamesComparison swap = compareNames(l, arrayNamed("n w h c"), nullptr);
  EXPECT_FALSE(swap.agree);
  EXPECT_EQ(swap.message, "order differs from abi after its 2 leading (A, B) at 2 positions: abi #3 h, NAMES[1] w; #4 w, [2] h");
  EXPECT_EQ(swap.focusList, 3);
  EXPECT_EQ(swap.focusArray, 1);
  NamesComparison extra = compareNames(l, arrayNamed("n h w c z"), nullptr);
  EXPECT_EQ(extra.message, "NAMES has 5 names, abi has 4 after its 2 leading (A, B): not in the list: z ([4])");
  NamesComparison missing = compareNames(l, arrayNamed("n h c"), nullptr);
  EXPECT_EQ(missing.message, "NAMES has 3 names, abi has 4 after its 2 leading (A, B): missing from the array: w (#4)");
  // A name added before the array's first: with the base's leading names it is a difference.
  PyNameList grown = listNamed("abi", "A B x n h w c");
  std::vector<std::string> base = words("A B");
  EXPECT_FALSE(compareNames(grown, arrayNamed("n h w c"), &base).agree);
  EXPECT_TRUE(compareNames(grown, arrayNamed("n h w c"), nullptr).agree);
}

}  // namespace
}  // namespace impact
