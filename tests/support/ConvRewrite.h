// The real gfx950 conv pack (../shared/real-data/rocm-libraries) rewritten in the C++ forms a
// kernel author writes (issue 36 item 3), and what `impact check` says of its copy: shared by the
// form tests (tests/e2e/CppAuthorFormsTest.cpp, CppListTypeFormsTest.cpp).
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/ConvText.h"
#include "support/FixtureRepo.h"
#include "support/RealCorpus.h"

namespace impact::testing {

inline constexpr const char* kConvPack =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvFwdNative.cpp";

inline RunResult check(const FixtureRepo& repo) { return impact("check --no-cache --repo " + shellQuote(repo.dir())); }

// The check's entry for the copy in `file` whose heading holds `what`: its heading and detail
// lines, with line numbers left out (a rewrite moves lines). "" when absent.
inline std::string copyEntry(const std::string& out, const std::string& file, const std::string& what) {
  size_t at = 0;
  for (;;) {
    at = out.find(file + ":", at);
    if (at == std::string::npos) return "";
    size_t eol = out.find('\n', at);
    if (out.substr(at, eol - at).find(what) != std::string::npos) break;
    at = eol;
  }
  size_t end = at;
  for (size_t next = out.find('\n', end); next != std::string::npos && out.compare(next + 1, 4, "    ") == 0;
       next = out.find('\n', next + 1))
    end = next + 1;
  size_t eol = out.find('\n', end);
  std::string entry = out.substr(at, (eol == std::string::npos ? out.size() : eol) - at);
  entry = std::regex_replace(entry, std::regex(":[0-9]+ "), ": ");
  return std::regex_replace(entry, std::regex("\\(line [0-9]+\\)"), "(line)");
}

inline std::string coverage(const std::string& out) {
  size_t at = out.find("coverage: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

// The real corpus, with the conv copy's untouched check entry; `rewrite` replaces a part of the
// real pack's text.
struct ConvRewrite : RealCorpusFixture {
  std::string original;
  std::string untouched;  // the check's entry for the real list
  std::string untouchedCoverage;
  ConvRewrite() {
    if (realCorpusDir().empty()) return;
    original = read(kConvPack);
    RunResult r = check(*this);
    untouched = copyEntry(r.out, kConvPack, "convFwdKernelSignature");
    untouchedCoverage = coverage(r.out);
  }
  void rewrite(const std::string& from, const std::string& to) {
    std::string s = original;
    size_t at = s.find(from);
    ASSERT_NE(at, std::string::npos) << "the real conv pack no longer holds:\n" << from;
    s.replace(at, from.size(), to);
    write(kConvPack, s);
  }
  // The pack's two loops as the X-macro of a header of the tree beside it (kConvHeaderText).
  void throughHeaderXMacro() {
    const std::string include = "#include \"engines/kernel_ingestor_engine/packs/Gfx950ConvFwdGeometry.hpp\"";
    ASSERT_NE(original.find(include), std::string::npos);
    original.replace(original.find(include), 0, "#include \"Gfx950ConvArguments.hpp\"\n");
    rewrite(kConvLoops, "    CONV_LEADING_ARGUMENTS(CONV_APPEND_ARGUMENT)\n");
    write(kConvHeader, kConvHeaderText);
  }
};

}  // namespace impact::testing
