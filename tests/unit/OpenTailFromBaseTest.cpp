// A builder's list open at a helper impactd cannot see (a function of a module not in the tree,
// given the IRBuilder) is read, when the change left that helper's call and module alone, as the
// copy stated it at the base where it agreed (core/contracts/kernargs/OpenTails.h): a break made
// before the helper is then a mismatch, not "not compared"; anything less certain is not read so.
#include <gtest/gtest.h>

#include "contracts/Kernargs.h"
#include "contracts/kernargs/OpenTails.h"

namespace impact {
namespace {

using kernargs_detail::closedFromBase;

KernelArg arg(std::string n, std::string kind, uint32_t size) { return {std::move(n), std::move(kind), size}; }

PyBuilder builder(std::vector<KernelArg> args, std::string call = "lane_row(b, lane, 0)") {
  PyBuilder b;
  b.name = "build_dense";
  PyAbi abi;
  abi.origin = b.name;
  abi.args = std::move(args);
  abi.tailHelper = "lane_row";
  abi.tailModule = "kernels/gfx942/attention_tiled_2d.py";
  abi.tailCall = std::move(call);
  b.abis.push_back(abi);
  return b;
}

CppArgList copy(std::vector<KernelArg> args) {
  CppArgList l;
  l.form = CppArgList::Form::Static;
  l.named = true;
  l.args = std::move(args);
  return l;
}

std::vector<KernelArg> base4() {
  return {arg("q", "global_buffer", 8), arg("k", "global_buffer", 8), arg("o", "global_buffer", 8),
          arg("scale", "by_value", 4)};
}

struct Case {
  const char* what;
  PyBuilder head;
  CppArgList baseCopy, headCopy;
  bool unchanged;
  bool read;                 // read from the base
  Comparison::Outcome outcome;
};

TEST(OpenTailFromBase, IsReadOnlyWhenTheHelperIsAsItWas) {
  PyBuilder base = builder(base4());
  auto dropped = base4();
  dropped.pop_back();
  auto extra = base4();
  extra.push_back(arg("window", "by_value", 4));
  std::vector<Case> cases{
      {"the last argument dropped before the helper", builder(dropped), copy(base4()), copy(base4()), true, true,
       Comparison::Outcome::Disagree},
      {"nothing changed that the list reads", builder(base4()), copy(base4()), copy(base4()), true, true,
       Comparison::Outcome::Agree},
      {"the copy stated one more at the base: the helper's, kept", builder(base4()), copy(extra), copy(extra), true,
       true, Comparison::Outcome::Agree},
      {"the copy lost the helper's argument", builder(base4()), copy(extra), copy(base4()), true, true,
       Comparison::Outcome::Disagree},
      {"the helper's call changed: not read", builder(dropped, "lane_row(b, lane, 1)"), copy(base4()), copy(base4()),
       true, false, Comparison::Outcome::Agree},
      {"the helper's module changed: not read", builder(dropped), copy(base4()), copy(base4()), false, false,
       Comparison::Outcome::Agree},
  };
  for (const Case& c : cases) {
    Comparison before = compareCopy(base, c.baseCopy);
    ASSERT_EQ(before.outcome, Comparison::Outcome::Agree) << c.what;
    std::string note;
    auto closed = closedFromBase(c.head, c.head.abis[0], before, c.baseCopy, c.unchanged, note);
    ASSERT_EQ(closed.has_value(), c.read) << c.what;
    Comparison now = compareCopy(closed ? *closed : c.head, c.headCopy);
    EXPECT_EQ(now.outcome, c.outcome) << c.what << ": " << now.message;
    if (!c.read) {
      EXPECT_FALSE(now.notCompared.empty()) << c.what;  // still said, not guessed
      continue;
    }
    EXPECT_TRUE(now.notCompared.empty()) << c.what;
    EXPECT_NE(note.find("lane_row"), std::string::npos) << note;
  }
}

TEST(OpenTailFromBase, IsNotReadFromABaseThatDisagreed) {
  PyBuilder base = builder(base4());
  auto fewer = base4();
  fewer.resize(2);
  CppArgList baseCopy = copy(fewer);  // shorter than the builder's known list: a mismatch at the base
  Comparison before = compareCopy(base, baseCopy);
  ASSERT_EQ(before.outcome, Comparison::Outcome::Disagree);
  std::string note;
  EXPECT_FALSE(closedFromBase(base, base.abis[0], before, baseCopy, true, note).has_value());
}

}  // namespace
}  // namespace impact
