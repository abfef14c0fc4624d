// The builder evaluator (core/extract/python/DeclEval, issue 26): a builder's arguments are
// what its code declares, followed through helpers, loops over tables, dicts, f-strings,
// comprehensions, aliases and functools.partial; what it cannot know is named; limits stop with
// a reason, never a hang.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "contracts/Kernargs.h"
#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kPath = "dnn-providers/hip-kernel-provider/rocke/library/kernels/gfx950/x.py";

const char* kHeader = R"PY(
import functools
from rocke.core.ir import IRBuilder, PtrType, I32, F32, BF16
)PY";

FileFacts run(const std::string& body) { return extractFile(kPath, std::string(kHeader) + body); }

const PyBuilder* find(const FileFacts& f, const std::string& name) {
  for (const PyBuilder& b : f.builders)
    if (b.name == name && b.style == PyBuilder::Style::Params) return &b;
  return nullptr;
}

// A named copy stating (name, kind, size) per argument, under a variant's spec (empty: none).
CppArgList namedCopy(std::vector<std::tuple<const char*, const char*, uint32_t>> args,
                     std::map<std::string, std::string> spec = {}) {
  CppArgList c;
  c.named = true;
  c.spec = std::move(spec);
  for (auto [name, kind, size] : args) {
    KernelArg a;
    a.name = name;
    a.kind = kind;
    a.size = size;
    c.args.push_back(a);
  }
  return c;
}

// "q_ptr:global_buffer/8:bf16" for every argument of list `abi`.
std::vector<std::string> sig(const PyBuilder* b, size_t abi = 0) {
  std::vector<std::string> out;
  if (!b || abi >= b->abis.size()) return {"<no list>"};
  for (const KernelArg& a : b->abis[abi].args)
    out.push_back(a.name + ":" + a.kind + "/" + std::to_string(a.size) + ":" + a.typeClass +
                  (a.conditional ? " if " + a.condition : "") + (a.resolved ? "" : " UNRESOLVED"));
  return out;
}

const std::vector<std::string> kExpected = {"q_ptr:global_buffer/8:bf16", "o_ptr:global_buffer/8:bf16",
                                            "scale:by_value/4:f32", "n:by_value/4:i32"};

