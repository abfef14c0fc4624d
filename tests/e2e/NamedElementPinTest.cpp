// A signature pin written as the real gfx950 dense one is (ROCm/rocm-libraries 12de7def,
// TestGfx950AttentionDenseSignature.cpp): named `const KernelArgument` locals, a braced return
// list of their names, and derived negative cases (`resize`, `pop_back`, `push_back`) that are
// not copies. The list of names is a copy of the builder's non-persistent list like a list of
// elements written out; before, it was read as nothing and a builder change passed it silently.
#include <gtest/gtest.h>

#include <string>

#include "support/FixtureRepo.h"
#include "support/ReportText.h"

namespace impact::testing {
namespace {

using M = MonorepoFixture;

// The real pin's form, for the example builder's eight-argument non-persistent list.
const char* kPinText = R"CPP(// SPDX-License-Identifier: MIT
#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <hipdnn_plugin_sdk/ingestor/Descriptors.hpp>

namespace hip_kernel_provider::kernel_ingestor_engine::testing
{
namespace
{

using hipdnn_plugin_sdk::ingestor::KernelArgument;

/// `.value_kind` a device pointer parameter carries in the AMDGPU metadata note.
constexpr const char* BUFFER_KIND = "global_buffer";

/// `.value_kind` a scalar parameter carries.
constexpr const char* BY_VALUE_KIND = "by_value";

constexpr uint32_t POINTER_BYTES = 8;
constexpr uint32_t SCALAR_BYTES = 4;
constexpr std::size_t SCALE_INDEX = 4;

/// (q_ptr, k_ptr, v_ptr, o_ptr, scale, batch, seqlen_q, seqlen_kv): four buffers, then
/// an f32, then three i32.
std::vector<KernelArgument> pythonAbi()
{
    const KernelArgument buffer{BUFFER_KIND, POINTER_BYTES, 0, ""};
    const KernelArgument scalar{BY_VALUE_KIND, SCALAR_BYTES, 0, ""};
    return {buffer, buffer, buffer, buffer, scalar, scalar, scalar, scalar};
}

/// The form a persistent body would take, which the pack must refuse.
std::vector<KernelArgument> persistentAbi()
{
    auto signature = pythonAbi();
    signature.resize(SCALE_INDEX + 1);
    return signature;
}

std::vector<KernelArgument> withArgument(std::size_t index, const KernelArgument& argument)
{
    auto signature = pythonAbi();
    signature.at(index) = argument;
    return signature;
}

} // namespace

TEST(TestGfx950AttentionDenseSignature, RefusesADroppedTrailingArgument)
{
    auto signature = pythonAbi();
    signature.pop_back();
    EXPECT_FALSE(signature.empty());
}

TEST(TestGfx950AttentionDenseSignature, RefusesAnExtraTrailingArgument)
{
    auto signature = pythonAbi();
    signature.push_back(KernelArgument{BY_VALUE_KIND, SCALAR_BYTES, 0, ""});
    EXPECT_FALSE(signature.empty());
}

TEST(TestGfx950AttentionDenseSignature, RefusesBuffersAndScalarsTransposed)
{
    // The negative case: the same eight entries, the by-value ones first.
    const KernelArgument buffer{BUFFER_KIND, POINTER_BYTES, 0, ""};
    const KernelArgument scalar{BY_VALUE_KIND, SCALAR_BYTES, 0, ""};
    const std::vector<KernelArgument> transposed{
        scalar, scalar, scalar, scalar, buffer, buffer, buffer, buffer};
    EXPECT_EQ(transposed.size(), 8U);
}

} // namespace hip_kernel_provider::kernel_ingestor_engine::testing
)CPP";

// The example with its pin in the real form, on main and on the feature branch.
class NamedPinRepo : public M {
 public:
  NamedPinRepo() {
    write(kAttentionPin, kPinText);
    commit("the signature pin in the form of the real one");
    git("branch -f main HEAD");
  }
};

TEST(NamedElementPin, UntouchedPinOfNamedLocalsAgreesAndGivesNoRow) {
  NamedPinRepo repo;
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(rowsWith(r.out, {M::kAttentionPin}).empty()) << r.out;
  RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + M::kAttentionPin));
  ASSERT_EQ(facts.exitCode, 0) << facts.err;
  // One list (pythonAbi); the derived negative cases are not copies.
  EXPECT_NE(facts.out.find("\"symbol\": \"pythonAbi\""), std::string::npos) << facts.out;
  EXPECT_EQ(facts.out.find("persistentAbi"), std::string::npos) << facts.out;
}

