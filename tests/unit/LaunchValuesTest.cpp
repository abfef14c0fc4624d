// Issue 36 item 4 on facts: launch values as evidence (core/contracts/kernargs/LaunchValues) and
// stable pairing (compareCopy's `atBase`). The names a launch value designates are read from its
// syntax by the C++ extractor (KernelArg::valueNames); the real tiled pack of ../shared/real-data
// is read at test time.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "contracts/Kernargs.h"
#include "contracts/kernargs/LaunchValues.h"
#include "extract/Extract.h"
#include "support/RealCorpus.h"

namespace impact {
namespace {

using kernargs_detail::identifierWords;
using kernargs_detail::movedValues;
using kernargs_detail::namedArgument;
using kernargs_detail::nameKey;

KernelArg ptr(std::string name) { return {std::move(name), "global_buffer", 8}; }
KernelArg i32(std::string name) { return {std::move(name), "by_value", 4}; }
KernelArg f32(std::string name) { return {std::move(name), "by_value", 4}; }

// A launch value as the extractor records it: its text, kind and designated names.
KernelArg value(std::string text, KernelArg kind, std::vector<std::string> names) {
  KernelArg a = kind;
  a.name = std::move(text);
  a.valueNames = std::move(names);
  return a;
}

CppArgList launchOf(std::vector<KernelArg> args) {
  CppArgList l;
  l.form = CppArgList::Form::Launch;
  l.symbol = "Handler::launch";
  l.named = true;
  l.args = std::move(args);
  return l;
}

PyBuilder builderOf(std::vector<PyAbi> abis) {
  PyBuilder b;
  b.name = "build_x";
  b.abis = std::move(abis);
  return b;
}

// The gfx950 tiled builder's pointer slots and first scalars (its real names).
std::vector<KernelArg> tiledArgs() {
  return {ptr("output_ptr"), ptr("query_ptr"),  ptr("key_cache_ptr"), ptr("value_cache_ptr"),
          ptr("qq_bias_ptr"), f32("scale"),     i32("num_seqs")};
}
std::vector<KernelArg> tiledLaunch() {
  return {value("o.ptr", ptr(""), {"o", "ptr"}),
          value("q.ptr", ptr(""), {"q", "ptr"}),
          value("k.ptr", ptr(""), {"k", "ptr"}),
          value("v.ptr", ptr(""), {"v", "ptr"}),
          value("qqBiasPtr", ptr(""), {"qqBiasPtr"}),
          value("binding.scale", f32(""), {"binding", "scale"}),
          value("static_cast<int32_t>(binding.numSeqs)", i32(""), {"binding", "numSeqs"})};
}

TEST(LaunchValues, NamesAreNormalisedByWordsNotSpelling) {
  EXPECT_EQ(identifierWords("cuSeqLensQ"), (std::vector<std::string>{"cu", "seq", "lens", "q"}));
  EXPECT_EQ(identifierWords("LSEPtr"), (std::vector<std::string>{"lse", "ptr"}));
  EXPECT_EQ(identifierWords("qq_bias_stride_0"), (std::vector<std::string>{"qq", "bias", "stride", "0"}));
  for (const char* n : {"o_ptr", "oPtr", "O", "o", "o_pointer"}) EXPECT_EQ(nameKey(n), "o") << n;
  EXPECT_EQ(nameKey("block_tables_ptr"), nameKey("blockTables"));
  EXPECT_EQ(nameKey("seqlen_q"), nameKey("seqlenQ"));
  EXPECT_EQ(nameKey("ptr"), "");
}

TEST(LaunchValues, AValueNamesTheOneArgumentOfItsNameOrOfItsOneLetterAbbreviation) {
  auto args = tiledArgs();
  auto l = tiledLaunch();
  EXPECT_EQ(namedArgument(l[0], args), 0);   // o -> output_ptr, the only pointer starting with o
  EXPECT_EQ(namedArgument(l[1], args), -1);  // q: query_ptr and qq_bias_ptr, never guessed
  EXPECT_EQ(namedArgument(l[3], args), 3);   // v -> value_cache_ptr
  EXPECT_EQ(namedArgument(l[4], args), 4);   // qqBiasPtr -> qq_bias_ptr
  EXPECT_EQ(namedArgument(l[5], args), 5);   // binding.scale -> scale
  EXPECT_EQ(namedArgument(l[6], args), 6);   // through the cast: numSeqs -> num_seqs
  // A scalar is never read as an abbreviation; a literal names nothing.
  EXPECT_EQ(namedArgument(value("n", i32(""), {"n"}), {i32("num_seqs")}), -1);
  EXPECT_EQ(namedArgument(value("1.0F", f32(""), {}), args), -1);
}

TEST(LaunchValues, ARealLaunchAsItIsAgrees) {
  PyBuilder b = builderOf({{"build_x", "", tiledArgs()}});
  Comparison c = compareCopy(b, launchOf(tiledLaunch()));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
}

TEST(LaunchValues, TwoSameTypeValuesSwappedAreAMismatchNamingBoth) {
  PyBuilder b = builderOf({{"build_x", "", tiledArgs()}});
  auto l = tiledLaunch();
  std::swap(l[0], l[3]);
  Comparison c = compareCopy(b, launchOf(l));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message,
            "values of output_ptr and value_cache_ptr swapped: the launch passes v.ptr at #0 (output_ptr's slot) and "
            "o.ptr at #3 (value_cache_ptr's slot)");
  EXPECT_EQ(c.focusCopy, 0);
}

TEST(LaunchValues, AValueInAnotherArgumentsSlotIsAMismatch) {
  PyBuilder b = builderOf({{"build_x", "", tiledArgs()}});
  auto l = tiledLaunch();
  l[3] = l[0];  // o.ptr twice, value_cache_ptr's slot gets the output
  l[0] = value("out", ptr(""), {"out"});
  Comparison c = compareCopy(b, launchOf(l));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message, "the launch passes o.ptr at #3 (value_cache_ptr's slot), a value named for output_ptr (#0)");
}

