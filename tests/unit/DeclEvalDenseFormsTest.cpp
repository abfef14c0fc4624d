// The builder evaluator on the real gfx950 dense builder (../shared/real-data/rocke-cpu, read at
// test time) rewritten in the forms issue 36 found dropped without a word: the four tensor
// pointers declared through a `**flags` spread of a module table, `itertools.starmap`, a closure
// factory over `getattr(b, "param")`, and `operator.methodcaller("param", ...)(b)`. Each rewrite
// declares the same arguments in the same order (checked by running both versions of the builder
// with Python against the real rocKE package); the evaluator must read the same lists, and where
// a form stays unmodelled the list is open there, never shorter.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "extract/Extract.h"
#include "support/FixtureRepo.h"

namespace impact {
namespace {

constexpr const char* kDense = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/attention_dense.py";
constexpr const char* kEntry = "build_attention_dense";
// The four pointer declarations of build_attention_dense, as the real file writes them.
constexpr const char* kFirst = "    q = b.param(\n";
constexpr const char* kAfter = "    scale = b.param(\"scale\", F32)\n";

std::string readDense() {
  std::string shared = testing::sharedDir();
  if (shared.empty()) return "";
  std::ifstream in(shared + "/real-data/rocke-cpu/" + kDense);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

#define REQUIRE_DENSE(src)                                                              \
  std::string src = readDense();                                                        \
  if (src.empty()) GTEST_SKIP() << "../shared/real-data/rocke-cpu is absent: real code not checked"

// Every list of the builder: "q_ptr:global_buffer/8:" per argument (its type class depends on the
// spec's dtype), then "... open: <helper>" when the list is open.
std::vector<std::string> lists(const FileFacts& f) {
  for (const PyBuilder& b : f.builders)
    if (b.name == kEntry) {
      if (!b.notRead.empty()) return {"NOT READ: " + b.notRead};
      std::vector<std::string> out;
      for (const PyAbi& abi : b.abis) {
        out.push_back("-- list " + abi.origin);
        for (const KernelArg& a : abi.args)
          out.push_back((a.name.empty() ? "?" : a.name) + ":" + a.kind + "/" + std::to_string(a.size) +
                        (a.conditional ? " if " + a.condition : "") + (a.resolved ? "" : " UNRESOLVED"));
        if (!abi.tailHelper.empty()) out.push_back("... open: " + abi.tailHelper);
      }
      return out;
    }
  return {"<no builder>"};
}

// The real file with the first builder's four pointer declarations replaced by `body` (indented
// as the builder's statements), `helpers` inserted before the builder and `imports` after the
// file's own imports. Written to $IMPACT_DUMP_REWRITES/<tag>.py when that is set, to be run.
std::string rewrite(std::string src, const std::string& tag, const std::string& body, const std::string& helpers = "",
                    const std::string& imports = "") {
  size_t from = src.find(kFirst), to = src.find(kAfter);
  if (from == std::string::npos || to == std::string::npos || to < from) return "";
  src.replace(from, to - from, body);
  size_t def = src.find(std::string("def ") + kEntry + "(");
  src.insert(def, helpers + "\n\n");
  size_t imp = src.find("from rocke.core.ir import");
  src.insert(imp, imports);
  if (const char* dir = std::getenv("IMPACT_DUMP_REWRITES")) std::ofstream(std::string(dir) + "/" + tag + ".py") << src;
  return src;
}

std::vector<std::string> readAs(const std::string& src) { return lists(extractFile(kDense, src)); }

class DeclEvalDenseForms : public ::testing::Test {};

TEST_F(DeclEvalDenseForms, TheRealBuilderReadsItsNineArguments) {
  REQUIRE_DENSE(real);
  auto orig = readAs(real);
  ASSERT_GE(orig.size(), 10u) << orig[0];
  EXPECT_EQ(orig[1], "q_ptr:global_buffer/8");
  EXPECT_EQ(orig[5], "scale:by_value/4");
}

// `b.param(name, ptr, noalias=True, **flags, align=16)` in a loop, flags a per-tensor dict of a
// module table.
TEST_F(DeclEvalDenseForms, AFlagsSpreadOfAModuleTableInALoop) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "flags",
                            "    ptrs = []\n"
                            "    for name in _TENSORS:\n"
                            "        flags = _TENSOR_FLAGS[name]\n"
                            "        ptrs.append(b.param(name, PtrType(dtype, \"global\"), noalias=True, **flags, align=16))\n"
                            "    q, k, v, o = ptrs\n",
                            "_TENSORS = (\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\")\n"
                            "_TENSOR_FLAGS = {\n"
                            "    \"q_ptr\": {\"readonly\": True},\n"
                            "    \"k_ptr\": {\"readonly\": True},\n"
                            "    \"v_ptr\": {\"readonly\": True},\n"
                            "    \"o_ptr\": {\"writeonly\": True},\n"
                            "}\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// The same spread of a dict built per tensor by a call the evaluator cannot read: each
// declaration is still an entry at its position (its name known), never dropped.
TEST_F(DeclEvalDenseForms, AFlagsSpreadOfAnUnknownDictKeepsEveryEntry) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "flags_unknown",
                            "    ptrs = []\n"
                            "    for name in (\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\"):\n"
                            "        flags = _os.environ.get(name) or {}\n"
                            "        ptrs.append(b.param(name, PtrType(dtype, \"global\"), noalias=True, **flags, align=16))\n"
                            "    q, k, v, o = ptrs\n");
  ASSERT_FALSE(src.empty());
  auto got = readAs(src);
  auto want = readAs(real);
  ASSERT_EQ(got.size(), want.size()) << ::testing::PrintToString(got);
  for (size_t i = 1; i <= 4; ++i) EXPECT_EQ(got[i].rfind(want[i].substr(0, 5), 0), 0u) << got[i];
  for (size_t i = 5; i < got.size(); ++i) EXPECT_EQ(got[i], want[i]);
}

// `itertools.starmap(declare, zip(NAMES, types))`, declare a local function over b.
TEST_F(DeclEvalDenseForms, ItertoolsStarmapOfALocalDeclarer) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "starmap",
                            "    types = [PtrType(dtype, \"global\")] * len(_NAMES)\n"
                            "\n"
                            "    def declare(name, ty):\n"
                            "        return b.param(name, ty, noalias=True, align=16)\n"
                            "\n"
                            "    q, k, v, o = itertools.starmap(declare, zip(_NAMES, types))\n",
                            "_NAMES = (\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\")\n", "import itertools\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// A closure factory over `getattr(b, "param")`.
TEST_F(DeclEvalDenseForms, AClosureFactoryOverGetattrParam) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "factory",
                            "    declare = _declarer(b, noalias=True, align=16)\n"
                            "    q = declare(\"q_ptr\", PtrType(dtype, \"global\"))\n"
                            "    k = declare(\"k_ptr\", PtrType(dtype, \"global\"))\n"
                            "    v = declare(\"v_ptr\", PtrType(dtype, \"global\"))\n"
                            "    o = declare(\"o_ptr\", PtrType(dtype, \"global\"))\n",
                            "def _declarer(b, **flags):\n"
                            "    p = getattr(b, \"param\")\n"
                            "\n"
                            "    def declare(name, ty):\n"
                            "        return p(name, ty, **flags)\n"
                            "\n"
                            "    return declare\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// `operator.methodcaller("param", name, ty)(b)`.
TEST_F(DeclEvalDenseForms, OperatorMethodcallerOfParam) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "methodcaller",
                            "    q, k, v, o = (\n"
                            "        operator.methodcaller(\"param\", n, PtrType(dtype, \"global\"), noalias=True, align=16)(b)\n"
                            "        for n in (\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\")\n"
                            "    )\n",
                            "", "import operator\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// A call of a library the evaluator does not model, given the declaring function: the list is
// open there, named, never four arguments shorter.
TEST_F(DeclEvalDenseForms, AnUnmodelledLibraryCallGivenTheDeclarerOpensTheList) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "unmodelled",
                            "    def declare(name):\n"
                            "        return b.param(name, PtrType(dtype, \"global\"), noalias=True, align=16)\n"
                            "\n"
                            "    q, k, v, o = more_itertools.map_except(declare, _NAMES)\n",
                            "_NAMES = (\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\")\n", "import more_itertools\n");
  ASSERT_FALSE(src.empty());
  auto got = readAs(src);
  ASSERT_GE(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], "-- list build_attention_dense");
  EXPECT_EQ(got[1].rfind("... open: map_except", 0), 0u) << ::testing::PrintToString(got);
}

