// The C++ forms of issue 36 item 3 read by the extractor: macros of the file expanded before
// reading (X-macro lists, positions on the invocation's real line, what cannot be expanded named),
// a list composed of helpers' lists, designated initializers, launches through tuples.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "extract/Extract.h"

namespace impact {
namespace {

constexpr const char* kPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp";

FileFacts facts(const std::string& src) { return extractFile(kPack, src); }

std::vector<std::string> names(const CppArgList& l) {
  std::vector<std::string> out;
  for (const auto& a : l.args) out.push_back(a.name);
  return out;
}

uint32_t lineOf(const std::string& src, const std::string& needle) {
  size_t p = src.find(needle);
  EXPECT_NE(p, std::string::npos) << needle;
  return static_cast<uint32_t>(std::count(src.begin(), src.begin() + static_cast<long>(p), '\n'));
}

const CppArgList* only(const FileFacts& f, CppArgList::Form form) {
  const CppArgList* found = nullptr;
  for (const auto& l : f.lists)
    if (l.form == form) {
      EXPECT_EQ(found, nullptr) << "more than one list of that form";
      found = &l;
    }
  return found;
}

// The issue's X-macro: a list of (kind, size, name) and an entry macro making each element.
const std::string kXMacro = R"cpp(#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>
namespace {
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
#define ATTENTION_ARGS(X) \
    X("global_buffer", PTR, "q_ptr") \
    X("global_buffer", PTR, "k_ptr") \
    X("by_value", sizeof(float), "scale")
#define ENTRY(kind, size, name) KernelArgument{kind, size, 0, name},
std::vector<KernelArgument> attentionDenseKernelSignature()
{
    return { ATTENTION_ARGS(ENTRY) };
}
}  // namespace
)cpp";

TEST(CppMacros, AnXMacroListReadsAsTheListItExpandsTo) {
  FileFacts f = facts(kXMacro);
  EXPECT_TRUE(f.ok) << f.error;
  const CppArgList* l = only(f, CppArgList::Form::Static);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(names(*l), (std::vector<std::string>{"q_ptr", "k_ptr", "scale"}));
  EXPECT_EQ(l->symbol, "attentionDenseKernelSignature");
  EXPECT_TRUE(l->openTail.empty()) << l->openTail;
  ASSERT_EQ(l->args.size(), 3u);
  EXPECT_EQ(l->args[0].kind, "global_buffer");
  EXPECT_EQ(l->args[0].size, 8u);
  EXPECT_EQ(l->args[2].size, 4u);
  // Every element points at the invocation, on its real line.
  const uint32_t line = lineOf(kXMacro, "ATTENTION_ARGS(ENTRY)");
  for (const auto& a : l->args) {
    EXPECT_EQ(a.range.line, line);
    EXPECT_EQ(a.range.col, 13u);
    EXPECT_EQ(a.range.endCol, 34u);
  }
  EXPECT_EQ(l->range.line, line);
  EXPECT_EQ(l->range.endLine, line);
  EXPECT_EQ(l->range.endCol, 36u);  // the closing brace after the invocation, in the file's columns
}

TEST(CppMacros, ObjectLikeMacrosStringsAndPastesAreExpanded) {
  const std::string src = R"cpp(#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>
#define BUFFER "global_buffer"
#define POINTER_SIZE sizeof(void*)
#define ARG(kind, size, name) {kind, size, 0, #name}
#define SCALAR(name) ARG("by_value", 4, name ## _scale)
std::vector<KernelArgument> attentionDenseKernelSignature()
{
    return {
        ARG(BUFFER, POINTER_SIZE, q_ptr),
        SCALAR(softmax),
    };
}
)cpp";
  FileFacts f = facts(src);
  const CppArgList* l = only(f, CppArgList::Form::Static);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(names(*l), (std::vector<std::string>{"q_ptr", "softmax_scale"}));
  ASSERT_EQ(l->args.size(), 2u);
  EXPECT_EQ(l->args[0].size, 8u);
  EXPECT_EQ(l->args[0].kind, "global_buffer");
  EXPECT_EQ(l->args[1].range.line, lineOf(src, "SCALAR(softmax)"));
}

