#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extract/CppFacts.h"
#include "extract/Extract.h"
#include "parse/Syntax.h"

namespace impact {
namespace {

constexpr const char* kPackPath =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.cpp";
constexpr const char* kPinPath =
    "dnn-providers/hip-kernel-provider/src/tests/engines/kernel_ingestor_engine/packs/"
    "TestGfx950AttentionDenseSignature.cpp";

FileFacts facts(const std::string& src, const char* path = kPackPath) { return extractFile(path, src); }

std::vector<const CppArgList*> ofForm(const FileFacts& f, CppArgList::Form form) {
  std::vector<const CppArgList*> out;
  for (const auto& l : f.lists)
    if (l.form == form) out.push_back(&l);
  return out;
}

std::vector<std::string> names(const CppArgList& l) {
  std::vector<std::string> out;
  for (const auto& a : l.args) out.push_back(a.name);
  return out;
}

// 0-based line of the first occurrence of `needle` in `src`.
uint32_t lineOf(const std::string& src, const std::string& needle) {
  size_t p = src.find(needle);
  EXPECT_NE(p, std::string::npos) << needle;
  return static_cast<uint32_t>(std::count(src.begin(), src.begin() + static_cast<long>(p), '\n'));
}

const std::string kPack = R"cpp(// Copyright (c) Advanced Micro Devices, Inc.
#include "IngestorPacks.hpp"

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

namespace hipdnn_plugin::ingestor {
namespace {

constexpr std::string_view GRAPH_MATCHER_SYMBOL = "hipkernel.gfx950.attention_dense.graph_match";
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));
constexpr auto F32 = static_cast<uint32_t>(sizeof(float));

std::vector<KernelArgument> attentionDenseKernelSignature()
{
    return {
        {"global_buffer", PTR, 0, "q_ptr"},
        {"global_buffer", PTR, 8, "k_ptr"},
        {"global_buffer", PTR, 16, "v_ptr"},
        {"global_buffer", PTR, 24, "o_ptr"},
        {"by_value", F32, 32, "scale"},
        {"by_value", I32, 36, "seq_len_q"},
        {"by_value", I32, 40, "seq_len_k"},
        {"by_value", I32, 44, "num_heads"},
    };
}

} // namespace

std::vector<KernelArgument> Gfx950AttentionDenseNative::signature() const
{
    return attentionDenseKernelSignature();
}

} // namespace hipdnn_plugin::ingestor
)cpp";

TEST(CppFacts, StaticListInPackIsExtractedWithResolvedSizes) {
  FileFacts f = facts(kPack);
  EXPECT_TRUE(f.ok) << f.error;
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(l.form, CppArgList::Form::Static);
  EXPECT_EQ(l.symbol, "attentionDenseKernelSignature");
  EXPECT_EQ(l.variable, "");
  EXPECT_TRUE(l.named);
  EXPECT_EQ(names(l), (std::vector<std::string>{"q_ptr", "k_ptr", "v_ptr", "o_ptr", "scale", "seq_len_q",
                                                "seq_len_k", "num_heads"}));
  ASSERT_EQ(l.args.size(), 8u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(l.args[i].kind, "global_buffer");
    EXPECT_EQ(l.args[i].size, 8u);
    EXPECT_EQ(l.args[i].typeText, "PTR");
    EXPECT_TRUE(l.args[i].resolved) << l.args[i].unresolvedReason;
  }
  EXPECT_EQ(l.args[4].kind, "by_value");
  EXPECT_EQ(l.args[4].size, 4u);
  EXPECT_EQ(l.args[4].typeText, "F32");
  EXPECT_EQ(l.args[5].size, 4u);
  // The range is the braced list: from the `{` after return to the closing `}`.
  EXPECT_EQ(l.range.line, lineOf(kPack, "return {"));
  EXPECT_EQ(l.range.endLine, lineOf(kPack, "    };"));
  EXPECT_EQ(l.args[0].range.line, lineOf(kPack, "\"q_ptr\""));
  EXPECT_EQ(l.args[0].range.col, 8u);
  EXPECT_NE(l.fingerprint, 0u);
}

TEST(CppFacts, StaticListFingerprintIgnoresCommentsButNotCode) {
  FileFacts a = facts(kPack);
  std::string commented = kPack;
  commented.replace(commented.find("{\"by_value\", F32"), 0, "/* softmax scale */ ");
  FileFacts b = facts(commented);
  std::string edited = kPack;
  edited.replace(edited.find("\"k_ptr\""), 7, "\"x_ptr\"");
  FileFacts c = facts(edited);
  ASSERT_EQ(a.lists.size(), 1u);
  ASSERT_EQ(b.lists.size(), 1u);
  ASSERT_EQ(c.lists.size(), 1u);
  EXPECT_EQ(a.lists[0].fingerprint, b.lists[0].fingerprint);
  EXPECT_NE(a.lists[0].fingerprint, c.lists[0].fingerprint);
  EXPECT_EQ(b.lists[0].args.size(), 8u);
}

