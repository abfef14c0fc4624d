// Shipped variants decide conditional arguments (SPEC R2.2; contracts/kernargs/ShippedDecision):
// a copy lacking an argument some shipped variant turns on is a mismatch naming those variants;
// lacking only arguments no shipped variant turns on, it agrees and says so; where the specs do
// not decide, it stays "changed" (AgreeWithoutConditional) and says what is not settled.
#include <gtest/gtest.h>

#include <deque>
#include <map>

#include "contracts/Kernargs.h"

namespace impact {
namespace {

KernelArg ptr(std::string name) { return {std::move(name), "global_buffer", 8}; }
KernelArg i32(std::string name) { return {std::move(name), "by_value", 4}; }

Guard nameGuard(const std::string& name) {
  Guard g;
  g.root = addNode(g, GuardNode{GuardNode::Op::Name, name, {}});
  return g;
}

KernelArg when(KernelArg a, const std::string& flag) {
  a.conditional = true;
  a.condition = flag;
  a.guard = nameGuard(flag);
  return a;
}

PyBuilder sinkBuilder() {
  PyBuilder b;
  b.name = "build_fmha";
  b.abis.push_back({b.name, "", {ptr("q_ptr"), ptr("o_ptr"), i32("n"), when(ptr("sink_ptr"), "spec.use_sinks")}});
  return b;
}

CppArgList copy(std::vector<KernelArg> args) {
  CppArgList l;
  l.form = CppArgList::Form::Static;
  l.symbol = "signature";
  l.named = true;
  l.args = std::move(args);
  return l;
}

CppArgList withoutSinks() { return copy({ptr("q_ptr"), ptr("o_ptr"), i32("n")}); }

// A shipped variant whose spec lives as long as the test does (in the product, the facts hold it).
ShippedVariant variant(std::string name, std::map<std::string, std::string> spec) {
  static std::deque<std::map<std::string, std::string>> held;
  held.push_back(std::move(spec));
  return {std::move(name), &held.back()};
}

ShippedSet shippedWith(std::vector<std::pair<std::string, std::string>> useSinks) {
  ShippedSet s;
  for (auto& [name, value] : useSinks) s.variants.push_back(variant(name, {{"use_sinks", value}, {"dtype", "bf16"}}));
  s.from = "generator config configs/fmha.yaml";
  s.files = {"configs/fmha.yaml"};
  return s;
}

TEST(ShippedDecision, AVariantTurningTheGuardOnMakesTheCopyAMismatchNamingIt) {
  ShippedSet s = shippedWith({{"fmha.a", "false"}, {"fmha.sinks", "true"}, {"fmha.b", "false"}});
  Comparison c = compareCopy(sinkBuilder(), withoutSinks(), &s);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_EQ(c.message,
            "copy leaves out sink_ptr (if spec.use_sinks), which 1 of 3 shipped variants turn on: fmha.sinks "
            "(generator config configs/fmha.yaml)");
  EXPECT_EQ(c.focusBuilder, 3) << "the argument the row is about";
}

TEST(ShippedDecision, NoVariantTurningTheGuardOnMakesTheCopyAgreeAndSaySo) {
  ShippedSet s = shippedWith({{"fmha.a", "false"}, {"fmha.b", "false"}});
  Comparison c = compareCopy(sinkBuilder(), withoutSinks(), &s);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree);
  EXPECT_EQ(c.shippedNote,
            "copy leaves out the conditional argument sink_ptr (if spec.use_sinks): the guard is off for every "
            "shipped variant (2, from generator config configs/fmha.yaml)");
}

TEST(ShippedDecision, WithoutShippedSpecsTheCopyStaysUndecided) {
  Comparison c = compareCopy(sinkBuilder(), withoutSinks());
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_EQ(c.message, "copy leaves out the conditional argument sink_ptr (if spec.use_sinks)");
}

TEST(ShippedDecision, ASpecThatDoesNotStateTheFlagLeavesItUndecidedAndSaysWhich) {
  ShippedSet s = shippedWith({{"fmha.a", "false"}});
  s.variants.push_back(variant("fmha.silent", {{"dtype", "fp16"}}));  // the builder's default decides: unknown here
  Comparison c = compareCopy(sinkBuilder(), withoutSinks(), &s);
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_NE(c.message.find("not settled by the shipped variants"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("1 of 2 (fmha.silent;"), std::string::npos) << c.message;
}

TEST(ShippedDecision, AnIncompleteVariantSetNeverSaysOffForEveryVariant) {
  ShippedSet s = shippedWith({{"fmha.a", "false"}});
  s.incomplete = "configs/fmha.yaml: knob set k9 not found";
  Comparison c = compareCopy(sinkBuilder(), withoutSinks(), &s);
  EXPECT_EQ(c.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_NE(c.message.find("knob set k9 not found"), std::string::npos) << c.message;
  // ...but a listed variant turning it on is still a mismatch.
  s.variants.push_back(variant("fmha.on", {{"use_sinks", "true"}}));
  EXPECT_EQ(compareCopy(sinkBuilder(), withoutSinks(), &s).outcome, Comparison::Outcome::Disagree);
}

TEST(ShippedDecision, AVariantThatTakesAnotherListDoesNotDecideThisOne) {
  PyBuilder b = sinkBuilder();
  b.abis[0].when = guardNot(nameGuard("spec.persistent"));
  ShippedSet s = shippedWith({{"fmha.a", "false"}});
  s.variants.push_back(variant("fmha.persistent", {{"use_sinks", "true"}, {"persistent", "true"}}));
  Comparison c = compareCopy(b, withoutSinks(), &s);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree)
      << "the persistent variant builds another list: its use_sinks is not this list's" << c.message;
}

TEST(ShippedDecision, ADescriptorCopysOwnSpecIsItsVariant) {
  CppArgList packed = withoutSinks();
  packed.spec = {{"use_sinks", "true"}};
  Comparison c = compareCopy(sinkBuilder(), packed);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(c.message.find("its own variant"), std::string::npos) << c.message;
  packed.spec = {{"use_sinks", "false"}};
  EXPECT_EQ(compareCopy(sinkBuilder(), packed).outcome, Comparison::Outcome::Agree);
}

}  // namespace
}  // namespace impact

