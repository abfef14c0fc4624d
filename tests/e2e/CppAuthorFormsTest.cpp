// C++ the way authors write it (issue 36 item 3), on the real rocm-libraries copies rewritten in
// each form: the gfx950 conv pack's KernelArgument list (`convFwdKernelSignature`: three pointers
// and three byte counts appended by two loops over literal lists, then the problem names) written
// as an X-macro and as a list composed of helper calls; the gfx942 dense and gfx950 tiled launches
// written through `std::make_tuple` + `std::apply`, `std::tuple_cat`, and a struct's fields passed
// by `std::tie`. Each rewrite must read as the original does (`impact check` says the same of the
// copy), a builder change must still make it a mismatch, and what cannot be read is a named row
// that keeps the copy in the coverage count.
#include <gtest/gtest.h>

#include <cctype>
#include <regex>
#include <string>
#include <vector>

#include "support/ConvRewrite.h"
#include "support/FixtureRepo.h"
#include "support/RealCorpus.h"

namespace impact::testing {
namespace {

using R = RealCorpusFixture;

TEST(CppAuthorForms, AnXMacroListReadsAsTheListItExpandsTo) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  ASSERT_NE(repo.untouched.find("agrees (6 arguments)"), std::string::npos) << repo.untouched;
  repo.rewrite(kConvLoops, kConvXMacro);
  repo.commit("conv signature through an X-macro");
  RunResult r = check(repo);
  EXPECT_EQ(copyEntry(r.out, kConvPack, "convFwdKernelSignature"), repo.untouched) << r.out;
  EXPECT_EQ(coverage(r.out), repo.untouchedCoverage) << r.out;
  // Its arguments point at the invocation's line, the real line of the file.
  RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + kConvPack) + " --as " + shellQuote(kConvPack));
  ASSERT_EQ(facts.exitCode, 0) << facts.err;
  EXPECT_EQ(facts.out.find("syntax error"), std::string::npos) << facts.out.substr(0, 2000);

  // A builder change is still caught through the expansion.
  repo.git("checkout -q -b mutated");
  repo.replace(R::kConvBuilder, "B_bytes = b.param(\"B_bytes\", I32)", "B_bytes = b.param(\"B_bytes\", I64)");
  repo.commit("B_bytes becomes i64");
  RunResult m = check(repo);
  EXPECT_NE(copyEntry(m.out, kConvPack, "convFwdKernelSignature").find("mismatch"), std::string::npos) << m.out;
}

TEST(CppAuthorForms, AnXMacroItCannotExpandIsANamedRowThatStaysInTheCount) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  // The append macro is not defined in the file (an included header would hold it).
  std::string xmacro = kConvXMacro;
  size_t def = xmacro.find("#define CONV_APPEND_ARGUMENT");
  size_t end = xmacro.find("    CONV_LEADING_ARGUMENTS(CONV_APPEND_ARGUMENT)");
  xmacro.erase(def, end - def);
  repo.rewrite(kConvLoops, xmacro);
  repo.commit("conv signature through an X-macro whose entry macro is elsewhere");
  RunResult r = check(repo);
  std::string entry = copyEntry(r.out, kConvPack, "convFwdKernelSignature");
  EXPECT_NE(entry.find("not read: macro CONV_LEADING_ARGUMENTS"), std::string::npos) << r.out;
  EXPECT_NE(entry.find("CONV_APPEND_ARGUMENT, which is no macro of this file"), std::string::npos) << r.out;
  EXPECT_EQ(entry.find("mismatch"), std::string::npos) << r.out;
  // The copy is still counted; it is not compared.
  EXPECT_NE(coverage(r.out).find("copies compared 6 of 7"), std::string::npos) << r.out;
}