TEST(NamedElementPin, BuilderGainingArgumentsIsAMismatchOnThePinOfNamedLocals) {
  NamedPinRepo repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  int line = repo.lineOf(M::kAttentionPin, "return {buffer");
  auto pin = rowsWith(r.out, {"mismatch", "kernargs", std::string(M::kAttentionPin) + ":" + std::to_string(line)});
  ASSERT_EQ(pin.size(), 1u) << r.out;
  EXPECT_NE(pin[0].find("pythonAbi"), std::string::npos) << pin[0];
  EXPECT_NE(pin[0].find("copy has 8 arguments, builder has 11"), std::string::npos) << pin[0];
  EXPECT_EQ(lastLine(r.out), "Runtime impact: BREAKS") << r.out;
}

// Issue 26 item 8 (the 12de7def regression): the list a test case builds to be refused is no
// copy — no row, however the builder changes — and impact check shows it set aside with why.
TEST(NamedElementPin, ANegativeCaseATestBuildsIsNotACopy) {
  NamedPinRepo repo;
  repo.addSlidingWindowToBuilder();
  repo.addSlidingWindowToPack();
  repo.commit("sliding window");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  int negative = repo.lineOf(M::kAttentionPin, "const std::vector<KernelArgument> transposed{");
  EXPECT_TRUE(rowsWith(r.out, {std::string(M::kAttentionPin) + ":" + std::to_string(negative)}).empty()) << r.out;
  EXPECT_TRUE(rowsWith(r.out, {std::string(M::kAttentionPin) + ":" + std::to_string(negative + 1)}).empty()) << r.out;
  RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + M::kAttentionPin));
  ASSERT_EQ(facts.exitCode, 0) << facts.err;
  EXPECT_NE(facts.out.find("\"not_copies\""), std::string::npos) << facts.out;
  EXPECT_NE(facts.out.find("`transposed` in test case TestGfx950AttentionDenseSignature.RefusesBuffersAndScalarsTransposed"),
            std::string::npos)
      << facts.out;
  RunResult check = impact("check --no-cache --repo " + shellQuote(repo.dir()) + " " + M::kAttentionPin);
  EXPECT_NE(check.out.find("not copies:"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("the file pins the ABI in pythonAbi"), std::string::npos) << check.out;
}

// A test file whose every list sits in a test case pins there: its lists stay copies.
TEST(NamedElementPin, ListsOnlyInTestCasesStayCopies) {
  NamedPinRepo repo;
  std::string text = kPinText;
  // Move the pin into a test case: no list outside test cases is left.
  size_t from = text.find("std::vector<KernelArgument> pythonAbi()");
  size_t to = text.find("} // namespace\n", from);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  text.erase(from, to - from);
  repo.write(M::kAttentionPin, text);
  repo.commit("only the negative case is left");
  RunResult facts = impact("facts " + shellQuote(repo.dir() + "/" + M::kAttentionPin));
  ASSERT_EQ(facts.exitCode, 0) << facts.err;
  EXPECT_EQ(facts.out.find("\"not_copies\""), std::string::npos) << facts.out;
  EXPECT_NE(facts.out.find("\"variable\": \"transposed\""), std::string::npos) << facts.out;
}

TEST(NamedElementPin, ALocalWidenedInThePinIsAMismatch) {
  NamedPinRepo repo;
  repo.replace(M::kAttentionPin, "const KernelArgument scalar{BY_VALUE_KIND, SCALAR_BYTES, 0, \"\"};",
               "const KernelArgument scalar{BY_VALUE_KIND, 8, 0, \"\"};");
  repo.commit("scalars as 8 bytes");
  RunResult r = report(repo);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto pin = rowsWith(r.out, {"mismatch", "kernargs", M::kAttentionPin});
  ASSERT_EQ(pin.size(), 1u) << r.out;
  EXPECT_NE(pin[0].find("by_value/8"), std::string::npos) << pin[0];
}

}  // namespace
}  // namespace impact::testing