// One value passed to two slots on purpose (its own slot has it too): not evidence.
TEST(LaunchValues, AValueAlsoPassedAtItsOwnSlotIsNotEvidence) {
  auto args = tiledArgs();
  args.push_back(f32("out_scale"));
  PyBuilder b = builderOf({{"build_x", "", args}});
  auto l = tiledLaunch();
  l.push_back(l[5]);  // binding.scale for out_scale too
  Comparison c = compareCopy(b, launchOf(l));
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
}

TEST(LaunchValues, ValuesThatTradedPlacesSinceTheBaseAreAMismatch) {
  PyAbi abi{"build_x", "", tiledArgs()};
  // Two named values whose names say nothing of their slots (q is ambiguous, cuSeqLensQ names
  // no argument) trade places: only the move says it.
  auto a = tiledLaunch(), m = tiledLaunch();
  a[1] = value("q.ptr", ptr(""), {"q", "ptr"});
  a[4] = value("cuSeqLensQ.ptr", ptr(""), {"cuSeqLensQ", "ptr"});
  m[1] = a[4];
  m[4] = a[1];
  auto moved = movedValues(abi, abi, launchOf(a), launchOf(m));
  EXPECT_EQ(moved.message,
            "values of query_ptr and qq_bias_ptr swapped since the base: the launch passes cuSeqLensQ.ptr at #1 "
            "(query_ptr's slot) and q.ptr at #4 (qq_bias_ptr's slot); the builder's list is as it was");
  EXPECT_EQ(moved.focusCopy, 1);
  // The builder's list changed too: the move may follow it, not said.
  PyAbi other = abi;
  std::swap(other.args[1], other.args[4]);
  EXPECT_EQ(movedValues(abi, other, launchOf(a), launchOf(m)).message, "");
  // A move that puts a value where its name belongs is a fix.
  auto fixedWas = tiledLaunch(), fixedNow = tiledLaunch();
  std::swap(fixedWas[0], fixedWas[3]);
  EXPECT_EQ(movedValues(abi, abi, launchOf(fixedWas), launchOf(fixedNow)).message, "");
  // Literals are not named values.
  auto litWas = tiledLaunch(), litNow = tiledLaunch();
  litWas[5] = value("1.0F", f32(""), {});
  litWas[6] = value("0", i32(""), {});
  litNow[5] = litWas[6];
  litNow[6] = litWas[5];
  EXPECT_EQ(movedValues(abi, abi, launchOf(litWas), launchOf(litNow)).message, "");
}