// Issue 36 item 2: the forms the metamorphic catalogue found read short (a shorter list with no
// open end), now read exactly (each rewrite below declares what the real builder does, checked by
// running both with Python against the real rocKE package of rocke-cpu, dense spec with and
// without varlen). `collections.namedtuple` records: fields named by a string, a `defaults=`,
// `_make`, field access, indexing, unpacking and `_replace`.
TEST_F(DeclEvalDenseForms, CollectionsNamedtupleRecords) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "namedtuple",
                            "    ptrs = []\n"
                            "    for rec in (_Ptr(n, dtype) for n in (\"q_ptr\", \"k_ptr\", \"v_ptr\")):\n"
                            "        ptrs.append(b.param(rec.name, PtrType(rec[1], \"global\"), noalias=True, align=16, **rec.flags))\n"
                            "    name, ty, flags = _Ptr._make((\"v_ptr\", dtype, {\"writeonly\": True}))._replace(name=\"o_ptr\")\n"
                            "    ptrs.append(b.param(name, PtrType(ty, \"global\"), noalias=True, align=16, **flags))\n"
                            "    q, k, v, o = ptrs\n",
                            "_Ptr = collections.namedtuple(\"_Ptr\", \"name dtype flags\", defaults=({\"readonly\": True},))\n",
                            "import collections\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// The same records as a list of field names, their fields iterated and named by `_fields`.