TEST(CppFacts, QualifiedMethodAndKernelArgumentElements) {
  const std::string src = R"cpp(
namespace sizes {
constexpr uint32_t PTR = sizeof(void*);
constexpr uint32_t I64 = sizeof(int64_t);
}
constexpr std::string_view GLOBAL = "global_buffer";
constexpr const char* BY_VALUE = "by_value";
struct Kinds { static constexpr auto SCALAR = "by_value"; };

std::vector<KernelArgument> Gfx950AttentionDenseNative::signature() const
{
    return {KernelArgument{GLOBAL, sizes::PTR, 0, "q_ptr"},
            KernelArgument{BY_VALUE, sizes::I64, 8, "stride"},
            KernelArgument{Kinds::SCALAR, static_cast<uint32_t>(sizeof(__half)), 16, "eps"},
            KernelArgument{"by_value", uint32_t{4}, 18, "n"},
            KernelArgument{"by_value", uint32_t(8ull), 22, "m"},
            KernelArgument{"by_value", (4U), 30, ""}};
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(l.symbol, "Gfx950AttentionDenseNative::signature");
  ASSERT_EQ(l.args.size(), 6u);
  EXPECT_EQ(l.args[0].kind, "global_buffer");
  EXPECT_EQ(l.args[0].size, 8u);
  EXPECT_EQ(l.args[1].kind, "by_value");
  EXPECT_EQ(l.args[1].size, 8u);
  EXPECT_EQ(l.args[2].kind, "by_value");
  EXPECT_EQ(l.args[2].size, 2u);
  EXPECT_EQ(l.args[2].typeText, "static_cast<uint32_t>(sizeof(__half))");
  EXPECT_EQ(l.args[3].size, 4u);
  EXPECT_EQ(l.args[4].size, 8u);
  EXPECT_EQ(l.args[5].size, 4u);
  EXPECT_EQ(l.args[5].name, "");
  for (const auto& a : l.args) EXPECT_TRUE(a.resolved) << a.unresolvedReason;
}

TEST(CppFacts, SizeofTable) {
  const std::string src = R"cpp(
std::vector<KernelArgument> sig() {
    return {{"by_value", sizeof(int32_t), 0, "a"}, {"by_value", sizeof(uint64_t), 0, "b"},
            {"by_value", sizeof(hip_bfloat16), 0, "c"}, {"by_value", sizeof(uint8_t), 0, "d"},
            {"global_buffer", sizeof(float*), 0, "e"}, {"by_value", sizeof(double), 0, "f"},
            {"by_value", sizeof(_Float16), 0, "g"}, {"by_value", sizeof(size_t), 0, "h"},
            {"by_value", sizeof(bool), 0, "i"}, {"by_value", 8u, 0, "j"}};
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  std::vector<uint32_t> sizes;
  for (const auto& a : f.lists[0].args) sizes.push_back(a.size);
  EXPECT_EQ(sizes, (std::vector<uint32_t>{4, 8, 2, 1, 8, 8, 2, 8, 1, 8}));
}

TEST(CppFacts, UnresolvedKindOrSizeIsReported) {
  const std::string src = R"cpp(
std::vector<KernelArgument> sig() {
    return {{kindFromTable(0), 8, 0, "a"}, {"by_value", sizeof(MyStruct), 8, "b"}, {"by_value", UNKNOWN, 8, "c"}};
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  const auto& a = f.lists[0].args;
  ASSERT_EQ(a.size(), 3u);
  EXPECT_FALSE(a[0].resolved);
  EXPECT_NE(a[0].unresolvedReason.find("kind"), std::string::npos) << a[0].unresolvedReason;
  EXPECT_EQ(a[0].size, 8u);
  EXPECT_FALSE(a[1].resolved);
  EXPECT_NE(a[1].unresolvedReason.find("MyStruct"), std::string::npos) << a[1].unresolvedReason;
  EXPECT_EQ(a[1].kind, "by_value");
  EXPECT_FALSE(a[2].resolved);
  EXPECT_NE(a[2].unresolvedReason.find("UNKNOWN"), std::string::npos) << a[2].unresolvedReason;
  EXPECT_EQ(a[2].typeText, "UNKNOWN");
}

TEST(CppFacts, CommentsInsideElementsAreNotArguments) {
  const std::string src = R"cpp(
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
std::vector<KernelArgument> sig() {
    return {
        {"global_buffer", /* size */ PTR, 0, /* "not_a_name", */ "q_ptr"},  // {"by_value", 4, 0, "x"},
        // {"by_value", 4, 0, "commented_out"},
        {"by_value", 4, /* offset */ 8 /* bytes */, "scale"} /* , {"by_value", 4, 0, "y"} */
    };
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(names(l), (std::vector<std::string>{"q_ptr", "scale"}));
  EXPECT_EQ(l.args[0].size, 8u);
  EXPECT_EQ(l.args[1].size, 4u);
  for (const auto& a : l.args) EXPECT_TRUE(a.resolved) << a.unresolvedReason;
}

const std::string kPin = R"cpp(#include <gtest/gtest.h>

#include "engines/kernel_ingestor_engine/packs/Gfx950AttentionDenseNative.hpp"

using hipdnn_plugin::ingestor::KernelArgument;

namespace {

std::vector<KernelArgument> withArgument(std::vector<KernelArgument> sig, size_t i, KernelArgument a)
{
    sig[i] = a;
    return sig;
}

} // namespace

TEST(TestGfx950AttentionDenseSignature, MatchesPythonBuilder)
{
    const std::vector<KernelArgument> expected{
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
        KernelArgument{"global_buffer", 8, 0, ""},
    };
    EXPECT_NO_THROW(requireSignatureMatch(expected, packSignature()));
}

TEST_F(AttentionDenseSignatureFixture, RejectsExtraArgument)
{
    auto wrong = expected;
    wrong.push_back(KernelArgument{"by_value", 4, 0, ""});
    EXPECT_THROW(requireSignatureMatch(wrong, packSignature()), std::runtime_error);
}

TEST_F(AttentionDenseSignatureFixture, RejectsWrongSize)
{
    EXPECT_THROW(requireSignatureMatch(withArgument(expected, 3, KernelArgument{"by_value", 8, 0, ""}),
                                       packSignature()),
                 std::runtime_error);
    auto sig = expected;
    sig[3] = KernelArgument{"by_value", 4, 0, ""};
    sig.emplace_back(KernelArgument{"by_value", 4, 0, ""});
    sig.insert(sig.begin(), KernelArgument{"global_buffer", 8, 0, ""});
    EXPECT_THROW(requireSignatureMatch(sig, packSignature()), std::runtime_error);
}
)cpp";

TEST(CppFacts, UnnamedTestPinIsOneListAndNegativeTestsAreNone) {
  FileFacts f = facts(kPin, kPinPath);
  EXPECT_TRUE(f.ok) << f.error;
  ASSERT_EQ(f.lists.size(), 1u);
  const CppArgList& l = f.lists[0];
  EXPECT_EQ(l.form, CppArgList::Form::Static);
  EXPECT_EQ(l.symbol, "TestGfx950AttentionDenseSignature.MatchesPythonBuilder");
  EXPECT_EQ(l.variable, "expected");
  EXPECT_FALSE(l.named);
  ASSERT_EQ(l.args.size(), 8u);
  for (const auto& a : l.args) {
    EXPECT_EQ(a.kind, "global_buffer");
    EXPECT_EQ(a.size, 8u);
    EXPECT_EQ(a.name, "");
    EXPECT_TRUE(a.resolved);
  }
  EXPECT_EQ(l.range.line, lineOf(kPin, "const std::vector<KernelArgument> expected{"));
}

TEST(CppFacts, LoneKernelArgumentsAreNeverLists) {
  const std::string src = R"cpp(
TEST_F(Fixture, Negative)
{
    wrong.push_back(KernelArgument{"by_value", 4, 0, ""});
    wrong.emplace_back(KernelArgument{"by_value", 4, 0, "x"});
    auto bad = withArgument(3, KernelArgument{"by_value", 8, 0, ""});
    sig[3] = KernelArgument{"by_value", 8, 0, ""};
    sig[2] = {"by_value", 8, 0, ""};
    auto single = KernelArgument{"global_buffer", 8, 0, "q_ptr"};
    KernelArgument one{"global_buffer", 8, 0, "q_ptr"};
    wrong.insert(wrong.begin(), {KernelArgument{"by_value", 4, 0, ""}, KernelArgument{"by_value", 4, 0, ""}});
    std::vector<int> notArgs = {{1, 2, 3}, {4, 5, 6}};
    std::vector<Pair> pairs = {{"a", 1, 2}, {"b", 3, 4}};
    std::vector<KernelArgument> empty{};
}
)cpp";
  FileFacts f = facts(src, kPinPath);
  EXPECT_TRUE(f.lists.empty()) << f.lists.size() << " lists, first symbol " << f.lists[0].symbol;
}

TEST(CppFacts, DeclarationAssignmentAndCallArgumentPositions) {
  const std::string src = R"cpp(
namespace {
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
}
TEST(Suite, Positions)
{
    const std::vector<KernelArgument> sig = {{"global_buffer", PTR, 0, "a"}, {"by_value", 4, 8, "b"}};
    auto sig2 = std::vector<KernelArgument>{{"global_buffer", PTR, 0}, {"by_value", 4, 8}};
    std::vector<KernelArgument> expected;
    expected = {{"global_buffer", 8, 0, "c"}};
    requireSignatureMatch(std::vector<KernelArgument>{{"global_buffer", 8, 0, "d"}, {"by_value", 2, 8, "e"}}, x);
    checkSignature({KernelArgument{"global_buffer", 8, 0, "f"}, KernelArgument{"by_value", 4, 8, "g"}});
    std::vector<Other> unrelated;
    unrelated = {{"global_buffer", 8, 0, "nope"}};
}
)cpp";
  FileFacts f = facts(src, kPinPath);
  ASSERT_EQ(f.lists.size(), 5u);
  for (const auto& l : f.lists) {
    EXPECT_EQ(l.form, CppArgList::Form::Static);
    EXPECT_EQ(l.symbol, "Suite.Positions");
  }
  EXPECT_EQ(f.lists[0].variable, "sig");
  EXPECT_EQ(names(f.lists[0]), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(f.lists[0].args[0].size, 8u);
  EXPECT_EQ(f.lists[1].variable, "sig2");
  EXPECT_FALSE(f.lists[1].named);
  EXPECT_EQ(f.lists[1].args.size(), 2u);
  EXPECT_EQ(f.lists[1].args[1].kind, "by_value");
  EXPECT_EQ(f.lists[2].variable, "expected");
  EXPECT_EQ(names(f.lists[2]), (std::vector<std::string>{"c"}));
  EXPECT_EQ(names(f.lists[3]), (std::vector<std::string>{"d", "e"}));
  EXPECT_EQ(f.lists[3].args[1].size, 2u);
  EXPECT_EQ(names(f.lists[4]), (std::vector<std::string>{"f", "g"}));
  // All lists of one function share its fingerprint.
  EXPECT_EQ(f.lists[0].fingerprint, f.lists[4].fingerprint);
}

TEST(CppFacts, ReturnOfBareBracesNeedsKernelArgumentReturnType) {
  const std::string src = R"cpp(
std::vector<Triple> notSignature() { return {{"a", 1, 2, "x"}, {"b", 3, 4, "y"}}; }
auto viaKa() { return std::vector<KernelArgument>{{"by_value", 4, 0, "x"}}; }
auto trailing() -> std::vector<KernelArgument> { return {{"by_value", 4, 0, "t"}}; }
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 2u);
  EXPECT_EQ(f.lists[0].symbol, "viaKa");
  EXPECT_EQ(f.lists[1].symbol, "trailing");
}

TEST(CppFacts, NamespaceScopeListHasNoSymbolAndListFingerprint) {
  const std::string src = R"cpp(
namespace {
const std::vector<KernelArgument> kSignature = {{"global_buffer", 8, 0, "q_ptr"}, {"by_value", 4, 8, "n"}};
}
)cpp";
  FileFacts f = facts(src);
  ASSERT_EQ(f.lists.size(), 1u);
  EXPECT_EQ(f.lists[0].symbol, "");
  EXPECT_EQ(f.lists[0].variable, "kSignature");
  auto tree = SyntaxTree::parse(Lang::Cpp, src);
  EXPECT_NE(f.lists[0].fingerprint, codeFingerprint(*tree));
  EXPECT_NE(f.lists[0].fingerprint, 0u);
}

