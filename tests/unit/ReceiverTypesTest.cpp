// Receiver types for removed and re-signed members (SPEC R2.6): annotated parameters are read
// with their type (PyDef::typedReads); a member is removed only if the head's class and its bases
// no longer define it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "extract/Extract.h"
#include "judge/Contracts.h"
#include "parse/Syntax.h"
#include "python/ModuleGraph.h"

namespace impact {
namespace {

const std::string kLib = "dnn-providers/hip-kernel-provider/rocke/library/";

const PyDef* def(const FileFacts& f, const std::string& name) {
  for (const auto& d : f.module.defs)
    if (d.name == name) return &d;
  return nullptr;
}

TEST(ReceiverTypes, AnnotatedParametersRecordTypedReads) {
  FileFacts f = extractFile(kLib + "kernels/gfx942/a.py", R"PY(
import kernels.common.spec as cs


def f(spec: AttentionDenseSpec, tuning: "Gfx942DenseTuning" = None, *, m: cs.Spec, o: Optional[X] = None, u=1):
    def inner():
        return spec.seqlen_q
    return spec.batch + spec.batch + tuning.block_m + m.rows.bit_length() + o.value + u.real + inner()


class C:
    def g(self, spec: "kernels.common.spec.Spec"):
        return self.h + spec.rows
)PY");
  const PyDef* fn = def(f, "f");
  ASSERT_TRUE(fn);
  std::vector<std::string> got;
  for (const auto& r : fn->typedReads) got.push_back(r.receiver + ":" + r.type + "." + r.member);
  EXPECT_EQ(got, (std::vector<std::string>{"spec:AttentionDenseSpec.seqlen_q", "spec:AttentionDenseSpec.batch",
                                           "tuning:Gfx942DenseTuning.block_m", "m:cs.Spec.rows"}));
  // Reads on receivers of unknown type stay members; a chain's later parts too.
  EXPECT_EQ(fn->members, (std::vector<std::string>{"bit_length", "value", "real"}));
  const PyDef* g = def(f, "C.g");
  ASSERT_TRUE(g);
  ASSERT_EQ(g->typedReads.size(), 1u);
  EXPECT_EQ(g->typedReads[0].type, "kernels.common.spec.Spec");
  EXPECT_TRUE(g->members.empty());  // self in a method has its class's type: traced through the class
  EXPECT_NE(std::find(g->refs.begin(), g->refs.end(), "self.h"), g->refs.end());
}

TreeFacts tree(const std::map<std::string, std::string>& files) {
  TreeFacts t;
  for (const auto& [p, c] : files) t.files[p] = std::make_shared<const FileFacts>(extractFile(p, c));
  return t;
}

struct Side {
  TreeFacts facts;
  std::map<std::string, FileRef> refs;
  explicit Side(const std::map<std::string, std::string>& files) : facts(tree(files)) {
    for (const auto& [p, c] : files) refs[p] = FileRef{std::to_string(fnv1a(c)), nullptr};
  }
  Revision rev() const {
    return Revision{facts, [this](const std::string& p) -> const FileRef* {
                      auto it = refs.find(p);
                      return it == refs.end() ? nullptr : &it->second;
                    }, nullptr};
  }
};

ContractRows removed(const std::map<std::string, std::string>& before, const std::map<std::string, std::string>& after) {
  Side b(before), h(after);
  Layout layout;
  ModuleGraph bg(b.facts, layout), hg(h.facts, layout);
  ArchIndex ba(b.facts, layout, bg), ha(h.facts, layout, hg);
  return judgeRemovedSymbols(JudgeContext{b.rev(), h.rev(), layout, bg, hg, ba, ha});
}

const Row* rowFor(const ContractRows& rows, const std::string& reader) {
  for (const auto& r : rows.rows)
    if (r.mirror.path == reader) return &r;
  return nullptr;
}

const std::string kSpec = kLib + "kernels/gfx950/spec.py";
const std::string kBase = kLib + "kernels/common/spec_base.py";
const std::string kTyped = kLib + "kernels/gfx950/typed_reader.py";
const std::string kForeign = kLib + "kernels/gfx950/foreign_reader.py";
const std::string kUntyped = kLib + "kernels/gfx950/untyped_reader.py";

std::map<std::string, std::string> beforeMove() {
  return {
      {kSpec, "class Spec:\n    rows: int = 1\n    cols: int = 1\n\n    def area(self, k):\n        return self.rows * k\n"},
      {kTyped, "from kernels.gfx950.spec import Spec\n\n\ndef f(spec: Spec):\n    return spec.rows + spec.area(2)\n"},
      // an annotation naming a class from outside the repository: another class
      {kForeign, "import kernels.gfx950.spec\nfrom thirdparty import Spec\n\n\ndef f(spec: Spec):\n    return spec.rows\n"},
      {kUntyped, "import kernels.gfx950.spec\n\n\ndef f(spec):\n    return spec.rows\n"},
  };
}

std::map<std::string, std::string> afterMove() {
  auto files = beforeMove();
  files[kBase] = "class _SpecBase:\n    rows: int = 1\n    cols: int = 1\n\n    def area(self, k):\n        return self.rows * k\n";
  files[kSpec] = "from kernels.common.spec_base import _SpecBase\n\n\nclass Gfx950Spec(_SpecBase):\n    pad: int = 0\n\n\n"
                 "Spec = Gfx950Spec\n";
  return files;
}

TEST(ReceiverTypes, MembersInheritedThroughAnAliasedSubclassAreNotRemoved) {
  ContractRows rows = removed(beforeMove(), afterMove());
  EXPECT_TRUE(rows.rows.empty()) << rows.rows[0].message;
}

TEST(ReceiverTypes, AMemberGoneFromTheWholeHierarchyIsAMismatchOnAnnotatedReaders) {
  auto before = afterMove();
  auto after = before;
  after[kBase] = "class _SpecBase:\n    cols: int = 1\n\n    def area(self, k):\n        return self.cols * k\n";
  ContractRows rows = removed(before, after);
  const Row* typed = rowFor(rows, kTyped);
  ASSERT_TRUE(typed);
  EXPECT_EQ(typed->status, Status::Mismatch);
  EXPECT_NE(typed->message.find("kernels/common/spec_base.py:_SpecBase.rows was removed; kernels/gfx950/typed_reader.py f "
                                "reads .rows on spec: Spec, which no longer defines it"),
            std::string::npos)
      << typed->message;
  EXPECT_FALSE(rowFor(rows, kForeign));  // thirdparty.Spec is another class
  const Row* untyped = rowFor(rows, kUntyped);
  ASSERT_TRUE(untyped);  // type unknown: the imports reach the class
  EXPECT_EQ(untyped->status, Status::Changed);
}

TEST(ReceiverTypes, AMethodResignedInTheBaseIsChangedForAnnotatedCallers) {
  auto before = afterMove();
  auto after = before;
  after[kBase] = "class _SpecBase:\n    rows: int = 1\n    cols: int = 1\n\n    def area(self, k, scale=1):\n"
                 "        return self.rows * k * scale\n";
  ContractRows rows = removed(before, after);
  const Row* typed = rowFor(rows, kTyped);
  ASSERT_TRUE(typed);
  EXPECT_EQ(typed->status, Status::Changed);
  EXPECT_NE(typed->message.find("_SpecBase.area changed its parameters"), std::string::npos) << typed->message;
}

TEST(ReceiverTypes, SelfHasItsClassesType) {
  const std::string other = kLib + "kernels/common/other.py";
  const std::string own = kLib + "kernels/gfx950/own.py";
  const std::string sub = kLib + "kernels/gfx950/sub.py";
  std::map<std::string, std::string> before = {
      {other, "class Other:\n    rows: int = 1\n"},
      // reads self.rows on its own class, which keeps it; its imports reach Other
      {own, "import kernels.common.other\n\n\nclass Own:\n    rows: int = 2\n\n    def area(self):\n"
            "        return self.rows\n"},
      // reads self.rows inherited from Other: the member is gone from its base
      {sub, "from kernels.common.other import Other\n\n\nclass Sub(Other):\n    def area(self):\n"
            "        return self.rows\n"},
  };
  auto after = before;
  after[other] = "class Other:\n    cols: int = 1\n";
  ContractRows rows = removed(before, after);
  EXPECT_FALSE(rowFor(rows, own)) << rows.rows[0].message;
  const Row* s = rowFor(rows, sub);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, Status::Changed);
  EXPECT_NE(s->message.find("Sub.area reads it through self (a subclass) in self.rows"), std::string::npos) << s->message;
}

}  // namespace
}  // namespace impact