TEST(CppAuthorForms, AnXMacroInAHeaderOfTheTree) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  const std::string before = repo.commit("untouched");
  repo.throughHeaderXMacro();
  const std::string rewritten = repo.commit("conv signature through an X-macro of a header");
  RunResult r = check(repo);
  EXPECT_EQ(copyEntry(r.out, kConvPack, "convFwdKernelSignature"), repo.untouched) << r.out;
  EXPECT_EQ(coverage(r.out), repo.untouchedCoverage) << r.out;
  // The report from the untouched tree: the same list, nothing mismatched.
  RunResult rep = impact("report --repo " + shellQuote(repo.dir()) + " --base " + before + " --head " + rewritten);
  EXPECT_EQ(rep.out.find("mismatch"), std::string::npos) << rep.out;
  // The header alone changed (B_bytes 8 bytes there): the check of the tree reads the new header.
  repo.replace(kConvHeader, "X(\"by_value\", I32_BYTES, \"B_bytes\")", "X(\"by_value\", POINTER_BYTES, \"B_bytes\")");
  const std::string headerOnly = repo.commit("B_bytes 8 bytes in the header");
  RunResult m = check(repo);
  std::string edited = copyEntry(m.out, kConvPack, "convFwdKernelSignature");
  EXPECT_NE(edited.find("mismatch"), std::string::npos) << m.out;
  EXPECT_NE(edited.find("B_bytes"), std::string::npos) << m.out;
  // The report of that change, which touched the header alone, says the same: the pack's list is
  // read with its headers at both revisions, and a header it is read with is a file of the copy.
  RunResult hr = impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + rewritten + " --head " + headerOnly);
  EXPECT_NE(hr.out.find("Runtime impact: BREAKS"), std::string::npos) << hr.out;
  EXPECT_NE(hr.out.find("B_bytes: copy by_value/8, builder by_value/4"), std::string::npos) << hr.out;
  // The pack's launch reads nothing of the header: the header's change is no row of it.
  EXPECT_EQ(hr.out.find("ConvFwdDispatchHandler::launch"), std::string::npos) << hr.out;
  // With the disk cache (the default), the same: the followed facts are not the cached file's.
  RunResult cached = impact("report --repo " + shellQuote(repo.dir()) + " --base " + rewritten + " --head " + headerOnly +
                            " --cache " + shellQuote(repo.dir() + "/.git/impact-cache"));
  EXPECT_NE(cached.out.find("Runtime impact: BREAKS"), std::string::npos) << cached.out;
  repo.replace(kConvHeader, "X(\"by_value\", POINTER_BYTES, \"B_bytes\")", "X(\"by_value\", I32_BYTES, \"B_bytes\")");
  const std::string back = repo.commit("B_bytes back to 4 bytes");
  // A comment added to the header: the list that reads it is inert, the launch has no row.
  repo.replace(kConvHeader, "#define GFX950_CONV_ARGUMENTS_HPP\n",
               "#define GFX950_CONV_ARGUMENTS_HPP\n// The leading arguments of the conv signature.\n");
  const std::string commented = repo.commit("a comment in the header");
  RunResult cr = impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + back + " --head " + commented);
  EXPECT_NE(cr.out.find("convFwdKernelSignature signature  a header it is read with changed, not what it reads"),
            std::string::npos)
      << cr.out;
  EXPECT_EQ(cr.out.find("ConvFwdDispatchHandler::launch"), std::string::npos) << cr.out;
  EXPECT_NE(cr.out.find("Runtime impact: NONE"), std::string::npos) << cr.out;
  // The header gone from the tree: the list is a named row, still counted.
  repo.git("rm -q " + shellQuote(kConvHeader));
  repo.commit("the header removed");
  RunResult g = check(repo);
  std::string entry = copyEntry(g.out, kConvPack, "convFwdKernelSignature");
  EXPECT_NE(entry.find("CONV_LEADING_ARGUMENTS"), std::string::npos) << g.out;
  EXPECT_EQ(entry.find("mismatch"), std::string::npos) << g.out;
  EXPECT_FALSE(entry.empty()) << "the copy was dropped\n" << g.out;
}

TEST(CppAuthorForms, AnIfArmItCannotDecideIsANamedRow) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  const std::string loops = kConvLoops;
  const std::string bytes = loops.substr(loops.find("    for(const auto* name : {\"A_bytes\""));
  repo.rewrite(bytes, "#ifdef CONV_WITH_BYTES\n" + bytes + "#else\n" + bytes + "#endif\n");
  repo.commit("byte counts under an arm the build decides");
  RunResult r = check(repo);
  std::string entry = copyEntry(r.out, kConvPack, "convFwdKernelSignature");
  EXPECT_NE(entry.find("`#ifdef CONV_WITH_BYTES` (line) is not decided"), std::string::npos) << r.out;
  EXPECT_EQ(entry.find("mismatch"), std::string::npos) << r.out;
}