TEST(CppFacts, ExtractCppDirectlyOnATree) {
  auto tree = SyntaxTree::parse(Lang::Cpp, kPack);
  FileFacts f;
  extractCpp(*tree, f);
  ASSERT_EQ(f.lists.size(), 1u);
  EXPECT_EQ(f.lists[0].args.size(), 8u);
  // The fingerprint is the enclosing function definition's.
  TSNode def{};
  walk(tree->root(), [&](TSNode n) {
    if (is(n, "function_definition") && ts_node_is_null(def)) def = n;
    return ts_node_is_null(def);
  });
  ASSERT_FALSE(ts_node_is_null(def));
  EXPECT_EQ(f.lists[0].fingerprint, codeFingerprint(*tree, def));
}

const std::string kLambdaPack = R"cpp(
namespace {
constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));
constexpr auto I32 = static_cast<uint32_t>(sizeof(int32_t));
constexpr auto F32 = static_cast<uint32_t>(sizeof(float));

std::vector<KernelArgument> unifiedAttentionSignature(const KernelMetadata& metadata)
{
    std::vector<KernelArgument> args;
    uint32_t offset = 0;
    auto add = [&](const char* kind, uint32_t size, const char* name) {
        args.push_back(KernelArgument{kind, size, offset, name});
        offset += size;
    };
    for (const char* n : {"q_ptr", "k_ptr", "v_ptr"})
        add("global_buffer", PTR, n);
    add("global_buffer", PTR, "o_ptr");
    if (metadata.useSinks)
    {
        add("global_buffer", PTR, "sink_ptr");
    }
    else
        add("by_value", I32, "no_sinks");
    add("by_value", F32, "scale");
    return args;
}
} // namespace
)cpp";

