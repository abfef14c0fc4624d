// Issue 36 item 3, "never silently short": whether a C++ type is KernelArgument (or a list of it)
// is decided in one place from the syntax tree (KaTypes: aliases, typedefs, containers, `auto`,
// the tree's headers' aliases), never by a type's spelling or a callee's name; a local filled
// field by field and a table walked by a loop read as the appends they are. On the real gfx950
// conv pack's KernelArgument list (read at test time), rewritten in each form here.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "extract/Extract.h"
#include "support/ConvText.h"
#include "support/HeaderTree.h"

namespace impact {
namespace {

using testing::extractWith;
using testing::HeaderTree;
using testing::kConvLoops;
using testing::noLines;
using testing::kPacks;
using testing::readReal;

struct Arg {
  std::string name, kind;
  uint32_t size;
  bool resolved;
  bool operator==(const Arg&) const = default;
  friend std::ostream& operator<<(std::ostream& o, const Arg& a) {
    return o << a.name << " " << a.kind << "/" << a.size << (a.resolved ? "" : " (not resolved)");
  }
};

std::vector<Arg> argsOf(const CppArgList& l) {
  std::vector<Arg> out;
  for (const auto& a : l.args) out.push_back({a.name, a.kind, a.size, a.resolved});
  return out;
}

const CppArgList* listIn(const FileFacts& f, const std::string& symbol) {
  for (const auto& l : f.lists)
    if (l.form != CppArgList::Form::Launch && l.symbol.find(symbol) != std::string::npos) return &l;
  return nullptr;
}

const std::string kRows = R"CPP({{"global_buffer", POINTER_BYTES, "A"}, {"global_buffer", POINTER_BYTES, "B"},
                                {"global_buffer", POINTER_BYTES, "D"}, {"by_value", I32_BYTES, "A_bytes"},
                                {"by_value", I32_BYTES, "B_bytes"}, {"by_value", I32_BYTES, "D_bytes"}};
)CPP";

// The six leading arguments in each form a kernel author writes (each compiles and builds the same
// list: tests/metamorphic/cpp_list_idioms.py checks its idioms so).
struct Form {
  std::string label, text;
};
std::vector<Form> forms() {
  std::string loopsThrough = kConvLoops;
  auto via = [](std::string s, const std::string& element) {
    for (size_t at = s.find("push_back({"); at != std::string::npos; at = s.find("push_back({", at + 1))
      s.replace(at, 11, "push_back(" + element + "{");
    for (size_t at = s.find(", name});"); at != std::string::npos; at = s.find(", name});", at + 1))
      s.replace(at, 9, ", name}));");
    return s;
  };
  std::string fields;
  for (const auto& [names, kind, size] : {std::tuple{"{\"A\", \"B\", \"D\"}", "global_buffer", "POINTER_BYTES"},
                                          std::tuple{"{\"A_bytes\", \"B_bytes\", \"D_bytes\"}", "by_value", "I32_BYTES"}})
    fields += std::string("    for(const auto* name : ") + names + ")\n    {\n        KernelArgument argument;\n" +
              "        argument.kind = \"" + kind + "\";\n        argument.size = " + size +
              ";\n        argument.offset = offset;\n        argument.name = name;\n" +
              "        signature.push_back(argument);\n        offset += " + size + ";\n    }\n";
  const std::string row = "    struct Row\n    {\n        const char* kind;\n        uint32_t size;\n        const char* name;\n    };\n";
  return {
      {"a using alias of KernelArgument", "    using Argument = KernelArgument;\n" + via(kConvLoops, "Argument")},
      {"a typedef of KernelArgument", "    typedef KernelArgument Argument;\n" + via(kConvLoops, "Argument")},
      {"a qualified KernelArgument through an alias of an alias",
       "    using Sdk = hipdnn_plugin_sdk::ingestor::KernelArgument;\n    using Argument = Sdk;\n" + via(kConvLoops, "Argument")},
      {"a local filled field by field", fields},
      {"a constexpr table walked by a range-for",
       row + "    static constexpr Row ROWS[] = " + kRows +
           "    for(const auto& r : ROWS)\n    {\n        signature.push_back({r.kind, r.size, offset, r.name});\n"
           "        offset += r.size;\n    }\n"},
      {"a constexpr std::array table walked by an index",
       row + "    static constexpr std::array<Row, 6> ROWS{" + kRows.substr(0, kRows.size() - 3) + "}};\n" +
           "    for(size_t i = 0; i < ROWS.size(); ++i)\n    {\n"
           "        signature.push_back({ROWS[i].kind, ROWS[i].size, offset, ROWS[i].name});\n"
           "        offset += ROWS[i].size;\n    }\n"},
      {"a table of designated rows",
       row + "    static constexpr Row ROWS[] = {{.kind = \"global_buffer\", .size = POINTER_BYTES, .name = \"A\"},\n"
             "        {.kind = \"global_buffer\", .size = POINTER_BYTES, .name = \"B\"},\n"
             "        {.kind = \"global_buffer\", .size = POINTER_BYTES, .name = \"D\"},\n"
             "        {.kind = \"by_value\", .size = I32_BYTES, .name = \"A_bytes\"},\n"
             "        {.kind = \"by_value\", .size = I32_BYTES, .name = \"B_bytes\"},\n"
             "        {.kind = \"by_value\", .size = I32_BYTES, .name = \"D_bytes\"}};\n"
             "    for(const auto& r : ROWS)\n    {\n        signature.push_back({r.kind, r.size, offset, r.name});\n"
             "        offset += r.size;\n    }\n"},
      {"a std::tuple table with a structured binding",
       "    static constexpr std::tuple<const char*, uint32_t, const char*> ROWS[] = " + kRows +
           "    for(const auto& [kind, size, name] : ROWS)\n    {\n        signature.push_back({kind, size, offset, name});\n"
           "        offset += size;\n    }\n"},
      {"std::get of a tuple row",
       "    static constexpr std::tuple<const char*, uint32_t, const char*> ROWS[] = " + kRows +
           "    for(const auto& r : ROWS)\n    {\n"
           "        signature.emplace_back(std::get<0>(r), std::get<1>(r), offset, std::get<2>(r));\n"
           "        offset += std::get<1>(r);\n    }\n"},
  };
}