// The same six arguments from two helpers: the pointers a std::array of designated initializers,
// the byte counts appended by emplace_back, both inserted whole into the signature.
const char* kConvHelpers = R"CPP(std::array<KernelArgument, 3> pointerArguments()
{
    constexpr auto POINTER_BYTES = static_cast<uint32_t>(sizeof(void*));
    return {{
        KernelArgument{.kind = "global_buffer", .size = POINTER_BYTES, .offset = 0, .name = "A"},
        KernelArgument{.kind = "global_buffer", .size = POINTER_BYTES, .offset = 8, .name = "B"},
        KernelArgument{.kind = "global_buffer", .size = POINTER_BYTES, .offset = 16, .name = "D"},
    }};
}

std::vector<KernelArgument> byteCountArguments(uint32_t offset)
{
    constexpr auto I32_BYTES = static_cast<uint32_t>(sizeof(int32_t));
    std::vector<KernelArgument> counts;
    for(const auto* name : {"A_bytes", "B_bytes", "D_bytes"})
    {
        counts.emplace_back("by_value", I32_BYTES, offset, name);
        offset += I32_BYTES;
    }
    return counts;
}

)CPP";

const char* kConvComposed = R"CPP(    const auto pointers = pointerArguments();
    const auto byteCounts = byteCountArguments(3 * POINTER_BYTES);
    signature.insert(signature.end(), pointers.begin(), pointers.end());
    signature.insert(signature.end(), byteCounts.begin(), byteCounts.end());
    offset = 3 * POINTER_BYTES + 3 * I32_BYTES;
)CPP";

TEST(CppAuthorForms, AListComposedOfHelpersIsOneCopy) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  const std::string signatureHead = "template <size_t Count>\nstd::vector<KernelArgument> convFwdKernelSignature";
  ASSERT_NE(repo.original.find(signatureHead), std::string::npos);
  repo.original.replace(repo.original.find(signatureHead), 0, kConvHelpers);
  repo.rewrite(kConvLoops, kConvComposed);
  repo.commit("conv signature composed of two helpers");
  RunResult r = check(repo);
  EXPECT_EQ(copyEntry(r.out, kConvPack, "convFwdKernelSignature"), repo.untouched) << r.out;
  EXPECT_EQ(coverage(r.out), repo.untouchedCoverage) << r.out;
  // The helpers are parts, said so, not copies of their own.
  for (const char* helper : {"pointerArguments", "byteCountArguments"}) {
    std::string entry = copyEntry(r.out, kConvPack, std::string("KernelArgument list in ") + helper);
    EXPECT_NE(entry.find("not a copy: a part of convFwdKernelSignature's list"), std::string::npos) << helper << "\n"
                                                                                                   << r.out;
  }
  // A builder change is still caught through the helpers.
  repo.git("checkout -q -b mutated");
  repo.replace(R::kConvBuilder, "B_bytes = b.param(\"B_bytes\", I32)", "B_bytes = b.param(\"B_bytes\", I64)");
  repo.commit("B_bytes becomes i64");
  RunResult m = check(repo);
  EXPECT_NE(copyEntry(m.out, kConvPack, "convFwdKernelSignature").find("mismatch"), std::string::npos) << m.out;
}

// The pointers from a function the pack declares and another file defines (issue 36): the list is
// open at its start, saying where and why, then the byte counts it appends — never a shorter list
// read as the whole. `impact check` and `impact report` say the same: no false mismatch, the copy
// still counted; a real break among the byte counts, after the open start, is still caught.
const char* kConvUnreadStart = R"CPP(    auto signature = convPointerArguments(POINTER_BYTES);
    uint32_t offset = 3 * POINTER_BYTES;
    for(const auto* name : {"A_bytes", "B_bytes", "D_bytes"})
    {
        signature.push_back({"by_value", I32_BYTES, offset, name});
        offset += I32_BYTES;
    }
)CPP";