// Stable pairing: a list that agrees only through its open end never hides a mismatch with the
// list the copy agreed with at the base.
TEST(StablePairing, AListAgreeingOnlyThroughItsOpenEndDoesNotHideTheListOfTheBase) {
  std::vector<KernelArg> head = {ptr("q_ptr"), ptr("k_ptr"), f32("scale"), i32("seqlen_q"), i32("batch")};
  PyAbi main{"build_x", "", head, "_mfma_c_col", "kernels/gfx950/attention_tiled_2d.py"};
  PyAbi persistent{"_build_x_persistent", "spec.persistent", {ptr("q_ptr"), ptr("k_ptr"), f32("scale")},
                   "_mfma_c_col", "kernels/gfx950/attention_tiled_2d.py"};
  PyBuilder b = builderOf({persistent, main});
  CppArgList copy;
  copy.symbol = "sig";
  copy.named = true;
  copy.args = {ptr("q_ptr"), ptr("k_ptr"), f32("scale"), i32("batch"), i32("seqlen_q")};
  // Without the base: the persistent list agrees up to its open end.
  Comparison loose = compareCopy(b, copy);
  EXPECT_NE(loose.outcome, Comparison::Outcome::Disagree);
  // Against the list it matched at the base.
  ListAtBase atBase{"build_x", "", false};
  Comparison c = compareCopy(b, copy, nullptr, &atBase);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  ASSERT_NE(c.abi, nullptr);
  EXPECT_EQ(c.abi->origin, "build_x");
  EXPECT_EQ(c.message,
            "seqlen_q and batch swapped: copy has batch at #3 and seqlen_q at #4 (compared with build_x's list, which "
            "it matched at the base; the _build_x_persistent list (when spec.persistent) agrees only up to its open "
            "end)");
  // A list of the base that no longer exists: the closest list, as before.
  ListAtBase gone{"build_x_old", "", false};
  EXPECT_EQ(compareCopy(b, copy, nullptr, &gone).outcome, loose.outcome);
}

// The syntax of the real tiled launch: each value's designated names.
TEST(LaunchValues, TheRealTiledLaunchValuesDesignateByTheirSyntax) {
  IMPACT_REQUIRE_REAL_CORPUS();
  std::ifstream in(testing::realCorpusDir() + "/" + testing::RealCorpusFixture::kTiledPack);
  std::stringstream ss;
  ss << in.rdbuf();
  FileFacts f = extractFile(testing::RealCorpusFixture::kTiledPack, ss.str());
  const CppArgList* launch = nullptr;
  for (const auto& l : f.lists)
    if (l.form == CppArgList::Form::Launch) launch = &l;
  ASSERT_NE(launch, nullptr);
  ASSERT_EQ(launch->args.size(), 18u);
  EXPECT_EQ(launch->args[0].valueNames, (std::vector<std::string>{"o", "ptr"}));
  EXPECT_EQ(launch->args[4].valueNames, (std::vector<std::string>{"sinkPtr"}));
  EXPECT_EQ(launch->args[10].valueNames, (std::vector<std::string>{"binding", "scale"}));
  EXPECT_TRUE(launch->args[11].valueNames.empty());  // 1.0F
  EXPECT_EQ(launch->args[15].valueNames, (std::vector<std::string>{"binding", "numSeqs"}));
  EXPECT_TRUE(launch->args[17].valueNames.empty());  // static_cast<int32_t>(0)
}

}  // namespace
}  // namespace impact
