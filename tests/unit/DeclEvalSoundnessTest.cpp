// Soundness of the builder evaluator (issue 36, item 1): the IRBuilder and every value derived
// from it are tracked; an operation the evaluator does not model that receives one opens the
// list where it runs, with the reason — never a list shorter than the truth without an open end.
// A `b.param` call whose arguments cannot be evaluated is an entry at its position, never dropped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/x.py";

const char* kHeader = R"PY(
import functools
import itertools
import operator
from rocke.core.ir import IRBuilder, PtrType, I32, F32, BF16
)PY";

FileFacts run(const std::string& body) { return extractFile(kPath, std::string(kHeader) + body); }

// "q_ptr" per argument of the first list ("?" when its name is not known, "~" appended when it is
// not resolved), then "open: <helper>" when the list is open; "NOT READ: ..." / "<no builder>".
std::vector<std::string> list(const FileFacts& f, const std::string& name = "build_x") {
  for (const PyBuilder& b : f.builders)
    if (b.name == name) {
      if (!b.notRead.empty()) return {"NOT READ: " + b.notRead};
      if (b.abis.empty()) return {"<no list>"};
      std::vector<std::string> out;
      for (const KernelArg& a : b.abis[0].args) out.push_back((a.name.empty() ? "?" : a.name) + (a.resolved ? "" : "~"));
      if (!b.abis[0].tailHelper.empty()) out.push_back("open: " + b.abis[0].tailHelper);
      return out;
    }
  return {"<no builder>"};
}

using V = std::vector<std::string>;

TEST(DeclEvalSoundness, AnUnknownLibraryCallGivenAClosureOverTheBuilderOpensTheList) {
  auto f = run(R"PY(
import more_itertools

def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    def declare(name):
        return b.param(name, I32)
    more_itertools.side_effect(declare, ["q", "k"])
    b.param("n", I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"a", "open: side_effect"}));
}

TEST(DeclEvalSoundness, AStandardLibraryFunctionItDoesNotModelIsNamedAsSuch) {
  auto f = run(R"PY(
import contextlib

def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    with contextlib.ExitStack() as st:
        st.callback(functools.partial(b.param, "z", I32))
    b.param("n", I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"a", "open: st.callback (a call it cannot follow: the attribute st.callback)"}))
      << ::testing::PrintToString(list(f));
  auto g = run(R"PY(
import contextlib

def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    contextlib.suppress(b)
    b.param("n", I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(g), (V{"a", "open: suppress(...) (a call of contextlib.suppress the evaluator does not model)"}));
}

TEST(DeclEvalSoundness, AnOpaqueDecoratorOfALocalDeclarerOpensTheList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)

    @spec.register
    def declare():
        return b.param("q", I32)

    declare()
    return b.finish()
)PY");
  auto got = list(f);
  ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], "a");
  EXPECT_EQ(got[1].rfind("open: spec.register", 0), 0u) << got[1];
}

TEST(DeclEvalSoundness, AWrappingDecoratorOfTheModuleIsFollowed) {
  auto f = run(R"PY(
def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper

def build_x(spec):
    b = IRBuilder("x")

    @logged
    def declare(name, ty):
        return b.param(name, ty)

    declare("q", PtrType(BF16, "global"))
    declare("n", I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"q", "n"}));
}

TEST(DeclEvalSoundness, ExecWhereTheBuilderIsOpensTheList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    exec("b.param('q', I32)")
    b.param("n", I32)
    return b.finish()
)PY");
  auto got = list(f);
  ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[1].rfind("open: exec(...)", 0), 0u) << got[1];
}

TEST(DeclEvalSoundness, TheBuilderStoredInAnObjectItDoesNotModelOpensTheList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    holder = spec.make_holder()
    holder.declarer = b.param
    holder.run()
    return b.finish()
)PY");
  auto got = list(f);
  ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[1].rfind("open: ", 0), 0u) << got[1];
}

// The IRBuilder object given to a function of the spec (not a parameter of the entry: no hook):
// the list opens there when a declaration follows it (a builder's kernel code calls many such
// functions with the IRBuilder after its last declaration, and declares nothing there).
TEST(DeclEvalSoundness, TheBuilderGivenToAFunctionOfTheSpecOpensTheListBeforeADeclaration) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    ctx = spec.make_context(b)
    b.param("q_ptr", PtrType(BF16, "global"))
    spec.epilogue(b)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"open: spec.make_context (a call it cannot follow: spec.make_context)"}));
}