TEST(CppFacts, LambdaIdiomUnrollsLoopsAndMarksConditionals) {
  FileFacts f = facts(kLambdaPack);
  EXPECT_TRUE(f.ok) << f.error;
  auto lambdas = ofForm(f, CppArgList::Form::Lambda);
  ASSERT_EQ(lambdas.size(), 1u);
  EXPECT_TRUE(ofForm(f, CppArgList::Form::Static).empty());  // KernelArgument{kind, ...} in the lambda
  const CppArgList& l = *lambdas[0];
  EXPECT_EQ(l.symbol, "unifiedAttentionSignature");
  EXPECT_EQ(l.variable, "args");
  EXPECT_TRUE(l.named);
  EXPECT_EQ(names(l), (std::vector<std::string>{"q_ptr", "k_ptr", "v_ptr", "o_ptr", "sink_ptr", "no_sinks", "scale"}));
  ASSERT_EQ(l.args.size(), 7u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(l.args[i].kind, "global_buffer");
    EXPECT_EQ(l.args[i].size, 8u);
  }
  EXPECT_EQ(l.args[5].kind, "by_value");
  EXPECT_EQ(l.args[5].size, 4u);
  EXPECT_EQ(l.args[6].size, 4u);
  for (int i : {0, 1, 2, 3, 6}) {
    EXPECT_FALSE(l.args[i].conditional) << i;
    EXPECT_TRUE(l.args[i].resolved) << l.args[i].unresolvedReason;
  }
  EXPECT_TRUE(l.args[4].conditional);
  EXPECT_EQ(l.args[4].condition, "metadata.useSinks");
  EXPECT_TRUE(l.args[5].conditional);
  EXPECT_EQ(l.args[5].condition, "!(metadata.useSinks)");
  // Loop-unrolled arguments all point at the one add(...) call in the loop body.
  EXPECT_EQ(l.args[0].range, l.args[2].range);
  EXPECT_EQ(l.args[0].range.line, lineOf(kLambdaPack, "add(\"global_buffer\", PTR, n);"));
  EXPECT_EQ(l.args[3].range.line, lineOf(kLambdaPack, "add(\"global_buffer\", PTR, \"o_ptr\");"));
  EXPECT_EQ(l.range.line, lineOf(kLambdaPack, "std::vector<KernelArgument> unifiedAttentionSignature("));
}

