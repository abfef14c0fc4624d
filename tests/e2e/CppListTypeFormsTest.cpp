// Issue 36 item 3 ("never silently short"), end to end on the real rocm-libraries tree: the gfx950
// conv pack's KernelArgument list rewritten through a `using` alias and a `typedef` of
// KernelArgument, a local filled field by field, a constexpr table walked by a range-for, and a
// std::tuple table bound by a structured binding. Each must read as the real list does (`impact
// check` says the same of the copy, the coverage is the same), and the builder's breaks must stay
// caught through it: a byte count made i64, and two byte counts declared in the other order (the
// names are load-bearing: every one is a by_value i32).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/ConvRewrite.h"
#include "support/FixtureRepo.h"
#include "support/RealCorpus.h"

namespace impact::testing {
namespace {

using R = RealCorpusFixture;

struct Form {
  const char* label;
  std::string text;  // replaces the real file's two loops (kConvLoops)
};

const char* kRows = R"CPP({{"global_buffer", POINTER_BYTES, "A"}, {"global_buffer", POINTER_BYTES, "B"},
        {"global_buffer", POINTER_BYTES, "D"}, {"by_value", I32_BYTES, "A_bytes"},
        {"by_value", I32_BYTES, "B_bytes"}, {"by_value", I32_BYTES, "D_bytes"}};
)CPP";

// The real loops with each argument an `Argument{...}` appended by `append`, after `alias`
// declares Argument as KernelArgument.
std::string aliasLoops(const std::string& alias, const std::string& append) {
  return "    " + alias + "\n" + R"CPP(    for(const auto* name : {"A", "B", "D"})
    {
        signature.)CPP" + append + R"CPP((Argument{"global_buffer", POINTER_BYTES, offset, name});
        offset += POINTER_BYTES;
    }
    for(const auto* name : {"A_bytes", "B_bytes", "D_bytes"})
    {
        signature.)CPP" + append + R"CPP((Argument{"by_value", I32_BYTES, offset, name});
        offset += I32_BYTES;
    }
)CPP";
}

std::vector<Form> forms() {
  return {
      {"a using alias of KernelArgument", aliasLoops("using Argument = KernelArgument;", "push_back")},
      {"a typedef of KernelArgument",
       aliasLoops("typedef hipdnn_plugin_sdk::ingestor::KernelArgument Argument;", "emplace_back")},
      {"a local filled field by field", R"CPP(    for(const auto* name : {"A", "B", "D"})
    {
        KernelArgument argument;
        argument.kind = "global_buffer";
        argument.size = POINTER_BYTES;
        argument.offset = offset;
        argument.name = name;
        signature.push_back(argument);
        offset += POINTER_BYTES;
    }
    for(const auto* name : {"A_bytes", "B_bytes", "D_bytes"})
    {
        KernelArgument argument{};
        argument.kind = "by_value";
        argument.size = I32_BYTES;
        argument.offset = offset;
        argument.name = name;
        signature.push_back(std::move(argument));
        offset += I32_BYTES;
    }
)CPP"},
      {"a constexpr table walked by a range-for", std::string(R"CPP(    struct Row
    {
        const char* kind;
        uint32_t size;
        const char* name;
    };
    static constexpr Row ROWS[] = )CPP") + kRows + R"CPP(    for(const auto& row : ROWS)
    {
        signature.push_back({row.kind, row.size, offset, row.name});
        offset += row.size;
    }
)CPP"},
      {"a std::tuple table bound by a structured binding",
       std::string("    static constexpr std::tuple<const char*, uint32_t, const char*> ROWS[] = ") + kRows +
           R"CPP(    for(const auto& [kind, size, name] : ROWS)
    {
        signature.push_back({kind, size, offset, name});
        offset += size;
    }
)CPP"},
  };
}

TEST(CppListTypeForms, EachFormReadsAsTheRealListAndItsBreaksStayCaught) {
  IMPACT_REQUIRE_REAL_CORPUS();
  ConvRewrite repo;
  ASSERT_NE(repo.untouched.find("agrees (6 arguments)"), std::string::npos) << repo.untouched;
  const std::string base = repo.commit("untouched");
  for (const Form& form : forms()) {
    repo.git("checkout -q -f " + base);
    repo.git("checkout -q -B form");
    repo.rewrite(kConvLoops, form.text);
    const std::string rewritten = repo.commit(form.label);
    RunResult r = check(repo);
    EXPECT_EQ(copyEntry(r.out, kConvPack, "convFwdKernelSignature"), repo.untouched) << form.label << "\n" << r.out;
    EXPECT_EQ(coverage(r.out), repo.untouchedCoverage) << form.label;
    // The report from the untouched tree: the same list, nothing mismatched.
    RunResult rep = impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + base + " --head " + rewritten);
    EXPECT_EQ(rep.out.find("mismatch"), std::string::npos) << form.label << "\n" << rep.out;
    // The builder's breaks, through the rewritten copy.
    struct Break {
      const char* label;
      std::string from, to;
    };
    const std::vector<Break> breaks = {
        {"B_bytes becomes i64", "B_bytes = b.param(\"B_bytes\", I32)", "B_bytes = b.param(\"B_bytes\", I64)"},
        {"A_bytes and B_bytes declared in the other order",
         "A_bytes = b.param(\"A_bytes\", I32)\n    B_bytes = b.param(\"B_bytes\", I32)",
         "B_bytes = b.param(\"B_bytes\", I32)\n    A_bytes = b.param(\"A_bytes\", I32)"},
    };
    for (const Break& b : breaks) {
      repo.git("checkout -q -f " + rewritten);
      repo.replace(R::kConvBuilder, b.from, b.to);
      const std::string broken = repo.commit(std::string(form.label) + " + " + b.label);
      RunResult m = check(repo);
      EXPECT_NE(copyEntry(m.out, kConvPack, "convFwdKernelSignature").find("mismatch"), std::string::npos)
          << form.label << ", " << b.label << "\n" << m.out;
      RunResult mr = impact("report --no-cache --repo " + shellQuote(repo.dir()) + " --base " + rewritten + " --head " + broken);
      EXPECT_NE(mr.out.find("BREAKS"), std::string::npos) << form.label << ", " << b.label << "\n" << mr.out;
    }
  }
}

}  // namespace
}  // namespace impact::testing