TEST(DeclEvalSoundness, AParamCallOnAnUnknownReceiverAfterDeclarationsOpensTheList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    spec.kernel_builder().param("q", I32)
    b.param("n", I32)
    return b.finish()
)PY");
  auto got = list(f);
  ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_NE(got[1].find("its receiver is not known"), std::string::npos) << got[1];
}

TEST(DeclEvalSoundness, AParamCallWithASpreadNotKnownIsAnEntryAtItsPosition) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    b.param("q", PtrType(BF16, "global"), **spec.flags)
    b.param(*spec.scalar)
    b.param("n", I32)
    return b.finish()
)PY");
  auto got = list(f);
  EXPECT_EQ(got, (V{"a", "q", "*spec.scalar~", "n"})) << ::testing::PrintToString(got);
  const KernelArg& q = f.builders.at(0).abis.at(0).args.at(1);
  EXPECT_TRUE(q.resolved) << "name and type given before the spread: the spread cannot change them";
  EXPECT_EQ(q.kind, "global_buffer");
  const KernelArg& s = f.builders.at(0).abis.at(0).args.at(2);
  EXPECT_NE(s.unresolvedReason.find("spec.scalar"), std::string::npos) << s.unresolvedReason;
}

TEST(DeclEvalSoundness, AClosureOverABoundParamIsADeclarerInTheBuildersTail) {
  // `p = getattr(b, "param")` in a factory: the closure's text has no `.param`, yet calling it declares.
  auto f = run(R"PY(
def _declarer(b):
    p = getattr(b, "param")
    return lambda name: p(name, I32)

def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    d = _declarer(b)
    d("q")
    d("n")
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"a", "q", "n"}));
}

TEST(DeclEvalSoundness, StandardLibraryFormsReadExactly) {
  auto f = run(R"PY(
NAMES = ("q", "k", "v")

def build_x(spec):
    b = IRBuilder("x")
    ptr = PtrType(BF16, "global")
    list(itertools.starmap(b.param, zip(NAMES, itertools.repeat(ptr))))
    for n in itertools.chain(["s0"], itertools.islice(["s1", "s2", "s3"], 1, 3)):
        operator.methodcaller("param", n, I32)(b)
    get = operator.itemgetter("x")
    b.param(get({"x": "m"}), I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"q", "k", "v", "s0", "s2", "s3", "m"}));
}

TEST(DeclEvalSoundness, ReduceSortedByKeyAndSimpleNamespaceReadExactly) {
  auto f = run(R"PY(
import types

ARGS = [("n", 2), ("q", 0), ("k", 1)]

def build_x(spec):
    b = IRBuilder("x")
    ns = types.SimpleNamespace(b=b, ty=I32)
    for name, _ in sorted(ARGS, key=lambda a: a[1]):
        ns.b.param(name, ns.ty)
    functools.reduce(lambda acc, n: acc + [b.param(n, F32)], ["s", "t"], [])
    setattr(ns, "last", "z")
    if hasattr(ns, "last"):
        b.param(ns.last, I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"q", "k", "n", "s", "t", "z"}));
}

// Issue 36 item 2: the IRBuilder object alone given to a call it cannot follow opens the list
// there, whether or not a declaration follows (before, the list stayed closed when nothing was
// declared after the call: a silent drop of whatever the call declares).
TEST(DeclEvalSoundness, TheBuilderAloneGivenToACallItCannotFollowOpensTheListWithNothingAfterIt) {
  auto f = run(R"PY(
def _declare(b, spec):
    b.param("q_ptr", PtrType(BF16, "global"))
    spec.finish_params(b)


def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    _declare(b, spec)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"a", "q_ptr", "open: spec.finish_params (a call it cannot follow: spec.finish_params)"}));
}