TEST(CppMacros, WhatItCannotExpandIsNamedNeverDropped) {
  struct Case {
    std::string label, defs, use, why;
  };
  const std::vector<Case> cases = {
      {"undefined entry macro", "#define ARGS(X) X(\"global_buffer\", 8, \"q_ptr\")\n", "ARGS(ENTRY)",
       "ENTRY, which is no macro of this file"},
      {"self-reference", "#define ENTRY(k, s, n) KernelArgument{k, s, 0, n},\n#define ARGS(X) ARGS(X)\n",
       "ARGS(ENTRY)", "macro ARGS refers to itself"},
      {"defined twice", "#ifdef WIDE\n#define ARGS(X) X(1)\n#else\n#define ARGS(X) X(2)\n#endif\n#define ENTRY(k) KernelArgument{\"by_value\", k, 0, \"n\"},\n",
       "ARGS(ENTRY)", "macro ARGS is defined only under `#ifdef WIDE` (line 2), which is not decided"},
      {"wrong count", "#define ENTRY(k, s, n) KernelArgument{k, s, 0, n},\n", "ENTRY(\"by_value\", 4)",
       "macro ENTRY takes 3 arguments, given 2"},
      {"over the depth limit",
       "#define E(k, s, n) KernelArgument{k, s, 0, n},\n#define A0 E(\"by_value\", 4, \"n\")\n" + [] {
         std::string s;
         for (int i = 1; i <= 40; ++i) s += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + "\n";
         return s;
       }(),
       "A40", "expansions nest deeper than 32"},
  };
  for (const Case& c : cases) {
    const std::string src = "#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>\n" + c.defs +
                            "std::vector<KernelArgument> attentionDenseKernelSignature()\n{\n    return { " + c.use +
                            " };\n}\n";
    FileFacts f = facts(src);
    const CppArgList* l = only(f, CppArgList::Form::Static);
    ASSERT_NE(l, nullptr) << c.label << ": the copy was dropped";
    EXPECT_TRUE(l->args.empty()) << c.label;
    EXPECT_NE(l->openTail.find("not read: macro "), std::string::npos) << c.label << ": " << l->openTail;
    EXPECT_NE(l->openTail.find(c.why), std::string::npos) << c.label << ": " << l->openTail;
    EXPECT_EQ(l->range.line, lineOf(src, "return { " + c.use)) << c.label;
    EXPECT_EQ(l->symbol, "attentionDenseKernelSignature") << c.label;
  }
}

TEST(CppMacros, AMacroThatBuildsNoKernelArgumentChangesNothing) {
  const std::string src = R"cpp(#define HIP_CHECK(x) do { (void)(x); } while (0)
#define TWICE(x) ((x) + (x))
int f() { HIP_CHECK(hipDeviceSynchronize()); return TWICE(2); }
)cpp";
  FileFacts f = facts(src);
  EXPECT_TRUE(f.ok) << f.error;
  EXPECT_TRUE(f.lists.empty());
  EXPECT_TRUE(f.setAside.empty());
}

// A list composed of helpers: pointers from a std::array helper with designated initializers,
// scalars appended by emplace_back, inserted into one vector.
const std::string kComposed = R"cpp(#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>
namespace {
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
std::array<KernelArgument, 2> tensorArguments()
{
    return {{
        KernelArgument{.kind = "global_buffer", .size = PTR, .offset = 0, .name = "q_ptr"},
        KernelArgument{.kind = "global_buffer", .size = PTR, .offset = 8, .name = "o_ptr"},
    }};
}
std::vector<KernelArgument> scalarArguments(uint32_t offset)
{
    std::vector<KernelArgument> s;
    s.emplace_back("by_value", 4, offset, "scale");
    s.push_back({"by_value", 4, offset + 4, "batch"});
    return s;
}
std::vector<KernelArgument> attentionDenseKernelSignature(bool sinks)
{
    std::vector<KernelArgument> v;
    auto t = tensorArguments();
    auto s = scalarArguments(16);
    v.insert(v.end(), t.begin(), t.end());
    v.insert(v.end(), s.begin(), s.end());
    if (sinks)
    {
        v.insert(v.end(), {KernelArgument{"global_buffer", PTR, 24, "sink_ptr"}});
    }
    return v;
}
std::vector<KernelArgument> otherSignature()
{
    auto v = tensorArguments2();
    return v;
}
}  // namespace
)cpp";