TEST(CppAuthorForms, AListStartingAsAnUnreadFunctionsListIsOpenAtItsStart) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  const std::string untouched = repo.commit("untouched");
  const std::string signatureHead = "template <size_t Count>\nstd::vector<KernelArgument> convFwdKernelSignature";
  ASSERT_NE(repo.original.find(signatureHead), std::string::npos);
  repo.original.replace(repo.original.find(signatureHead), 0,
                        "std::vector<KernelArgument> convPointerArguments(uint32_t pointerBytes);\n\n");
  repo.rewrite(std::string("    std::vector<KernelArgument> signature;\n    uint32_t offset = 0;\n") + kConvLoops,
               kConvUnreadStart);
  const std::string rewritten = repo.commit("the pointers from a function of another file");
  RunResult r = check(repo);
  const std::string entry = copyEntry(r.out, kConvPack, "convFwdKernelSignature");
  EXPECT_NE(entry.find("agrees (3 arguments)"), std::string::npos) << r.out;
  EXPECT_NE(entry.find("not compared: "), std::string::npos) << entry;
  EXPECT_NE(entry.find("the arguments first in the list (line): whatever "
                       "convPointerArguments(POINTER_BYTES) returns: a function whose list is not read (not defined in "
                       "this file)"),
            std::string::npos)
      << entry;
  EXPECT_EQ(coverage(r.out), repo.untouchedCoverage) << r.out;
  // The report of the rewrite: the copy changed, it is no mismatch.
  RunResult rep =
      impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + untouched + " --head " + rewritten);
  EXPECT_EQ(rep.out.find("mismatch"), std::string::npos) << rep.out;
  EXPECT_EQ(rep.out.find("BREAKS"), std::string::npos) << rep.out;
  // The builder's breaks among the arguments read after the open start: check and report agree.
  const std::vector<std::pair<std::string, std::string>> breaks = {
      {"B_bytes = b.param(\"B_bytes\", I32)", "B_bytes = b.param(\"B_bytes\", I64)"},
      {"A_bytes = b.param(\"A_bytes\", I32)\n    B_bytes = b.param(\"B_bytes\", I32)",
       "B_bytes = b.param(\"B_bytes\", I32)\n    A_bytes = b.param(\"A_bytes\", I32)"},
  };
  for (const auto& [from, to] : breaks) {
    repo.git("checkout -q -f " + rewritten);
    repo.replace(R::kConvBuilder, from, to);
    const std::string broken = repo.commit("builder: " + to);
    RunResult m = check(repo);
    EXPECT_NE(copyEntry(m.out, kConvPack, "convFwdKernelSignature").find("mismatch"), std::string::npos) << to << "\n"
                                                                                                         << m.out;
    RunResult mr =
        impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + rewritten + " --head " + broken);
    EXPECT_NE(mr.out.find("BREAKS"), std::string::npos) << to << "\n" << mr.out;
  }
}

// A real launch statement taken apart: `<callee>.launch(<stream>, <values>...);`.
struct Launch {
  size_t start = 0, end = 0;  // the statement's line start and the byte after its `;`
  std::string indent, callee;
  std::vector<std::string> args;  // comments dropped; args[0] the stream
};

bool takeLaunch(const std::string& s, const std::string& callee, Launch& l) {
  size_t at = s.find(callee + ".launch(");
  if (at == std::string::npos) return false;
  l.callee = callee;
  l.start = s.rfind('\n', at) + 1;
  l.indent = s.substr(l.start, at - l.start);
  int depth = 0;
  std::string cur;
  for (size_t i = at + callee.size() + 8; i < s.size(); ++i) {  // after `.launch(`
    char c = s[i];
    if (c == '/' && s[i + 1] == '/') {
      i = s.find('\n', i);
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && depth-- == 0) {
      l.args.push_back(cur);
      l.end = s.find(';', i) + 1;
      break;
    }
    if (c == ',' && depth == 0) {
      l.args.push_back(cur);
      cur.clear();
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) cur += c;
    else if (!cur.empty() && cur.back() != ' ') cur += ' ';
  }
  for (auto& a : l.args)
    while (!a.empty() && a.back() == ' ') a.pop_back();
  return l.end > at;
}