TEST(CppFacts, LambdaIdiomWithOtherNamesAndParameterOrder) {
  const std::string src = R"cpp(
constexpr std::string_view GLOBAL = "global_buffer";
void Pack::buildSignature(Sig& out, bool persistent)
{
    auto append = [&out](const char* argName, std::string_view argKind, uint32_t bytes) {
        out.signature.emplace_back(argKind, bytes, 0u, argName);
    };
    append("q", GLOBAL, sizeof(void*));
    if (persistent) {
        if (out.split) append("partials", GLOBAL, 8);
    }
    for (int i = 0; i < n; ++i) append("dyn", "by_value", 4);
}
)cpp";
  FileFacts f = facts(src);
  auto lambdas = ofForm(f, CppArgList::Form::Lambda);
  ASSERT_EQ(lambdas.size(), 1u);
  const CppArgList& l = *lambdas[0];
  EXPECT_EQ(l.symbol, "Pack::buildSignature");
  EXPECT_EQ(l.variable, "out.signature");
  ASSERT_EQ(l.args.size(), 2u);
  EXPECT_EQ(l.args[0].name, "q");
  EXPECT_EQ(l.args[0].kind, "global_buffer");
  EXPECT_EQ(l.args[0].size, 8u);
  EXPECT_TRUE(l.args[1].conditional);
  EXPECT_EQ(l.args[1].condition, "persistent && out.split");
  // The loop appends n arguments, n unknown: what follows is not a third argument, it is open.
  EXPECT_NE(l.openTail.find("the arguments from #3 on: appended in a loop whose count the reader does not know"),
            std::string::npos)
      << l.openTail;
}

// A signature built by appends written at each step (the real gfx950 conv pack's form): loops
// over literal names unrolled, local constexpr sizes, then a loop over a parameter that appends an
// unknown number of arguments: the list is known up to there and open after it, never a wrong count.
TEST(CppFacts, ADirectlyAppendedSignatureIsReadUpToItsLoopOverAParameter) {
  const std::string src = R"cpp(
template <size_t Count>
std::vector<KernelArgument> convSignature(const std::array<std::string_view, Count>& names)
{
    constexpr auto POINTER_BYTES = static_cast<uint32_t>(sizeof(void*));
    constexpr auto I32_BYTES = static_cast<uint32_t>(sizeof(int32_t));
    std::vector<KernelArgument> signature;
    signature.reserve(6 + Count);
    uint32_t offset = 0;
    for(const auto* name : {"A", "B", "D"})
    {
        signature.push_back({"global_buffer", POINTER_BYTES, offset, name});
        offset += POINTER_BYTES;
    }
    signature.emplace_back("by_value", I32_BYTES, offset, "A_bytes");
    for(const auto name : names)
        signature.push_back(KernelArgument{"by_value", I32_BYTES, offset, std::string(name)});
    signature.push_back({"by_value", I32_BYTES, offset, "after"});
    return signature;
}
std::vector<KernelArgument> fromElsewhere()
{
    std::vector<KernelArgument> loaded;
    loaded = loadSignature();
    return loaded;
}
)cpp";
  FileFacts f = facts(src);
  auto lists = ofForm(f, CppArgList::Form::Lambda);
  ASSERT_EQ(lists.size(), 1u) << "a vector no append builds is no list";
  const CppArgList& l = *lists[0];
  EXPECT_EQ(l.symbol, "convSignature");
  EXPECT_EQ(l.variable, "signature");
  std::vector<std::string> got;
  for (const auto& a : l.args) got.push_back(a.name + " " + a.kind + "/" + std::to_string(a.size));
  EXPECT_EQ(got, (std::vector<std::string>{"A global_buffer/8", "B global_buffer/8", "D global_buffer/8",
                                           "A_bytes by_value/4"}));
  EXPECT_NE(l.openTail.find("the arguments from #5 on: appended in a loop over 'names', whose elements the reader "
                            "cannot enumerate"),
            std::string::npos)
      << l.openTail;
}