TEST(CppComposedLists, AListOfHelpersIsOneListReadThroughThem) {
  FileFacts f = facts(kComposed);
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(l.symbol, "attentionDenseKernelSignature");
  EXPECT_EQ(names(l), (std::vector<std::string>{"q_ptr", "o_ptr", "scale", "batch", "sink_ptr"}));
  EXPECT_TRUE(l.openTail.empty()) << l.openTail;
  ASSERT_EQ(l.args.size(), 5u);
  EXPECT_EQ(l.args[1].size, 8u);
  EXPECT_EQ(l.args[2].kind, "by_value");
  EXPECT_FALSE(l.args[3].conditional);
  EXPECT_TRUE(l.args[4].conditional);
  EXPECT_EQ(l.args[4].condition, "sinks");
  // Each argument points where it is written, in its helper.
  EXPECT_EQ(l.args[0].range.line, lineOf(kComposed, "\"q_ptr\""));
  EXPECT_EQ(l.args[2].range.line, lineOf(kComposed, "\"scale\""));
  // The helpers' lists are parts of it, not copies of their own.
  ASSERT_EQ(f.setAside.size(), 2u);
  for (const SetAside& s : f.setAside)
    EXPECT_NE(s.why.find("a part of attentionDenseKernelSignature's list"), std::string::npos) << s.why;
}