struct ConvListForms : ::testing::Test {
  std::string original;
  std::vector<Arg> untouched;
  std::string untouchedOpen;  // the real list is open at its loop over `names`
  void SetUp() override {
    if (testing::realCorpusDir().empty()) GTEST_SKIP() << "../shared/real-data/rocm-libraries is absent";
    original = readReal("Gfx950ConvFwdNative.cpp");
    FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", original, nullptr);
    const CppArgList* l = listIn(f, "convFwdKernelSignature");
    ASSERT_NE(l, nullptr);
    untouched = argsOf(*l);
    untouchedOpen = noLines(l->openTail);
    ASSERT_EQ(untouched.size(), 6u);
  }
  std::string with(const std::string& loops) const {
    std::string s = original;
    size_t at = s.find(kConvLoops);
    EXPECT_NE(at, std::string::npos) << "the real conv pack no longer holds its two loops";
    if (at != std::string::npos) s.replace(at, std::string(kConvLoops).size(), loops);
    return s;
  }
};

TEST_F(ConvListForms, EachFormReadsAsTheRealList) {
  for (const Form& form : forms()) {
    FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", with(form.text), nullptr);
    const CppArgList* l = listIn(f, "convFwdKernelSignature");
    ASSERT_NE(l, nullptr) << form.label << ": the copy was dropped";
    EXPECT_EQ(argsOf(*l), untouched) << form.label;
    EXPECT_EQ(noLines(l->openTail), untouchedOpen) << form.label;
  }
}

// The vector's own type through an alias, at namespace scope or in a header of the tree.
TEST_F(ConvListForms, TheListsTypeThroughAnAliasOfTheFileOrOfAHeader) {
  const std::string decl = "std::vector<KernelArgument> signature;";
  const std::string head = "std::vector<KernelArgument> convFwdKernelSignature(";
  ASSERT_NE(original.find(decl), std::string::npos);
  std::string s = original;
  s.replace(s.find(decl), decl.size(), "KernelArguments signature;");
  s.replace(s.find(head), head.size(), "KernelArguments convFwdKernelSignature(");
  std::string local = s;
  local.replace(local.find("template <size_t Count>\nKernelArguments"), 0,
                "using KernelArguments = std::vector<hipdnn_plugin_sdk::ingestor::KernelArgument>;\n");
  FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", local, nullptr);
  const CppArgList* l = listIn(f, "convFwdKernelSignature");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(argsOf(*l), untouched);

  // The alias in a header of the tree the pack includes: read with the headers, the same list.
  std::string included = "#include \"ConvTypes.hpp\"\n" + s;
  HeaderTree tree;
  tree.files[std::string(kPacks) + "ConvTypes.hpp"] =
      "#pragma once\nnamespace packs {\nusing Argument = KernelArgument;\n}\ntypedef std::vector<packs::Argument> KernelArguments;\n";
  EXPECT_TRUE(cpp::usesHeaderMacros(included, tree.reader())) << "a header's alias the file uses needs the headers";
  FileFacts g = extractWith("Gfx950ConvFwdNative.cpp", included, &tree);
  l = listIn(g, "convFwdKernelSignature");
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(argsOf(*l), untouched);
}