TEST(CppFacts, LambdaThatDoesNotAppendIsIgnored) {
  const std::string src = R"cpp(
void f() {
    auto log = [&](const char* what, int n, const char* name) { std::cerr << what << n << name; };
    log("global_buffer", 8, "q_ptr");
}
)cpp";
  FileFacts f = facts(src);
  EXPECT_TRUE(f.lists.empty());
}

const std::string kLaunch = R"cpp(
namespace {
class AttentionKernel {
public:
    template <typename... Args>
    void launch(hipStream_t stream, Args&&... args) const
    {
        impl_->launch(stream, std::forward<Args>(args)...);
    }
};
} // namespace

void Gfx950AttentionDenseNative::execute(const ExecuteContext& ctx)
{
    kernel.launch(stream, q.ptr, k.ptr, v.ptr, o.ptr, scale, seqLenQ, seqLenK, numHeads);
    kernelPtr->launch(ctx.stream(), partials.ptr);
    kernel.launch(stream);
    other.run(stream, a, b);
}
)cpp";

TEST(CppFacts, LaunchCallsListArgumentsAfterTheStream) {
  FileFacts f = facts(kLaunch);
  EXPECT_TRUE(f.ok) << f.error;
  auto launches = ofForm(f, CppArgList::Form::Launch);
  ASSERT_EQ(launches.size(), 2u);
  const CppArgList& l = *launches[0];
  EXPECT_EQ(l.symbol, "Gfx950AttentionDenseNative::execute");
  EXPECT_EQ(names(l), (std::vector<std::string>{"q.ptr", "k.ptr", "v.ptr", "o.ptr", "scale", "seqLenQ", "seqLenK",
                                                "numHeads"}));
  // `.ptr` members are pointers; the names this file never declares are not guessed.
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(l.args[i].kind, "global_buffer") << i;
    EXPECT_EQ(l.args[i].size, 8u) << i;
  }
  for (size_t i = 4; i < l.args.size(); ++i) {
    EXPECT_TRUE(l.args[i].kind.empty()) << i;
    EXPECT_FALSE(l.args[i].resolved) << i;
  }
  EXPECT_EQ(l.args[4].unresolvedReason, "'scale' is not declared in this file");
  EXPECT_EQ(l.range.line, lineOf(kLaunch, "kernel.launch(stream, q.ptr"));
  EXPECT_EQ(l.range.col, 4u);
  EXPECT_EQ(names(*launches[1]), (std::vector<std::string>{"partials.ptr"}));
  EXPECT_EQ(f.lists.size(), 2u);
}

TEST(CppFacts, GarbageAndErrorsNeverCrash) {
  std::vector<std::string> inputs = {
      "",
      "}}}}{{{{",
      "std::vector<KernelArgument> f() { return {{\"global_buffer\", PTR, 0, \"q\"}, {\"by_value\", ",
      "#define X(a) {a, 8, 0, #a}\nstd::vector<KernelArgument> f() { return {X(q), X(k)}; }",
      "auto add = [&](const char* k) {}; add(",
      "kernel.launch(stream, a, b",
      "constexpr auto A = B; constexpr auto B = A; std::vector<KernelArgument> f() { return {{\"x\", A, 0, \"a\"}}; }",
      std::string(500, '(') + "sizeof(int)" + std::string(500, ')'),
      "\x01\x02 garbage ### @@@ <<<>>> ::: ;;; " + std::string(1000, '<'),
      "std::vector<KernelArgument> f() { return {{\"by_value\", 99999999999999999999999, 0, \"x\"}, "
      "{\"by_value\", 1.5f, 0, \"y\"}, {\"by_value\", 0x1'0000'0000, 0, \"z\"}}; }",
  };
  for (const auto& src : inputs) {
    FileFacts f = facts(src);
    for (const auto& l : f.lists) EXPECT_LE(l.args.size(), 4096u);
  }
  // The self-referential constants resolve to nothing, not to a hang.
  FileFacts cyc = facts(inputs[6]);
  ASSERT_EQ(cyc.lists.size(), 1u);
  EXPECT_FALSE(cyc.lists[0].args[0].resolved);
  // Sizes that are not 32-bit integers are unresolved, not wrapped.
  FileFacts bad = facts(inputs[9]);
  ASSERT_EQ(bad.lists.size(), 1u);
  for (const auto& a : bad.lists[0].args) EXPECT_FALSE(a.resolved) << a.name;
  // A truncated file still yields what parsed.
  FileFacts partial = facts("constexpr auto PTR = static_cast<uint32_t>(sizeof(void*));\n"
                            "std::vector<KernelArgument> f() { return {{\"global_buffer\", PTR, 0, \"q\"}, "
                            "{\"by_value\", 4, 8, \"n\"}}; }\n"
                            "void g() { kernel.launch(stream, a, b; }\n");
  EXPECT_FALSE(partial.ok);
  ASSERT_FALSE(partial.lists.empty());
  EXPECT_EQ(names(partial.lists[0]), (std::vector<std::string>{"q", "n"}));
}