TEST_F(DeclEvalDenseForms, NamedtupleFieldsIteratedAndAsDict) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "namedtuple_fields",
                            "    names = _Names(\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\")\n"
                            "    assert names._fields == (\"q\", \"k\", \"v\", \"o\")\n"
                            "    declared = {f: b.param(n, PtrType(dtype, \"global\"), noalias=True, align=16)\n"
                            "                for f, n in names._asdict().items()}\n"
                            "    q, k, v, o = (declared[f] for f in names._fields)\n",
                            "_Names = collections.namedtuple(\"_Names\", [\"q\", \"k\", \"v\", \"o\"])\n",
                            "import collections\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// `while (x := next(it, None)) is not None:` over a known iterator.
TEST_F(DeclEvalDenseForms, WhileOverAnIteratorWithTheWalrus) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "walrus",
                            "    ptrs = []\n"
                            "    names = iter((\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\"))\n"
                            "    while (name := next(names, None)) is not None:\n"
                            "        ptrs.append(b.param(name, PtrType(dtype, \"global\"), noalias=True, align=16))\n"
                            "    q, k, v, o = ptrs\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// `next()` taking the first elements of an iterator, a `for` the rest.
TEST_F(DeclEvalDenseForms, NextThenAForOverTheSameIterator) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "next_for",
                            "    names = iter([\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\"])\n"
                            "    q = b.param(next(names), PtrType(dtype, \"global\"), noalias=True, align=16)\n"
                            "    k = b.param(next(names), PtrType(dtype, \"global\"), noalias=True, align=16)\n"
                            "    rest = []\n"
                            "    for name in names:\n"
                            "        rest.append(b.param(name, PtrType(dtype, \"global\"), noalias=True, align=16))\n"
                            "    v, o = rest\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// The names as a `typing.Literal` alias's values read back by `typing.get_args` (the form of the
// real gfx950 gdn_decode.py: `DType = Literal["f16", "bf16"]`, `GDN_DTYPES = get_args(DType)`).
TEST_F(DeclEvalDenseForms, NamesAsTypingGetArgsOfALiteral) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "literal",
                            "    q, k, v, o = (b.param(n, PtrType(dtype, \"global\"), noalias=True, align=16)\n"
                            "                  for n in get_args(_Ptrs))\n",
                            "_Ptrs = Literal[\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\"]\n",
                            "from typing import Literal, get_args\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// Recursion over a list, ending where the list does.
TEST_F(DeclEvalDenseForms, RecursionOverAList) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "recursion",
                            "    q, k, v, o = _declare_all(b, (\"q_ptr\", \"k_ptr\", \"v_ptr\", \"o_ptr\"), dtype)\n",
                            "def _declare_all(b, names, ty):\n"
                            "    if not names:\n"
                            "        return []\n"
                            "    first = b.param(names[0], PtrType(ty, \"global\"), noalias=True, align=16)\n"
                            "    return [first] + _declare_all(b, names[1:], ty)\n");
  ASSERT_FALSE(src.empty());
  EXPECT_EQ(readAs(src), readAs(real));
}

// Recursion whose end the evaluation cannot know (it ends on the spec): past the call-depth
// limit the builder is not read, with the reason — never a shorter list.
TEST_F(DeclEvalDenseForms, RecursionPastTheDepthLimitIsNotRead) {
  REQUIRE_DENSE(real);
  std::string src = rewrite(real, "recursion_unbounded",
                            "    q, k, v, o = _declare_n(b, 0, spec.head_dim)\n",
                            "def _declare_n(b, i, n):\n"
                            "    if i == n:\n"
                            "        return []\n"
                            "    return [b.param(f\"p{i}\", I32)] + _declare_n(b, i + 1, n)\n");
  ASSERT_FALSE(src.empty());
  auto got = readAs(src);
  ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
  EXPECT_NE(got[0].find("NOT READ: "), std::string::npos) << got[0];
  EXPECT_NE(got[0].find("recursion: _declare_n calls itself deeper than"), std::string::npos) << got[0];
}

}  // namespace
}  // namespace impact