std::string joined(const std::vector<std::string>& v, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) out += (i > from ? ", " : "") + v[i];
  return out;
}

// The launch rewritten so that its values reach it through a tuple std::apply expands.
std::vector<std::pair<std::string, std::string>> tupleRewrites(const std::string& s, const Launch& l) {
  const size_t n = l.args.size();
  const std::string apply = l.indent + "std::apply([&](const auto&... values) { " + l.callee + ".launch(" + l.args[0] +
                            ", values...); },\n" + l.indent + "           ";
  const std::string head = s.substr(0, l.start), rest = s.substr(l.end);
  std::vector<std::pair<std::string, std::string>> out;
  out.push_back({"std::make_tuple + std::apply", head + l.indent + "const auto launchValues = std::make_tuple(" +
                                                      joined(l.args, 1, n) + ");\n" + apply + "launchValues);" + rest});
  out.push_back({"std::tuple_cat", head + apply + "std::tuple_cat(std::make_tuple(" + joined(l.args, 1, 1 + (n - 1) / 2) +
                                       "),\n" + l.indent + "           std::make_tuple(" +
                                       joined(l.args, 1 + (n - 1) / 2, n) + ")));" + rest});
  std::string fields, tie;
  for (size_t i = 1; i < n; ++i) {
    fields += l.indent + "    std::decay_t<decltype(" + l.args[i] + ")> a" + std::to_string(i) + ";\n";
    tie += std::string(i > 1 ? ", " : "") + "launchArgs.a" + std::to_string(i);
  }
  out.push_back({"a struct passed field by field", head + l.indent + "struct LaunchArgs {\n" + fields + l.indent +
                                                       "};\n" + l.indent + "const LaunchArgs launchArgs{" +
                                                       joined(l.args, 1, n) + "};\n" + apply + "std::tie(" + tie +
                                                       "));" + rest});
  return out;
}

void launchForms(const char* pack, const char* callee, const char* handler, const char* builder, const char* from,
                 const char* to) {
  R repo;
  const std::string original = repo.read(pack);
  const std::string what = std::string("launch call in ") + handler;
  RunResult before = check(repo);
  const std::string untouched = copyEntry(before.out, pack, what);
  ASSERT_NE(untouched.find("agrees ("), std::string::npos) << before.out;
  Launch l;
  ASSERT_TRUE(takeLaunch(original, callee, l)) << "no " << callee << ".launch( in " << pack;
  for (const auto& [label, source] : tupleRewrites(original, l)) {
    repo.git("checkout -q -f main");
    repo.git("checkout -q -B form");
    repo.write(pack, source);
    repo.commit(label);
    RunResult r = check(repo);
    EXPECT_EQ(copyEntry(r.out, pack, what), untouched) << label << "\n" << r.out;
    EXPECT_EQ(coverage(r.out), coverage(before.out)) << label;
    // A builder change is a mismatch of the launch read through the tuple.
    repo.replace(builder, from, to);
    repo.commit(label + " + builder change");
    RunResult m = check(repo);
    EXPECT_NE(copyEntry(m.out, pack, what).find("mismatch"), std::string::npos) << label << "\n" << m.out;
  }
}

TEST(CppAuthorForms, TheDenseLaunchThroughTuplesReadsAsWritten) {
  IMPACT_REQUIRE_REAL_CORPUS();
  launchForms(R::kDensePack, "preparedDense.kernel()", "Gfx942AttentionDenseDispatchHandler::launch", R::kDenseBuilder,
              "scale = b.param(\"scale\", F32)", "scale = b.param(\"scale\", I32)");
}

TEST(CppAuthorForms, TheTiledLaunchThroughTuplesReadsAsWritten) {
  IMPACT_REQUIRE_REAL_CORPUS();
  launchForms(R::kTiledPack, "preparedTiled.kernel()", "Gfx950AttentionTiledDispatchHandler::launch", R::kTiledBuilder,
              "num_seqs_p = b.param(\"num_seqs\", I32)", "num_seqs_p = b.param(\"num_seqs\", I64)");
}

}  // namespace
}  // namespace impact::testing
