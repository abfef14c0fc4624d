// Issue 36 item 3, the rest: macros defined in a header of the tree (`#include "x.hpp"` read
// through the reader the analysis gives, from the same snapshot) and `#if` arms around a
// KernelArgument list or a launch's arguments, decided from the macros read or named. On the real
// rocm-libraries copies (read at test time), rewritten into these forms here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "extract/Extract.h"
#include "parse/Syntax.h"
#include "support/ConvText.h"
#include "support/HeaderTree.h"
#include "support/RealCorpus.h"

namespace impact {
namespace {

using testing::HeaderTree;
using testing::kConvAppendArgument;
using testing::kConvLeadingArguments;
using testing::kConvLoops;
using testing::noLines;
using testing::kPacks;
using testing::readReal;
using testing::extractWith;

struct Arg {
  std::string name, kind;
  uint32_t size;
  bool operator==(const Arg&) const = default;
};

std::vector<Arg> argsOf(const CppArgList& l) {
  std::vector<Arg> out;
  for (const auto& a : l.args) out.push_back({a.name, a.kind, a.size});
  return out;
}

const CppArgList* listOf(const FileFacts& f, CppArgList::Form form, const std::string& symbol) {
  for (const auto& l : f.lists)
    if (l.form == form && l.symbol.find(symbol) != std::string::npos) return &l;
  return nullptr;
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << "the real file no longer holds:\n" << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

// The same six appends as an X-macro kept in a header of the tree, with an include guard.
const std::string kConvHeader = "#ifndef CONV_ARGUMENTS_HPP\n#define CONV_ARGUMENTS_HPP\n" + kConvLeadingArguments +
                                "#include \"ConvAppend.hpp\"\n#endif\n";
const std::string kConvAppend = "#pragma once\n#include \"ConvArguments.hpp\"\n" + kConvAppendArgument;

struct ConvHeaderForms : ::testing::Test {
  std::string original;
  std::vector<Arg> untouched;
  std::string untouchedOpen;  // the real list is open at its loop over `names`
  void SetUp() override {
    if (testing::realCorpusDir().empty()) GTEST_SKIP() << "../shared/real-data/rocm-libraries is absent";
    original = readReal("Gfx950ConvFwdNative.cpp");
    FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", original, nullptr);
    const CppArgList* l = listOf(f, CppArgList::Form::Lambda, "convFwdKernelSignature");
    ASSERT_NE(l, nullptr);
    untouched = argsOf(*l);
    untouchedOpen = noLines(l->openTail);
    ASSERT_GE(untouched.size(), 6u);
  }
  // The real file with the loops replaced and `#include "ConvArguments.hpp"` after its includes.
  std::string withHeaderXMacro() const {
    std::string s = replaced(original, kConvLoops, "    CONV_LEADING_ARGUMENTS(CONV_APPEND_ARGUMENT)\n");
    size_t inc = s.find("#include \"");
    return s.substr(0, inc) + "#include \"ConvArguments.hpp\"\n" + s.substr(inc);
  }
};

TEST_F(ConvHeaderForms, AnXMacroOfAHeaderOfTheTreeReadsAsTheList) {
  HeaderTree tree;
  tree.files[std::string(kPacks) + "ConvArguments.hpp"] = kConvHeader;
  tree.files[std::string(kPacks) + "ConvAppend.hpp"] = kConvAppend;  // includes the first back: a cycle
  FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", withHeaderXMacro(), &tree);
  const CppArgList* l = listOf(f, CppArgList::Form::Lambda, "convFwdKernelSignature");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(argsOf(*l), untouched);
  EXPECT_EQ(noLines(l->openTail), untouchedOpen);
}

TEST_F(ConvHeaderForms, AHeaderNotInTheTreeLeavesTheListANamedRow) {
  HeaderTree tree;  // holds neither header
  for (HeaderTree* t : {&tree, static_cast<HeaderTree*>(nullptr)}) {
    FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", withHeaderXMacro(), t);
    const CppArgList* l = listOf(f, CppArgList::Form::Lambda, "convFwdKernelSignature");
    ASSERT_NE(l, nullptr) << "the copy was dropped";
    // Never a shorter list without saying so: open where the unknown macro is.
    EXPECT_LT(l->args.size(), untouched.size());
    EXPECT_FALSE(l->openTail.empty());
    EXPECT_NE(l->openTail.find("CONV_LEADING_ARGUMENTS"), std::string::npos) << l->openTail;
  }
  EXPECT_FALSE(tree.asked.empty());
}

TEST_F(ConvHeaderForms, IfArmsAreDecidedFromTheMacrosOfTheFileAndItsHeaders) {
  // The byte counts under `#if CONV_WITH_BYTES`, another list under `#else`.
  const std::string bytesLoop = std::string(kConvLoops).substr(std::string(kConvLoops).find("    for(const auto* name : {\"A_bytes\""));
  const std::string guarded = "#if CONV_WITH_BYTES > 0 && defined(CONV_ARGUMENTS_HPP)\n" + bytesLoop + "#else\n" +
                              "    signature.push_back({\"by_value\", I32_BYTES, offset, \"no_bytes\"});\n#endif\n";
  std::string src = replaced(original, bytesLoop, guarded);
  size_t inc = src.find("#include \"");
  src = src.substr(0, inc) + "#include \"ConvConfig.hpp\"\n" + src.substr(inc);
  for (const char* value : {"1", "0"}) {
    HeaderTree tree;
    tree.files[std::string(kPacks) + "ConvConfig.hpp"] =
        std::string("#pragma once\n#define CONV_ARGUMENTS_HPP\n#define CONV_BYTES_COUNT 3\n#define CONV_WITH_BYTES (") +
        value + " * CONV_BYTES_COUNT)\n";
    FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", src, &tree);
    const CppArgList* l = listOf(f, CppArgList::Form::Lambda, "convFwdKernelSignature");
    ASSERT_NE(l, nullptr);
    std::vector<Arg> want = untouched;
    if (std::string(value) == "0") {
      want.erase(want.begin() + 3, want.begin() + 6);
      want.insert(want.begin() + 3, Arg{"no_bytes", "by_value", 4});
    }
    EXPECT_EQ(argsOf(*l), want) << "CONV_WITH_BYTES " << value;
    if (std::string(value) == "1") EXPECT_EQ(noLines(l->openTail), untouchedOpen);
    else EXPECT_NE(l->openTail.find("appended in a loop over 'names'"), std::string::npos) << l->openTail;
  }
}

TEST_F(ConvHeaderForms, AnArmThatCannotBeDecidedOpensTheListThereSayingWhy) {
  const std::string bytesLoop = std::string(kConvLoops).substr(std::string(kConvLoops).find("    for(const auto* name : {\"A_bytes\""));
  std::string src = replaced(original, bytesLoop, "#ifdef CONV_WITH_BYTES\n" + bytesLoop + "#endif\n");
  FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", src, nullptr);
  const CppArgList* l = listOf(f, CppArgList::Form::Lambda, "convFwdKernelSignature");
  ASSERT_NE(l, nullptr) << "the copy was dropped";
  EXPECT_EQ(argsOf(*l), std::vector<Arg>(untouched.begin(), untouched.begin() + 3));
  EXPECT_NE(l->openTail.find("the arguments from #4 on: not read: `#ifdef CONV_WITH_BYTES`"), std::string::npos)
      << l->openTail;
  EXPECT_NE(l->openTail.find("is not decided: CONV_WITH_BYTES is defined in no file read"), std::string::npos)
      << l->openTail;
  // The real file's own `#ifdef HIPDNN_ENABLE_KERNEL_INGESTOR` around the whole pack is not decided
  // either, and changes nothing: every list inside it is read as its own copy.
  FileFacts real = extractWith("Gfx950ConvFwdNative.cpp", original, nullptr);
  EXPECT_EQ(noLines(listOf(real, CppArgList::Form::Lambda, "convFwdKernelSignature")->openTail), untouchedOpen);
}

// The real gfx942 dense launch, its last value under `#if` arms inside the call's arguments.
TEST(CppHeaderMacros, ArmsInsideALaunchsArgumentsAreDecidedOrNamed) {
  if (testing::realCorpusDir().empty()) GTEST_SKIP() << "../shared/real-data/rocm-libraries is absent";
  const std::string original = readReal("Gfx942AttentionDenseNative.cpp");
  const std::string call = "handle.getStream(), q.ptr, k.ptr, v.ptr, o.ptr, binding.scale);";
  auto launchOf = [](const FileFacts& f) -> const CppArgList* {
    for (const auto& l : f.lists)
      if (l.form == CppArgList::Form::Launch && l.symbol.find("DispatchHandler::launch") != std::string::npos) return &l;
    return nullptr;
  };
  FileFacts base = extractWith("Gfx942AttentionDenseNative.cpp", original, nullptr);
  ASSERT_NE(launchOf(base), nullptr);
  const std::vector<Arg> untouched = argsOf(*launchOf(base));
  const std::string armed = "handle.getStream(), q.ptr, k.ptr, v.ptr, o.ptr,\n#if DENSE_SCALE_BY_VALUE\n"
                            "            binding.scale);\n#else\n            &binding.scale);\n#endif\n";
  const std::string src = replaced(original, call, armed);
  // Decided by a header of the tree.
  HeaderTree tree;
  tree.files[std::string(kPacks) + "DenseConfig.hpp"] = "#pragma once\n#define DENSE_SCALE_BY_VALUE 1\n";
  std::string withInclude = src;
  size_t inc = withInclude.find("#include \"");
  withInclude = withInclude.substr(0, inc) + "#include \"DenseConfig.hpp\"\n" + withInclude.substr(inc);
  FileFacts decided = extractWith("Gfx942AttentionDenseNative.cpp", withInclude, &tree);
  ASSERT_NE(launchOf(decided), nullptr);
  EXPECT_EQ(argsOf(*launchOf(decided)), untouched);
  EXPECT_EQ(launchOf(decided)->openTail, launchOf(base)->openTail);
  // Not decided (the header is not in the tree): open at the scale, never both arms' values.
  HeaderTree empty;
  FileFacts open = extractWith("Gfx942AttentionDenseNative.cpp", withInclude, &empty);
  const CppArgList* l = launchOf(open);
  ASSERT_NE(l, nullptr) << "the copy was dropped";
  EXPECT_EQ(argsOf(*l), std::vector<Arg>(untouched.begin(), untouched.end() - 1));
  EXPECT_NE(l->openTail.find("`#if DENSE_SCALE_BY_VALUE`"), std::string::npos) << l->openTail;
  EXPECT_NE(l->openTail.find("headers not in the tree: DenseConfig.hpp"), std::string::npos) << l->openTail;
}

TEST(CppHeaderMacros, IncludesNestOnlyToTheDepthLimit) {
  HeaderTree tree;
  const int n = cpp::kMaxIncludeDepth + 2;
  for (int i = 0; i < n; ++i)
    tree.files[std::string(kPacks) + "h" + std::to_string(i) + ".hpp"] =
        i + 1 < n ? "#include \"h" + std::to_string(i + 1) + ".hpp\"\n"
                  : "#define ARGS(X) X(\"by_value\", 4, \"n\")\n#define ENTRY(k, s, n) KernelArgument{k, s, 0, n},\n";
  const std::string src = "#include \"h0.hpp\"\nstd::vector<KernelArgument> sig()\n{\n    return { ARGS(ENTRY) };\n}\n";
  FileFacts f = extractWith("Deep.cpp", src, &tree);
  ASSERT_EQ(f.lists.size(), 1u) << "the copy was dropped";
  EXPECT_TRUE(f.lists[0].args.empty());
  EXPECT_FALSE(f.lists[0].openTail.empty());
  // Within the limit, the same macros read.
  tree.files[std::string(kPacks) + "h2.hpp"] = tree.files[std::string(kPacks) + "h" + std::to_string(n - 1) + ".hpp"];
  FileFacts g = extractWith("Deep.cpp", src, &tree);
  ASSERT_EQ(g.lists.size(), 1u);
  ASSERT_EQ(g.lists[0].args.size(), 1u) << g.lists[0].openTail;
  EXPECT_EQ(g.lists[0].args[0].name, "n");
}

// Whether a file needs its headers read at all (a keystroke's second parse skipped when not): a
// name a header of the tree defines or undefines, transitively, used in the file. The real tiled
// pack with a geometry header that defines only its include guard and a name the pack never uses
// reads alone; the same pack using that name, or an X-macro of a nested header, needs them; a
// system header is never asked for.
TEST(CppHeaderMacros, AFileNeedsItsHeadersOnlyWhereItUsesANameTheyDefine) {
  const std::string pack = readReal("Gfx950AttentionTiledNative.cpp");
  if (pack.empty()) GTEST_SKIP() << "../shared/real-data is absent";
  HeaderTree tree;
  tree.files[std::string(kPacks) + "Geometry.hpp"] =
      "#ifndef GEOMETRY_HPP\n#define GEOMETRY_HPP\n#define TILE_UNUSED_BY_THE_PACK 64\n#include \"inner/Args.hpp\"\n#endif\n";
  tree.files[std::string(kPacks) + "inner/Args.hpp"] = "#define TILED_ARGS(X) X(q_ptr)\n";
  const std::string withInclude = "#include <vector>\n#include \"Geometry.hpp\"\n" + pack;
  EXPECT_FALSE(cpp::usesHeaderMacros(withInclude, tree.reader()));
  for (const std::string& a : tree.asked) EXPECT_EQ(a.find("vector"), std::string::npos) << "asked for " << a;
  EXPECT_TRUE(cpp::usesHeaderMacros(withInclude + "\nint t = TILE_UNUSED_BY_THE_PACK;\n", tree.reader()));
  EXPECT_TRUE(cpp::usesHeaderMacros(withInclude + "\n#define E(n) n,\nint v[] = {TILED_ARGS(E)};\n", tree.reader()));
  tree.files[std::string(kPacks) + "inner/Args.hpp"] = "#undef HIPDNN_ENABLE_KERNEL_INGESTOR\n";
  EXPECT_TRUE(cpp::usesHeaderMacros(withInclude, tree.reader())) << "the pack's #ifdef names what a header undefines";
}

}  // namespace
}  // namespace impact