// What the reader does not follow is an argument at its position whose type is not resolved,
// saying why; never a dropped one.
TEST_F(ConvListForms, ALocalTheReaderDoesNotFollowIsANamedArgumentNeverADroppedOne) {
  std::string loops = kConvLoops;
  loops.replace(loops.find("        signature.push_back({\"global_buffer\", POINTER_BYTES, offset, name});"),
                std::string("        signature.push_back({\"global_buffer\", POINTER_BYTES, offset, name});").size(),
                "        KernelArgument argument;\n        fillPointer(argument, name, offset);\n"
                "        signature.push_back(argument);");
  // fillPointer is a function of the file (a name no file read defines could be a header's macro:
  // the list would be open there, CppHeaderMacros).
  std::string withFill = with(loops);
  const std::string head = "template <size_t Count>\nstd::vector<KernelArgument> convFwdKernelSignature";
  ASSERT_NE(withFill.find(head), std::string::npos);
  withFill.replace(withFill.find(head), 0,
                   "void fillPointer(KernelArgument& argument, const char* name, uint32_t offset)\n{\n"
                   "    argument = {\"global_buffer\", sizeof(void*), offset, name};\n}\n\n");
  FileFacts f = extractWith("Gfx950ConvFwdNative.cpp", withFill, nullptr);
  const CppArgList* l = listIn(f, "convFwdKernelSignature");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), untouched.size()) << l->openTail;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_FALSE(l->args[i].resolved);
    EXPECT_NE(l->args[i].unresolvedReason.find("`argument` is given to fillPointer, which may change it"),
              std::string::npos)
        << l->args[i].unresolvedReason;
  }
  for (size_t i = 3; i < 6; ++i) EXPECT_EQ(argsOf(*l)[i], untouched[i]);
  // A field set under a condition of its own is not guessed either.
  std::string cond = kConvLoops;
  cond.replace(cond.find("        signature.push_back({\"by_value\", I32_BYTES, offset, name});"),
               std::string("        signature.push_back({\"by_value\", I32_BYTES, offset, name});").size(),
               "        KernelArgument argument{\"by_value\", I32_BYTES, offset, name};\n"
               "        if(wide)\n            argument.size = 8;\n        signature.push_back(argument);");
  f = extractWith("Gfx950ConvFwdNative.cpp", with(cond), nullptr);
  l = listIn(f, "convFwdKernelSignature");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->args.size(), untouched.size());
  EXPECT_FALSE(l->args[3].resolved);
  EXPECT_NE(l->args[3].unresolvedReason.find("`argument.size` is set under `wide`"), std::string::npos)
      << l->args[3].unresolvedReason;
}

// The decision is the type's, never a spelling: a type whose name merely contains
// "KernelArgument" is not one, and a braced list handed to a call is a copy only when the file's
// callee takes a KernelArgument list there (the callee's name says nothing).
TEST(KaTypes, DecidedByTheTypeNeverBySpelling) {
  const std::string src = R"cpp(#include <vector>
struct KernelArgumentNames { const char* kind; unsigned size; unsigned offset; const char* name; };
std::vector<KernelArgumentNames> kernelArgumentNames()
{
    return {{"global_buffer", 8, 0, "q_ptr"}, {"by_value", 4, 8, "scale"}};
}
void requireSignature(const char* what, const std::vector<KernelArgumentNames>& names);
void checkAbi(const std::vector<hipdnn_plugin_sdk::ingestor::KernelArgument>& expected);
void pins()
{
    requireSignature("dense", {{"global_buffer", 8, 0, "q_ptr"}, {"by_value", 4, 8, "scale"}});
    checkAbi({{"global_buffer", 8, 0, "q_ptr"}, {"by_value", 4, 8, "scale"}});
}
)cpp";
  FileFacts f = extractFile(std::string(kPacks) + "Gfx950AttentionDenseNative.cpp", src);
  std::vector<std::string> symbols;
  for (const auto& l : f.lists) symbols.push_back(l.symbol + ":" + std::to_string(l.args.size()));
  // Only the list handed to checkAbi (whose parameter is a KernelArgument list) is a copy; the
  // KernelArgumentNames lists are not, whatever their callee or function is called.
  EXPECT_EQ(symbols, (std::vector<std::string>{"pins:2"}));
}

}  // namespace
}  // namespace impact