TEST(DeclEval, ArgumentsDeclaredInAModuleHelperAreTheBuilders) {
  auto f = run(R"PY(
def _declare(b, dtype):
    q = b.param("q_ptr", PtrType(dtype, "global"))
    o = b.param("o_ptr", PtrType(dtype, "global"))
    s = b.param("scale", F32)
    n = b.param("n", I32)
    return q, o, s, n

def build_x(spec):
    b = IRBuilder("x")
    q, o, s, n = _declare(b, BF16)
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

TEST(DeclEval, ATableOfNamesAndTypesIteratedInALoop) {
  auto f = run(R"PY(
_ARGS = (("q", PtrType(BF16, "global")), ("o", PtrType(BF16, "global")))
_SCALARS = {"scale": F32, "n": I32}

def build_x(spec):
    b = IRBuilder("x")
    ptrs = [b.param(f"{name}_ptr", ty) for name, ty in _ARGS]
    for name, ty in _SCALARS.items():
        b.param(name, ty)
    return b
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

TEST(DeclEval, AnAliasAndAPartialOfParamDeclare) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    p = b.param
    ptr = functools.partial(b.param, ty=PtrType(BF16, "global"))
    ptr("q_ptr")
    ptr(name="%s_ptr" % "o")
    p("scale", F32)
    p("{}".format("n"), I32)
    return b
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

TEST(DeclEval, StarArgumentsKeywordsAndDefaultsBind) {
  auto f = run(R"PY(
def _ptr(b, name, dtype=BF16, *, space="global"):
    return b.param(name + "_ptr", PtrType(dtype, space))

def _scalars(b, **types):
    for k, v in types.items():
        b.param(k, v)

def build_x(spec):
    b = IRBuilder("x")
    names = ["q", "o"]
    for n in names:
        _ptr(b, *[n])
    _scalars(b, **{"scale": F32, "n": I32})
    return b
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

TEST(DeclEval, ConditionsInTheHelperAreGuardsOfTheBuildersArguments) {
  auto f = run(R"PY(
def _declare(b, spec):
    b.param("q_ptr", PtrType(BF16, "global"))
    use = spec.use_sinks
    if use:
        b.param("sink_ptr", PtrType(F32, "global"))
    b.param("n", I32)

def build_x(spec):
    b = IRBuilder("x")
    _declare(b, spec)
    return b
)PY");
  EXPECT_EQ(sig(find(f, "build_x")),
            (std::vector<std::string>{"q_ptr:global_buffer/8:bf16", "sink_ptr:global_buffer/8:f32 if spec.use_sinks",
                                      "n:by_value/4:i32"}));
}

TEST(DeclEval, AnEarlyReturnIsASecondListUnderItsGuard) {
  auto f = run(R"PY(
def _persistent(spec):
    b = IRBuilder("p")
    b.param("q_ptr", PtrType(BF16, "global"))
    return b

def build_x(spec):
    if spec.persistent:
        return _persistent(spec)
    b = IRBuilder("x")
    _declare_rest(b)
    return b

def _declare_rest(b):
    for n in ("q", "o"):
        b.param(n + "_ptr", PtrType(BF16, "global"))
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 2u);
  EXPECT_EQ(sig(b, 0), (std::vector<std::string>{"q_ptr:global_buffer/8:bf16", "o_ptr:global_buffer/8:bf16"}));
  EXPECT_EQ(sig(b, 1), (std::vector<std::string>{"q_ptr:global_buffer/8:bf16"}));
  EXPECT_EQ(b->abis[1].guard, "spec.persistent");
  EXPECT_EQ(b->abis[1].origin, "_persistent");
}

TEST(DeclEval, ADeclarationInALoopOverASymbolicBoundIsNamedUnresolved) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    for i in range(spec.num_extra):
        b.param(f"extra_{i}", I32)
    return b
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis[0].args.size(), 2u);
  EXPECT_FALSE(b->abis[0].args[1].resolved);
  EXPECT_NE(b->abis[0].args[1].unresolvedReason.find("loop over range(spec.num_extra)"), std::string::npos)
      << b->abis[0].args[1].unresolvedReason;
}

// An object of the module's classes holding the IRBuilder (`self.b = b` in `__init__`) whose
// methods declare, chained: the instance's attributes are what its methods were given.
TEST(DeclEval, AnObjectHoldingTheBuilderDeclaresThroughItsMethods) {
  auto f = run(R"PY(
class _Args:
    def __init__(self, b, dtype):
        self.b = b
        self.dtype = dtype

    def ptr(self, name):
        self.b.param(name, PtrType(self.dtype, "global"))
        return self

    def scalar(self, name, ty=I32):
        self.b.param(name, ty)
        return self


def build_x(spec):
    b = IRBuilder("x")
    _Args(b, BF16).ptr("q_ptr").ptr("o_ptr").scalar("scale", F32).scalar("n")
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

// Argument tables of records: a @dataclass (its annotated fields in order, defaults), a
// NamedTuple (unpacked as a tuple), a collections.namedtuple; and `getattr(b, "param")`.
TEST(DeclEval, TablesOfRecordsAndGetattrDeclareAsWritten) {
  auto f = run(R"PY(
from collections import namedtuple
from dataclasses import dataclass
from typing import ClassVar, NamedTuple


@dataclass(frozen=True)
class Arg:
    KIND: ClassVar[str] = "arg"  # a class attribute, not a field
    name: str
    ty: object
    readonly: bool = False


class NArg(NamedTuple):
    name: str
    ty: object


TArg = namedtuple("TArg", "name ty")

ARGS = [Arg("q_ptr", PtrType(BF16, "global"), True), Arg(name="o_ptr", ty=PtrType(BF16, "global"))]


def build_x(spec):
    b = IRBuilder("x")
    for a in ARGS:
        b.param(a.name, a.ty)
    for name, ty in (NArg("scale", F32),):
        b.param(name, ty)
    t = TArg("n", I32)
    getattr(b, "param")(t.name, t.ty)
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

// A lambda is a function like any other (closing over the builder), and map applies it.
TEST(DeclEval, LambdasAndMapDeclare) {
  auto f = run(R"PY(
PTRS = ("q_ptr", "o_ptr")


def build_x(spec):
    b = IRBuilder("x")
    decl = lambda n, t: b.param(n, t)
    list(map(lambda n: decl(n, PtrType(BF16, "global")), PTRS))
    for n, t in [("scale", F32), ("n", I32)]:
        (lambda: decl(n, t))()
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

// Iterations over what the evaluation does not know (a map, a comprehension, its filter) run
// their body once, and what it declares there is named: never a declaration silently dropped.
// `sorted` orders tuples as Python does.
TEST(DeclEval, DeclarationsInIterationsOverUnknownsAreNamedNeverDropped) {
  auto f = run(R"PY(
SCALARS = {"scale": F32, "n": I32}


def build_x(spec):
    b = IRBuilder("x")
    b.param("o_ptr", PtrType(BF16, "global"))
    list(map(lambda nt: b.param(*nt), sorted(SCALARS.items(), reverse=False)))
    list(map(lambda n: b.param(n, I32), spec.extra_names))
    [b.param(n, I32) for n in spec.more_names]
    [b.param(n, I32) for n in ("k",) if spec.with_k]
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  std::vector<std::string> s = sig(b);
  ASSERT_EQ(s.size(), 6u) << testing::PrintToString(s);
  EXPECT_EQ(s[0], "o_ptr:global_buffer/8:bf16");
  EXPECT_EQ(s[1], "n:by_value/4:i32");  // sorted by name: n before scale
  EXPECT_EQ(s[2], "scale:by_value/4:f32");
  const auto& args = b->abis.at(0).args;
  EXPECT_NE(args[3].unresolvedReason.find("declared in a map over"), std::string::npos) << args[3].unresolvedReason;
  EXPECT_NE(args[4].unresolvedReason.find("declared in a comprehension over spec.more_names"), std::string::npos)
      << args[4].unresolvedReason;
  EXPECT_NE(args[5].unresolvedReason.find("declared in a comprehension filtered by if spec.with_k"), std::string::npos)
      << args[5].unresolvedReason;
}

// A builder that makes an IRBuilder and calls `.param` in its own text, but whose evaluation
// declared nothing (the call sits where the evaluation does not go): not read, naming the call.
TEST(DeclEval, ADeclarationTheEvaluationDidNotReachIsNotReadNeverLeftOut) {
  auto f = run(R"PY(
import threading


def build_x(spec):
    b = IRBuilder("x")
    threading.Thread(target=lambda: b.param("q_ptr", PtrType(BF16, "global"))).start()
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  // The thread's target reaches the IRBuilder: the list is open at the call (issue 36).
  ASSERT_EQ(b->abis.size(), 1u) << b->notRead;
  EXPECT_TRUE(b->abis[0].args.empty());
  EXPECT_EQ(b->abis[0].tailHelper, "Thread(...) (a call of threading.Thread the evaluator does not model)");
  // A declaring function it defines and never calls: its `.param` is not reached, and said so.
  auto g = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")

    def later():
        return b.param("q_ptr", PtrType(BF16, "global"))

    return b.finish()
)PY");
  const PyBuilder* n = find(g, "build_x");
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(n->abis.empty());
  EXPECT_NE(n->notRead.find("`b.param(\"q_ptr\", PtrType(BF16, \"global\"))` (line 9), which the evaluation did not reach"),
            std::string::npos)
      << n->notRead;
}

// Classes as Python resolves them: a method found through the bases, overridden, called through
// super(); a class attribute overridden in the subclass; a staticmethod and a classmethod. And
// the string methods a table of names is often written with.
TEST(DeclEval, InheritanceSuperStaticAndClassMethodsAndStringMethods) {
  auto f = run(R"PY(
class Base:
    PTRS = ("x_ptr",)

    def declare(self, b):
        for n in self.PTRS:
            b.param(n, PtrType(BF16, "global"))

    @staticmethod
    def scale(b):
        b.param("scale", F32)

    @classmethod
    def count(cls, b):
        b.param(cls.COUNT, I32)


class Attn(Base):
    PTRS = tuple(" q_ptr o_ptr ".strip().split(" "))
    COUNT = "N".lower()

    def declare(self, b):
        super().declare(b)
        self.scale(b)
        Attn.count(b)


def build_x(spec):
    b = IRBuilder("x")
    Attn().declare(b)
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

// A call the evaluation cannot follow, given the IRBuilder, between the declarations: the list is
// open there (its declarations are not guessed), never closed as if it declared nothing.
TEST(DeclEval, ACallItCannotFollowGivenTheBuilderOpensTheList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    spec.extra_declarer(spec)(b)
    b.param("n", I32)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.size(), 1u);
  const PyAbi& a = b->abis[0];
  EXPECT_EQ(a.tailHelper.rfind("spec.extra_declarer(spec) (a call it cannot follow", 0), 0u) << a.tailHelper;
  EXPECT_EQ(a.tailCall, "spec.extra_declarer(spec)(b)");
  ASSERT_EQ(a.args.size(), 1u) << "what follows the open end has no known position";
  EXPECT_EQ(a.args[0].name, "q_ptr");
}

// An object of rocKE's IR library given the IRBuilder emits code (the real tiled builder's
// `TransposeLdsReader(K=..., M=16).bind(b, lane)`): it opens nothing.
TEST(DeclEval, AnObjectOfTheIrLibraryGivenTheBuilderOpensNothing) {
  auto f = run(R"PY(
from rocke.helpers.layouts import TransposeLdsReader


def build_x(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    reader = TransposeLdsReader(K=4, M=16).bind(b, b.lane_id())
    reader.load(b)
    b.param("n", I32)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->abis.at(0).tailHelper, "");
  EXPECT_EQ(sig(b), (std::vector<std::string>{"q_ptr:global_buffer/8:bf16", "n:by_value/4:i32"}));
}

// A match statement is an if/elif chain over its cases: a literal (or `|` of literals) compared
// with the subject, `_` and a capture always; each case's declarations under its condition. (Its
// bodies were not run before: their declarations were dropped with no word.)
TEST(DeclEval, AMatchStatementIsAChainOfConditions) {
  auto f = run(R"PY(
def build_x(spec, mode="dense"):
    b = IRBuilder("x")
    match mode:
        case "dense":
            b.param("q_ptr", PtrType(BF16, "global"))
        case _:
            b.param("never", I32)
    b.param("o_ptr", PtrType(BF16, "global"))
    match spec.layout:
        case "nhwc" | "ndhwc":
            b.param("scale", F32)
    b.param("n", I32)
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  std::vector<std::string> s = sig(b);
  ASSERT_EQ(s.size(), 5u) << testing::PrintToString(s);
  EXPECT_EQ(s[0], "q_ptr:global_buffer/8:bf16 if mode == \"dense\"");
  EXPECT_EQ(s[1], "never:by_value/4:i32 if not (mode == \"dense\")");
  EXPECT_EQ(s[3], "scale:by_value/4:f32 if spec.layout == \"nhwc\" or spec.layout == \"ndhwc\"");
  EXPECT_EQ(s[4], "n:by_value/4:i32");
}

// A while loop whose condition the evaluation knows runs as Python runs it; one whose condition
// it does not know runs once, what it declares named.
TEST(DeclEval, AWhileLoopRunsWhileItsConditionIsKnown) {
  auto f = run(R"PY(
NAMES = [("q_ptr", PtrType(BF16, "global")), ("o_ptr", PtrType(BF16, "global")), ("scale", F32)]


def build_x(spec):
    b = IRBuilder("x")
    i = 0
    while i < len(NAMES):
        b.param(*NAMES[i])
        i += 1
    while True:
        b.param("n", I32)
        break
    return b.finish()


def build_y(spec):
    b = IRBuilder("y")
    i = 0
    while i < spec.count:
        b.param(f"x{i}", I32)
        i += 1
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
  const PyBuilder* y = find(f, "build_y");
  ASSERT_NE(y, nullptr);
  ASSERT_EQ(y->abis.at(0).args.size(), 1u);
  EXPECT_FALSE(y->abis[0].args[0].resolved);
  EXPECT_NE(y->abis[0].args[0].unresolvedReason.find("a while loop"), std::string::npos);
}

// Enum members iterated and named, a starred unpacking, a property, and a dict written under a key
// it cannot know (every value it held is then unknown, never a stale one read as known): each
// read as Python runs it. Before stop 36 the first three were unresolved arguments and the last a
// silently wrong type.
TEST(DeclEval, EnumsStarredUnpackingPropertiesAndWritesUnderUnknownKeys) {
  auto f = run(R"PY(
import enum


class Ptr(enum.Enum):
    Q = "q_ptr"
    O = "o_ptr"


class Gen:
    elem = BF16

    def __init__(self, spec):
        self.spec = spec

    @property
    def ptr(self):
        return PtrType(self.elem, "global")

    def build(self):
        b = IRBuilder("g")
        b.param(Ptr.Q.value, self.ptr)
        b.param(Ptr.O.value, self.ptr)
        first, *rest = ("scale", "n")
        b.param(first, F32)
        for r in rest:
            b.param(r, I32)
        return b.finish()


def build_x(spec):
    return Gen(spec).build()


def build_y(spec):
    b = IRBuilder("y")
    for p in Ptr:
        b.param(p.value, PtrType(BF16, "global"))
    types = {"scale": F32, "n": I32}
    types[spec.which] = I32
    b.param("scale", types["scale"])
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
  const PyBuilder* y = find(f, "build_y");
  ASSERT_NE(y, nullptr);
  ASSERT_EQ(y->abis.at(0).args.size(), 3u);
  EXPECT_EQ(y->abis[0].args[0].name, "q_ptr");
  EXPECT_EQ(y->abis[0].args[1].name, "o_ptr");
  EXPECT_FALSE(y->abis[0].args[2].resolved);  // types["scale"] may be I32 now
  EXPECT_NE(y->abis[0].args[2].unresolvedReason.find("changed by types[spec.which]"), std::string::npos)
      << y->abis[0].args[2].unresolvedReason;
}

// The standard library's helpers a builder uses on its spec and tables run as Python runs them:
// `dataclasses.replace` of the symbolic spec (the fields it sets known, the others the spec's),
// `typing.cast`, `copy.copy` (a new list: appending to it leaves the table alone), `%(key)s`
// formatting. Before stop 36 `spec2.wide` was a guard on a name no variant has, the cast and the
// format unresolved.
TEST(DeclEval, StandardLibraryHelpersRunAsPythonRunsThem) {
  auto f = run(R"PY(
import copy
import dataclasses
import typing
from dataclasses import replace as dc_replace

TABLE = [("q_ptr", PtrType(BF16, "global"))]


def build_x(spec):
    b = IRBuilder("x")
    rows = copy.copy(TABLE)
    rows.append(("o_ptr", PtrType(BF16, "global")))
    for n, t in TABLE + rows[1:]:
        b.param(n, t)
    narrow = dataclasses.replace(spec, wide=False)
    if not narrow.wide:
        b.param("%(n)s" % {"n": "scale"}, typing.cast(typing.Any, F32))
    if dc_replace(spec, wide=False).sinks:
        b.param("sink_ptr", PtrType(F32, "global"))
    b.param("n", I32)
    return b.finish()
)PY");
  const PyBuilder* x = find(f, "build_x");
  ASSERT_NE(x, nullptr);
  std::vector<std::string> got = sig(x);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(got.begin(), got.begin() + 3),
            std::vector<std::string>(kExpected.begin(), kExpected.begin() + 3));
  EXPECT_FALSE(x->abis[0].args[2].conditional);  // `not narrow.wide` is known: wide was set False
  EXPECT_EQ(x->abis[0].args[3].name, "sink_ptr");
  EXPECT_EQ(x->abis[0].args[3].condition, "spec.sinks");  // a field it did not set is the spec's
  EXPECT_EQ(got[4], kExpected[3]);
}

// A generator of (name, type) pairs is the list of what it yields, each under the conditions it
// was yielded in (`yield from` its elements); a name a nested function changes through `nonlocal`,
// or a function through `global`, is not known after (never its old value read as known). Before
// stop 36 the generator's loop declared one unresolved argument, and `c{count}` read `c0`.
TEST(DeclEval, GeneratorsYieldTheirListAndNonlocalOrGlobalNamesAreNotKnown) {
  auto f = run(R"PY(
SUFFIX = "a"


def _set_suffix():
    global SUFFIX
    SUFFIX = "b"


def _args(spec):
    yield "q_ptr", PtrType(BF16, "global")
    if spec.sinks:
        yield "sink_ptr", PtrType(F32, "global")
    yield from (("o_ptr", PtrType(BF16, "global")), ("scale", F32))


def build_x(spec):
    b = IRBuilder("x")
    for n, t in _args(spec):
        b.param(n, t)
    count = 0

    def bump():
        nonlocal count
        count += 1

    bump()
    b.param(f"c{count}", I32)
    b.param("s_" + SUFFIX, I32)
    return b.finish()
)PY");
  const PyBuilder* x = find(f, "build_x");
  ASSERT_NE(x, nullptr);
  std::vector<std::string> got = sig(x);
  ASSERT_EQ(got.size(), 6u) << testing::PrintToString(got);
  EXPECT_EQ(got[0], kExpected[0]);
  EXPECT_EQ(got[1], "sink_ptr:global_buffer/8:f32 if spec.sinks");
  EXPECT_EQ(got[2], kExpected[1]);
  EXPECT_EQ(got[3], kExpected[2]);
  EXPECT_FALSE(x->abis[0].args[4].resolved);
  EXPECT_NE(x->abis[0].args[4].unresolvedReason.find("nonlocal count"), std::string::npos)
      << x->abis[0].args[4].unresolvedReason;
  EXPECT_FALSE(x->abis[0].args[5].resolved);
  EXPECT_NE(x->abis[0].args[5].unresolvedReason.find("global SUFFIX"), std::string::npos)
      << x->abis[0].args[5].unresolvedReason;
}

// An IR scalar type's name (`Type("i32").name`, what it prints as), as a real rocKE kernel of a
// public fork names its pointers: `b.param(f"p_{dtype.name}", PtrType(dtype, "global"))` over a
// tuple of types, the builder a function given `b` by the entry.
TEST(DeclEval, AnIrTypesNameIsItsName) {
  auto f = run(R"PY(
def declare_barriers(b):
    for dtype in (I32, BF16):
        b.param(f"p_{dtype.name}", PtrType(dtype, "global"))
    b.param(f"n_{F32}", F32)


def build_x(spec, *, arch):
    b = IRBuilder("barriers")
    declare_barriers(b)
    return b.kernel
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), (std::vector<std::string>{"p_i32:global_buffer/8:i32", "p_bf16:global_buffer/8:bf16",
                                                                "n_f32:by_value/4:f32"}));
}

// A string or sequence repeated (`"x" * 2`, `[F32] * len(names)`: a type per name), as Python does.
TEST(DeclEval, RepeatedStringsAndSequences) {
  auto f = run(R"PY(
PTRS = ("q", "o")


def build_x(spec):
    b = IRBuilder("x")
    for n, t in zip(PTRS, [PtrType(BF16, "global")] * len(PTRS)):
        b.param(n + "_" + "ptr" * 1, t)
    b.param("scale", F32)
    b.param("n" * 1, I32)
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_x")), kExpected);
}

// An IR type chosen by a condition it cannot decide (`I64 if spec.large else I32`, or bound on the
// two arms of an `if`) stays one argument whose type is not resolved, with its choices kept: a
// spec the copy stands for (a descriptor copy's own; the shipped variants) picks one, so a copy
// stating I32 agrees where `spec.large` is false and breaks where it is true. Without a spec the
// row is as before ("type not resolved"), never a guess. Before stop 36 the kind and size of such
// an argument were never compared.
TEST(DeclEval, ATypeChosenByAConditionIsPickedByTheSpec) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    idx = I64 if spec.large else I32
    b.param("n", idx)
    if spec.wide:
        acc = F32
    else:
        acc = BF16
    b.param("alpha", acc)
    return b.finish()
)PY");
  const PyBuilder* x = find(f, "build_x");
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(x->abis.at(0).args.size(), 3u);
  const KernelArg& n = x->abis[0].args[1];
  EXPECT_FALSE(n.resolved);
  ASSERT_EQ(n.choices.size(), 2u);
  EXPECT_EQ(guardKey(n.choices[0].when), "spec.large");
  EXPECT_EQ(n.choices[0].size, 8u);
  EXPECT_EQ(n.choices[1].size, 4u);
  EXPECT_EQ(x->abis[0].args[2].choices.size(), 2u);
  auto copy = [](uint32_t nSize, std::map<std::string, std::string> spec) {
    return namedCopy({{"q_ptr", "global_buffer", 8u}, {"n", "by_value", nSize}, {"alpha", "by_value", 4u}},
                     std::move(spec));
  };
  Comparison ok = compareCopy(*x, copy(4, {{"large", "false"}, {"wide", "true"}}));
  EXPECT_EQ(ok.outcome, Comparison::Outcome::Agree) << ok.message;
  EXPECT_TRUE(ok.unresolved.empty());
  Comparison bad = compareCopy(*x, copy(4, {{"large", "true"}, {"wide", "true"}}));
  EXPECT_EQ(bad.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(bad.message.find("n: copy by_value/4, builder by_value/8"), std::string::npos) << bad.message;
  // No spec: as before — the count and the known types compared, the chosen ones not resolved.
  Comparison none = compareCopy(*x, copy(4, {}));
  EXPECT_EQ(none.outcome, Comparison::Outcome::Agree) << none.message;
  EXPECT_EQ(none.unresolved.size(), 2u);
  // The shipped variants decide when the copy has no spec of its own: both small, then one large.
  std::map<std::string, std::string> small{{"large", "false"}, {"wide", "true"}}, large{{"large", "true"}, {"wide", "true"}};
  ShippedSet shipped;
  shipped.variants = {{"v_small", &small}, {"v_small2", &small}};
  EXPECT_EQ(compareCopy(*x, copy(4, {}), &shipped).outcome, Comparison::Outcome::Agree);
  shipped.variants.push_back({"v_large", &large});
  Comparison mixed = compareCopy(*x, copy(4, {}), &shipped);
  EXPECT_EQ(mixed.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(mixed.message.find("by_value/8 for v_large"), std::string::npos) << mixed.message;
  // A launch slot whose type the copy does not state: variants picking different types are not
  // held against it (nothing picked, the type stays not resolved).
  CppArgList launch = copy(4, {});
  launch.args[1].kind.clear();
  launch.args[1].size = 0;
  Comparison open = compareCopy(*x, launch, &shipped);
  EXPECT_EQ(open.shippedNote.find("n's type"), std::string::npos) << open.shippedNote;
  EXPECT_NE(open.shippedNote.find("alpha's type is chosen by a condition; the shipped variants (3) pick by_value/4"),
            std::string::npos)
      << open.shippedNote;
}

// A name chosen by a condition (`"seqlen_q" if spec.varlen else "seqlen"`), its type known: its
// choices kept and picked by the spec as a type's are.
TEST(DeclEval, ANameChosenByAConditionIsPickedByTheSpec) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    b.param("seqlen_q" if spec.varlen else "seqlen", I32)
    return b.finish()
)PY");
  const PyBuilder* x = find(f, "build_x");
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(x->abis.at(0).args.size(), 1u);
  const KernelArg& n = x->abis[0].args[0];
  ASSERT_EQ(n.choices.size(), 2u);
  EXPECT_EQ(n.choices[0].name, "seqlen_q");
  EXPECT_EQ(n.choices[1].name, "seqlen");
  EXPECT_EQ(n.choices[1].size, 4u);
  CppArgList c = namedCopy({{"seqlen", "by_value", 4u}}, {{"varlen", "false"}});
  Comparison ok = compareCopy(*x, c);
  EXPECT_EQ(ok.outcome, Comparison::Outcome::Agree) << ok.message;
  EXPECT_TRUE(ok.unresolved.empty());
  c.spec = {{"varlen", "true"}};
  Comparison bad = compareCopy(*x, c);
  EXPECT_EQ(bad.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(bad.message.find("seqlen_q"), std::string::npos) << bad.message;
}

// A builder whose only declarations are `.param` calls on a receiver the evaluation cannot know
// is not read, and says which call and why: never an empty list, never left out.
TEST(DeclEval, AParamCallOnAReceiverNotKnownIsNotReadNeverAnEmptyList) {
  auto f = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    ctx = spec.make_context()
    ctx.kernel.param("q_ptr", PtrType(BF16, "global"))
    return b.finish()
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr) << "a builder that reaches a declaration it cannot read is still listed";
  EXPECT_TRUE(b->abis.empty());
  EXPECT_NE(b->notRead.find("arguments not read: it reaches `ctx.kernel.param(\"q_ptr\", PtrType(BF16, \"global\"))` (line 8): its receiver is not known"),
            std::string::npos)
      << b->notRead;
}

TEST(DeclEval, RecursionThatDeclaresIsNotReadWithItsReason) {
  auto f = run(R"PY(
def _declare(b, n):
    b.param(f"a{n}", I32)
    _declare(b, n + 1)

def build_x(spec):
    b = IRBuilder("x")
    _declare(b, 0)
    return b
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  EXPECT_NE(b->notRead.find("recursion: _declare calls itself"), std::string::npos) << b->notRead;
  EXPECT_TRUE(b->abis.empty());
}

// A function defined inside the builder names itself in its own closure (it may call itself):
// it is read when it declares, its recursion is named, and a function nested in it still sees it.
// Under LeakSanitizer (scripts/ci-sanitizers.sh) this also proves the closure is freed: a closure
// that held itself by reference count leaked every nested function of every real builder.
TEST(DeclEval, AFunctionNestedInTheBuilderIsReadAndItsRecursionNamed) {
  auto read = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    def declare(dtype):
        def ptr(name):
            return b.param(name, PtrType(dtype, "global"))
        ptr("q_ptr")
        ptr("o_ptr")
        b.param("scale", F32)
        b.param("n", I32)
    declare(BF16)
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(read, "build_x")), kExpected);
  auto recursive = run(R"PY(
def build_x(spec):
    b = IRBuilder("x")
    def declare(n):
        b.param(f"a{n}", I32)
        def again():
            declare(n + 1)
        again()
    declare(0)
    return b.finish()
)PY");
  const PyBuilder* b = find(recursive, "build_x");
  ASSERT_NE(b, nullptr);
  EXPECT_NE(b->notRead.find("recursion"), std::string::npos) << b->notRead;
  EXPECT_TRUE(b->abis.empty());
}

TEST(DeclEval, HostileInputStopsWithinItsLimits) {
  auto start = std::chrono::steady_clock::now();
  auto f = run(R"PY(
def _grow(s):
    for i in range(20):
        s = s + s
    return s

def build_x(spec):
    b = IRBuilder("x")
    for i in range(4000):
        for j in range(4000):
            x = i + j
    b.param(_grow("a"), I32)
    return b

def build_y(spec):
    b = IRBuilder("y")
    b.param("n", I32)
    while True:
        b.param("m", I32)
    return b
)PY");
  // build_x's evaluation stops at the step limit: not read, and why (never a list it did not read).
  const PyBuilder* x = find(f, "build_x");
  ASSERT_NE(x, nullptr);
  EXPECT_TRUE(x->abis.empty());
  EXPECT_NE(x->notRead.find("the step limit"), std::string::npos) << x->notRead;
  const PyBuilder* y = find(f, "build_y");
  ASSERT_NE(y, nullptr);
  ASSERT_EQ(y->abis.at(0).args.size(), 2u);
  EXPECT_FALSE(y->abis[0].args[1].resolved);  // declared in a while loop: how often is not known
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

// Hostile classes and closures stop within the limits: bases in a cycle, an object holding
// itself, a lambda calling itself, a class whose __init__ builds another of itself.
TEST(DeclEval, HostileClassesAndLambdasStopWithinTheirLimits) {
  auto start = std::chrono::steady_clock::now();
  auto f = run(R"PY(
class A(B):
    pass


class B(A):
    pass


class Node:
    def __init__(self, depth):
        self.me = self
        self.child = Node(depth + 1)


def build_x(spec):
    b = IRBuilder("x")
    b.param("q_ptr", PtrType(BF16, "global"))
    A().declare(b)
    Node(0)
    loop = lambda: loop()
    loop()
    b.param("n", I32)
    return b.finish()


def build_y(spec):
    b = IRBuilder("y")
    fs = []

    def g():
        return fs

    fs.append(g)  # a list holding a function whose closure holds the list (freed: LSan)
    fs.append(lambda: fs)
    b.param("n", I32)
    return b.finish()
)PY");
  EXPECT_EQ(sig(find(f, "build_y")), (std::vector<std::string>{"n:by_value/4:i32"}));
  const PyBuilder* x = find(f, "build_x");
  ASSERT_NE(x, nullptr);
  ASSERT_EQ(x->abis.size(), 1u) << x->notRead;
  EXPECT_EQ(sig(x), (std::vector<std::string>{"q_ptr:global_buffer/8:bf16"}));
  EXPECT_EQ(x->abis[0].tailHelper.rfind("A().declare (a call it cannot follow", 0), 0u) << x->abis[0].tailHelper;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(DeclEval, ACyclicModuleConstantIsANamedUnknown) {
  auto f = run(R"PY(
A = B
B = A
def build_x(spec):
    b = IRBuilder("x")
    b.param(A, I32)
    b.param("n", I32)
    return b
)PY");
  const PyBuilder* b = find(f, "build_x");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->abis.at(0).args.size(), 2u);
  EXPECT_FALSE(b->abis[0].args[0].resolved);
  EXPECT_NE(b->abis[0].args[0].unresolvedReason.find("through itself"), std::string::npos)
      << b->abis[0].args[0].unresolvedReason;
  EXPECT_EQ(b->abis[0].args[1].name, "n");
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

TEST(DeclEval, ASignatureRestatementBesideABuilderReadByEvaluationIsACopy) {
  auto f = extractFile(kPath, std::string(kHeader) + R"PY(
from rocke.helpers.spec import SignatureBuilder

def _declare(b):
    b.param("q_ptr", PtrType(BF16, "global"))
    b.param("n", I32)

def build_x(spec):
    b = IRBuilder("x")
    _declare(b)
    return b

def x_signature(spec):
    return SignatureBuilder().ptr("q_ptr", "bf16").scalar("n", "i32").build()
)PY");
  bool copy = false;
  for (const CppArgList& l : f.lists) copy = copy || l.symbol == "x_signature";
  EXPECT_TRUE(copy);
  for (const PyBuilder& b : f.builders) EXPECT_NE(b.name, "x_signature");
}

}  // namespace
}  // namespace impact