namespace impact {
namespace {

// A conditional copy (a SignatureBuilder restatement) whose guard differs from the builder's:
// not settled statically, settled by the shipped variants.
CppArgList conditionalCopy() {
  CppArgList l = copy({ptr("q_ptr"), ptr("o_ptr"), i32("n"), when(ptr("sink_ptr"), "spec.use_alibi")});
  return l;
}

TEST(ShippedDecision, AConditionalCopyUnderAnotherGuardIsSettledByTheVariants) {
  EXPECT_EQ(compareCopy(sinkBuilder(), conditionalCopy()).outcome, Comparison::Outcome::AgreeWithoutConditional);
  ShippedSet off;
  off.from = "KDP a.kdp.json";
  off.variants = {variant("v1", {{"use_sinks", "false"}, {"use_alibi", "false"}}),
                  variant("v2", {{"use_sinks", "false"}, {"use_alibi", "false"}})};
  Comparison agree = compareCopy(sinkBuilder(), conditionalCopy(), &off);
  EXPECT_EQ(agree.outcome, Comparison::Outcome::Agree) << agree.message;
  EXPECT_NE(agree.shippedNote.find("differ only under guards no shipped variant takes (2, from KDP a.kdp.json)"),
            std::string::npos)
      << agree.shippedNote;
  ShippedSet on = off;
  on.variants.push_back(variant("v3", {{"use_sinks", "true"}, {"use_alibi", "false"}}));
  Comparison mismatch = compareCopy(sinkBuilder(), conditionalCopy(), &on);
  EXPECT_EQ(mismatch.outcome, Comparison::Outcome::Disagree);
  EXPECT_NE(mismatch.message.find("for 1 of 3 shipped variants (v3; KDP a.kdp.json)"), std::string::npos)
      << mismatch.message;
  ShippedSet silent = off;
  silent.variants.push_back(variant("v4", {{"use_sinks", "false"}}));
  Comparison open = compareCopy(sinkBuilder(), conditionalCopy(), &silent);
  EXPECT_EQ(open.outcome, Comparison::Outcome::AgreeWithoutConditional);
  EXPECT_NE(open.message.find("not settled by the shipped variants: the guards are not decided by the spec of 1 of 3 (v4)"),
            std::string::npos)
      << open.message;
}

// An entry point that dispatches (CrossModule): the list it returns from a builder of the tree,
// and one of a module the tree does not hold (nothing known of it, open at that function).
PyBuilder entryPoint(const std::string& splitGuard) {
  PyBuilder b;
  b.name = "build_entry";
  PyAbi split;
  split.origin = split.tailHelper = "build_split";
  split.tailModule = "kernels/gfx950/split.py";
  split.guard = splitGuard;
  split.when = nameGuard(splitGuard);
  b.abis.push_back(split);
  PyAbi own;
  own.origin = "build_fmha";
  own.guard = "not " + splitGuard;
  own.args = {ptr("q_ptr"), ptr("o_ptr"), i32("n"), i32("window")};
  b.abis.push_back(own);
  return b;
}

TEST(EntryPointLists, AListOfWhichNothingIsKnownNeverHidesWhatAKnownListSays) {
  // No shipped variants known: the copy differs from the one list the tree states; the other
  // list (a module not in the tree) would agree with anything and is not taken for an agreement.
  // (Comparison::abi points into the builder: it is held here.)
  const PyBuilder entry = entryPoint("spec.split");
  const CppArgList lacking = withoutSinks(), stating = copy({ptr("q_ptr"), ptr("o_ptr"), i32("n"), i32("window")});
  Comparison c = compareCopy(entry, lacking, nullptr);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Disagree) << c.message;
  ASSERT_NE(c.abi, nullptr);
  EXPECT_EQ(c.abi->origin, "build_fmha");
  // A copy that states it agrees.
  Comparison same = compareCopy(entry, stating, nullptr);
  EXPECT_EQ(same.outcome, Comparison::Outcome::Agree) << same.message;
  EXPECT_EQ(same.abi->origin, "build_fmha");
}

TEST(EntryPointLists, AKnownListNoShippedVariantTakesIsStillOneACopyCanState) {
  // Both lists known; the copy states the split one, which no shipped variant takes: a pin may
  // state a kernel the pack does not ship yet, so it agrees with that list.
  PyBuilder b = entryPoint("spec.split");
  b.abis[0].tailHelper.clear();
  b.abis[0].tailModule.clear();
  b.abis[0].args = {ptr("q_ptr"), ptr("o_ptr"), i32("n")};
  ShippedSet none;
  none.variants.push_back(variant("a", {{"split", "false"}}));
  none.from = "generator config c.yaml";
  const CppArgList lacking = withoutSinks();
  Comparison c = compareCopy(b, lacking, &none);
  EXPECT_EQ(c.outcome, Comparison::Outcome::Agree) << c.message;
  ASSERT_NE(c.abi, nullptr);
  EXPECT_EQ(c.abi->origin, "build_split");
}

}  // namespace
}  // namespace impact