// The builder's last statement gives it to a helper of a module that is not in the tree: open
// there, with nothing declared after it.
TEST(DeclEvalSoundness, AnUnseenHelperGivenTheBuilderAsTheLastStatementOpensTheList) {
  auto f = run(R"PY(
from kernels.common.extra_params import finish_params


def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    b.param("n", I32)
    finish_params(b)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"a", "n", "open: finish_params"}));
}

// The builder's own last statement gives it to a call whose callee the evaluator cannot know — a
// method of a parameter it cannot read, a name bound nowhere it reads — with nothing that can
// declare in that statement: the list opens there (the kernel code after the last declaration is
// not run, so the call was never met).
TEST(DeclEvalSoundness, TheBuildersLastStatementHandingItToAnUnknownCallOpensTheList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    b.param("n", I32)
    spec.epilogue(b)
    return b.kernel
)PY");
  EXPECT_EQ(list(f), (V{"a", "n", "open: spec.epilogue (a call it cannot follow: spec.epilogue)"}));
  auto g = run(R"PY(
from kernels.common.helpers import *


def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    unknown_helper(b, 4)
    return b.kernel
)PY");
  ASSERT_EQ(list(g).size(), 2u) << list(g).back();
  EXPECT_EQ(list(g)[0], "a");
  EXPECT_NE(list(g)[1].find("open: unknown_helper (a call it cannot follow: 'unknown_helper' is never bound)"),
            std::string::npos)
      << list(g)[1];
}

// Kernel code after the last declaration that hands the builder only to what the evaluator knows
// — the builder's own methods, the module's functions that cannot declare, rocKE's IR library
// (an object of it bound in the kernel code), builtins — leaves the list closed.
TEST(DeclEvalSoundness, KernelCodeHandingTheBuilderToKnownCalleesLeavesTheListClosed) {
  auto f = run(R"PY(
from rocke.helpers.layouts import TransposeLdsReader


def _mfma_row(b, lane, r):
    return b.add(lane, b.const_i32(r))


def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    b.param("n", I32)
    lane = b.lane_id()
    reader = TransposeLdsReader(K=32, M=16).bind(b, lane)
    row = _mfma_row(b, lane, 0)
    for k in range(4):
        v = reader.row(b, k_offset=k)
        print(b, v)
    return b.kernel
)PY");
  EXPECT_EQ(list(f), (V{"a", "n"}));
  // An object of rocKE's library made differently on two paths (the real tiled builder's
  // `q_desc`) is still one: its method given the builder in the tail leaves the list closed.
  auto g = run(R"PY(
from rocke.helpers.transforms import TensorDescriptor


def build_x(spec):
    b = IRBuilder("x")
    if spec.wide:
        desc = TensorDescriptor.naive("Q", lengths=[8])
    else:
        desc = TensorDescriptor.naive("Q", lengths=[4])
    b.param("a", I32)
    off, _ = desc.offset(b, token=b.const_i32(0))
    return b.kernel
)PY");
  EXPECT_EQ(list(g), (V{"a"}));
}

// A registry a module-level decorator fills, as the module's import fills it; a module function
// an opaque decorator replaces is what the decorator returned: called with the IRBuilder, the list
// opens there.
TEST(DeclEvalSoundness, ARegistryFilledByModuleDecoratorsIsRead) {
  auto f = run(R"PY(
_DECLARERS = {}


def declares(name):
    def deco(fn):
        _DECLARERS[name] = fn
        return fn

    return deco


@declares("q")
def _q(b, dtype):
    return b.param("q_ptr", PtrType(dtype, "global"))


@declares("n")
def _n(b, dtype):
    return b.param("n", I32)


def build_x(spec):
    b = IRBuilder("x")
    for name, fn in _DECLARERS.items():
        fn(b, BF16)
    return b.finish()
)PY");
  EXPECT_EQ(list(f), (V{"q_ptr", "n"}));
  auto g = run(R"PY(
from kernels.registry import spec_registry


@spec_registry.register
def _declare(b):
    return b.param("q", I32)


def build_x(spec):
    b = IRBuilder("x")
    b.param("a", I32)
    _declare(b)
    b.param("n", I32)
    return b.finish()
)PY");
  EXPECT_EQ(list(g), (V{"a", "open: _declare (a call it cannot follow: a function of another module)"}));
}

}  // namespace
}  // namespace impact