TEST(CppFacts, DeepNestingNeverCrashes) {
  // Called on the tree directly: the extractor itself walks iteratively and bounds its recursion.
  std::vector<std::string> inputs = {std::string(200000, '{') + std::string(200000, '}'),
                                     std::string(50000, '(') + "sizeof(int)" + std::string(50000, ')')};
  std::string deep = "void f() { auto add = [&](const char* k, uint32_t s, const char* n) { v.push_back(KernelArgument{k, s, 0, n}); };";
  for (int i = 0; i < 20000; ++i) deep += "if (c) {";
  deep += "add(\"by_value\", 4, \"x\");";
  for (int i = 0; i < 20000; ++i) deep += "}";
  deep += "}";
  inputs.push_back(deep);
  std::string shallow = "void f() { auto add = [&](const char* k, uint32_t s, const char* n) { v.push_back(KernelArgument{k, s, 0, n}); };";
  for (int i = 0; i < 50; ++i) shallow += "if (c" + std::to_string(i) + ") {";
  shallow += "add(\"by_value\", 4, \"x\");";
  for (int i = 0; i < 50; ++i) shallow += "}";
  shallow += "}";
  for (const auto& src : inputs) {
    auto tree = SyntaxTree::parse(Lang::Cpp, src);
    FileFacts f;
    extractCpp(*tree, f);
    EXPECT_TRUE(f.lists.empty());  // the call under 20000 ifs is beyond the bounded walk
  }
  FileFacts f = facts(shallow);
  ASSERT_EQ(f.lists.size(), 1u);
  ASSERT_EQ(f.lists[0].args.size(), 1u);
  EXPECT_TRUE(f.lists[0].args[0].conditional);
  EXPECT_TRUE(f.lists[0].args[0].condition.starts_with("c0 && c1 && "));
  EXPECT_TRUE(f.lists[0].args[0].condition.ends_with("&& c49"));
}

// ---------------------------------------------------------------------------------------------
// Launch calls as real packs write them (DOMAIN.md §3): inside the handler's own `launch`
// method, the stream first, each argument's kind read off what the file states.

const std::string kHandler = R"cpp(
struct DenseBinding
{
    int64_t q = 0;
    float scale = 0.0F;
    int64_t numSeqs = 0;
    uint32_t stride = 0;
};

class Gfx950DenseDispatchHandler : public IKernelDispatchHandler<Handle>
{
public:
    void launch(const Handle& handle, const PreparedDispatch& prepared, void* /*workspace*/) const override
    {
        const auto& binding = preparedDense.binding();
        const auto q = find(binding.q);
        void* sinkPtr = nullptr;
        float localScale = binding.scale;
        int64_t wide = 0;
        const auto count = static_cast<int32_t>(binding.numSeqs);
        preparedDense.kernel().launch(handle.getStream(),
                                      q.ptr,
                                      sinkPtr,
                                      nullptr,
                                      binding.scale,
                                      1.0F,
                                      0.5,
                                      localScale,
                                      static_cast<int32_t>(binding.numSeqs),
                                      static_cast<int64_t>(binding.numSeqs),
                                      wide,
                                      count,
                                      binding.stride,
                                      7,
                                      q.offset,
                                      computeSomething(q));
    }
};

template <typename... Args>
void launchForwarded(hipStream_t stream, Args&&... args)
{
    kernel.launch(stream, args...);
}

template <typename... Args>
void launch(Kernel& kernel, hipStream_t stream, Args... args)
{
    kernel.launch(stream, std::get<0>(std::tie(args...)), 1);
}
)cpp";

TEST(CppFactsLaunch, TheHandlersOwnLaunchMethodIsReadAndTheStreamIsNotAnArgument) {
  FileFacts f = facts(kHandler);
  ASSERT_TRUE(f.ok) << f.error;
  auto launches = ofForm(f, CppArgList::Form::Launch);
  // The two variadic wrappers are forwarding wrappers (told by their parameter pack, not by
  // their name); the handler's method named `launch` is the real launch.
  ASSERT_EQ(launches.size(), 1u);
  const CppArgList& l = *launches[0];
  EXPECT_EQ(l.symbol, "Gfx950DenseDispatchHandler::launch");
  ASSERT_EQ(l.args.size(), 15u);
  EXPECT_EQ(l.args[0].name, "q.ptr");
  EXPECT_EQ(l.args[0].range.line, lineOf(kHandler, "                                      q.ptr,"));
}

struct Expected {
  const char* expr;
  const char* kind;
  uint32_t size;
};