TEST(CppComposedLists, AHelperInitialisedVectorWithAnotherInsertedIsOneList) {
  const std::string src = R"cpp(#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>
std::vector<KernelArgument> tensorArguments() { return {{"global_buffer", 8, 0, "q_ptr"}, {"global_buffer", 8, 8, "o_ptr"}}; }
std::vector<KernelArgument> scalarArguments(uint32_t off) { return {{"by_value", 4, off, "scale"}}; }
std::vector<KernelArgument> kernelSignature()
{
    auto v = tensorArguments();
    auto s = scalarArguments(16);
    v.insert(v.end(), s.begin(), s.end());
    return v;
}
/// A negative value derived from one list (resized): not a composition; the list stays a copy.
std::vector<KernelArgument> truncated()
{
    auto v = tensorArguments();
    v.resize(1);
    return v;
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  EXPECT_EQ(f.lists[0].symbol, "kernelSignature");
  EXPECT_EQ(names(f.lists[0]), (std::vector<std::string>{"q_ptr", "o_ptr", "scale"}));
  EXPECT_EQ(f.setAside.size(), 2u);
}

// A vector that starts as what a call returns whose list is not read, then appended to (issue
// 36): open at its start, saying where and why, then the appends — never a list shorter than the
// truth with no open end. The call of a function declared here and defined elsewhere.
TEST(CppComposedLists, AVectorStartingAsAnUnreadCallsListIsOpenAtItsStart) {
  const std::string src = R"cpp(#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>
std::vector<KernelArgument> tensorArguments(uint32_t pointerBytes);
std::vector<KernelArgument> kernelSignature()
{
    auto v = tensorArguments(8);
    v.push_back({"by_value", 4, 16, "scale"});
    v.emplace_back(KernelArgument{"by_value", 4, 20, "batch"});
    return v;
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(l.symbol, "kernelSignature");
  EXPECT_EQ(names(l), (std::vector<std::string>{"scale", "batch"}));
  EXPECT_EQ(l.openStart,
            "the arguments first in the list (line 5): whatever tensorArguments(8) returns: a function whose list is not "
            "read (not defined in this file)");
  EXPECT_TRUE(l.openTail.empty()) << l.openTail;
  EXPECT_EQ(l.args[0].range.line, lineOf(src, "\"scale\""));
}

// The same with a helper of this file whose body the reader does not follow, a vector typed by
// its appends alone (`auto` of a call of a header's function), and a loop after it: open at both
// ends, each said.
TEST(CppComposedLists, AnUnreadHelpersListThenAnOpenLoopIsOpenAtBothEnds) {
  const std::string src = R"cpp(#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>
#include "Arguments.hpp"
std::vector<KernelArgument> pointerArguments() { return loadArguments(kTable); }
std::vector<KernelArgument> kernelSignature(const std::vector<const char*>& names)
{
    auto v = pointerArguments();
    v.push_back(KernelArgument{"by_value", 4, 16, "scale"});
    for (const char* name : names)
        v.push_back(KernelArgument{"by_value", 4, 0, name});
    return v;
}
std::vector<KernelArgument> otherSignature()
{
    auto w = headerArguments();
    w.push_back(KernelArgument{"by_value", 4, 0, "batch"});
    return w;
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 2u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(names(l), (std::vector<std::string>{"scale"}));
  EXPECT_NE(l.openStart.find("whatever pointerArguments() returns: a function whose list is not read (its body builds "
                             "no list the reader follows)"),
            std::string::npos)
      << l.openStart;
  EXPECT_NE(l.openTail.find("the arguments from #2 after those of pointerArguments() on: appended in a loop over 'names'"),
            std::string::npos)
      << l.openTail;
  const CppArgList& w = f.lists[1];
  EXPECT_EQ(names(w), (std::vector<std::string>{"batch"}));
  EXPECT_NE(w.openStart.find("whatever headerArguments() returns: a function whose list is not read (not defined in "
                             "this file)"),
            std::string::npos)
      << w.openStart;
}

// A vector of anything else initialised from a call and appended to is no KernelArgument list.
TEST(CppComposedLists, AVectorOfOtherElementsFromACallIsNoList) {
  const std::string src = R"cpp(#include <vector>
std::vector<int> dims();
std::vector<int> shape()
{
    auto v = dims();
    v.push_back(4);
    v.push_back({8});
    return v;
}
)cpp";
  FileFacts f = facts(src);
  EXPECT_TRUE(f.lists.empty());
}

const std::string kTupleLaunch = R"cpp(#include <tuple>
struct Buf { void* ptr; };
struct Binding { float scale; int32_t batch; };
void Handler::launch(const Handle& handle, const Buf& q, const Buf& o, const Binding& binding)
{
    auto pointers = std::make_tuple(q.ptr, o.ptr);
    const auto values = std::tuple_cat(pointers, std::make_tuple(binding.scale, static_cast<int32_t>(binding.batch)));
    std::apply([&](auto... v) { kernel.launch(handle.getStream(), v...); }, values);
}
)cpp";

TEST(CppTupleLaunches, AppliedTupleValuesAreTheLaunchsPositions) {
  FileFacts f = facts(kTupleLaunch);
  const CppArgList* l = only(f, CppArgList::Form::Launch);
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->openTail.empty()) << l->openTail;
  EXPECT_EQ(names(*l),
            (std::vector<std::string>{"q.ptr", "o.ptr", "binding.scale", "static_cast<int32_t>(binding.batch)"}));
  ASSERT_EQ(l->args.size(), 4u);
  EXPECT_EQ(l->args[0].kind, "global_buffer");
  EXPECT_EQ(l->args[2].typeClass, "f32");
  EXPECT_EQ(l->args[3].size, 4u);
  EXPECT_EQ(l->args[0].range.line, lineOf(kTupleLaunch, "auto pointers"));
}

TEST(CppTupleLaunches, ATupleItCannotEnumerateStaysOpenSayingWhy) {
  const std::string src = R"cpp(void Handler::launch(const Handle& handle, const Args& args)
{
    std::apply([&](auto... v) { kernel.launch(handle.getStream(), v...); }, args.asTuple());
}
)cpp";
  FileFacts f = facts(src);
  const CppArgList* l = only(f, CppArgList::Form::Launch);
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->args.empty());
  EXPECT_NE(l->openTail.find("from std::apply over 'args.asTuple()'"), std::string::npos) << l->openTail;
}

}  // namespace
}  // namespace impact