TEST(CppFactsLaunch, EachArgumentsKindComesFromWhatTheFileStates) {
  FileFacts f = facts(kHandler);
  auto launches = ofForm(f, CppArgList::Form::Launch);
  ASSERT_EQ(launches.size(), 1u);
  const auto& args = launches[0]->args;
  const std::vector<Expected> want = {
      {"q.ptr", "global_buffer", 8},                                // a .ptr member
      {"sinkPtr", "global_buffer", 8},                              // a void* local
      {"nullptr", "global_buffer", 8},                              // a null pointer literal
      {"binding.scale", "by_value", 4},                             // a float struct field
      {"1.0F", "by_value", 4},                                      // a float literal
      {"0.5", "by_value", 8},                                       // a double literal
      {"localScale", "by_value", 4},                                // a float local
      {"static_cast<int32_t>(binding.numSeqs)", "by_value", 4},     // a cast to int32_t
      {"static_cast<int64_t>(binding.numSeqs)", "by_value", 8},     // a cast to int64_t
      {"wide", "by_value", 8},                                      // an int64_t local
      {"count", "by_value", 4},                                     // an auto local: its initializer
      {"binding.stride", "by_value", 4},                            // a uint32_t field
      {"7", "by_value", 4},                                         // an int literal
  };
  ASSERT_GE(args.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(args[i].name, want[i].expr) << i;
    EXPECT_TRUE(args[i].resolved) << want[i].expr << ": " << args[i].unresolvedReason;
    EXPECT_EQ(args[i].kind, want[i].kind) << want[i].expr;
    EXPECT_EQ(args[i].size, want[i].size) << want[i].expr;
  }
}

TEST(CppFactsLaunch, AnArgumentWhoseKindIsNotStatedIsReportedNotGuessed) {
  FileFacts f = facts(kHandler);
  auto launches = ofForm(f, CppArgList::Form::Launch);
  ASSERT_EQ(launches.size(), 1u);
  const auto& args = launches[0]->args;
  ASSERT_EQ(args.size(), 15u);
  EXPECT_EQ(args[13].name, "q.offset");
  EXPECT_FALSE(args[13].resolved);
  EXPECT_TRUE(args[13].kind.empty());
  EXPECT_EQ(args[13].unresolvedReason, "no field 'offset' declared in this file");
  EXPECT_FALSE(args[14].resolved);
  EXPECT_EQ(args[14].unresolvedReason, "the result type of 'computeSomething(...)' is not stated in this file");
}

TEST(CppFactsLaunch, FieldsOfTheSameNameWithDifferentTypesAreNotGuessed) {
  const std::string src = R"cpp(
struct A { float scale = 0.0F; };
struct B { int64_t scale = 0; };
void Handler::launch(const Handle& h) const { kernel.launch(h.getStream(), a.scale); }
)cpp";
  FileFacts f = facts(src);
  auto launches = ofForm(f, CppArgList::Form::Launch);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0]->symbol, "Handler::launch");
  ASSERT_EQ(launches[0]->args.size(), 1u);
  EXPECT_FALSE(launches[0]->args[0].resolved);
  EXPECT_EQ(launches[0]->args[0].unresolvedReason, "fields named 'scale' of different types in this file");
}

TEST(CppFactsLaunch, CyclicAutoLocalsAndDeepNestingEndWithAReasonNotAHang) {
  const std::string src = "void Handler::launch(const Handle& h) const {\n"
                          "  auto a = b;\n  auto b = a;\n"
                          "  kernel.launch(h.getStream(), a, " + std::string(300, '(') + "1.0F" + std::string(300, ')') +
                          ", cond ? nullptr : q.ptr);\n}\n";
  FileFacts f = facts(src);
  auto launches = ofForm(f, CppArgList::Form::Launch);
  ASSERT_EQ(launches.size(), 1u);
  ASSERT_EQ(launches[0]->args.size(), 3u);
  EXPECT_FALSE(launches[0]->args[0].resolved);
  EXPECT_FALSE(launches[0]->args[0].unresolvedReason.empty());
  // Parentheses around a literal are looked through (up to a bound), and both branches of a
  // conditional that agree give its kind.
  EXPECT_EQ(launches[0]->args[2].kind, "global_buffer");
  EXPECT_EQ(launches[0]->args[2].size, 8u);
}

TEST(CppFactsLaunch, NamespaceConstantsAndParametersHaveTheirDeclaredTypes) {
  const std::string src = R"cpp(
namespace {
constexpr float kIdentityScale = 1.0F;
constexpr auto kStride = static_cast<int64_t>(0);
} // namespace
void Handler::launch(const Handle& h, const float* bias, int32_t count) const
{
    kernel.launch(h.getStream(), kIdentityScale, kStride, bias, count);
}
)cpp";
  FileFacts f = facts(src);
  auto launches = ofForm(f, CppArgList::Form::Launch);
  ASSERT_EQ(launches.size(), 1u);
  const auto& a = launches[0]->args;
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].kind + "/" + std::to_string(a[0].size), "by_value/4") << a[0].unresolvedReason;
  EXPECT_EQ(a[1].kind + "/" + std::to_string(a[1].size), "by_value/8") << a[1].unresolvedReason;
  EXPECT_EQ(a[2].kind + "/" + std::to_string(a[2].size), "global_buffer/8") << a[2].unresolvedReason;
  EXPECT_EQ(a[3].kind + "/" + std::to_string(a[3].size), "by_value/4") << a[3].unresolvedReason;
}

}  // namespace
}  // namespace impact
