#include "contracts/kernargs/OpenTails.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "extract/python/DeclEval.h"

namespace impact::kernargs_detail {

bool builderOpen(const PyAbi& abi) { return !abi.tailHelper.empty(); }
bool copyOpen(const CppArgList& copy) { return !copy.openTail.empty() || !copy.openStart.empty(); }

namespace {
// A copy open at its start (`auto v = tensorArguments();` not read, then appends): its known
// arguments end where the builder's known list ends when both are closed, or when both are open at
// the same trailing block (the builder at another module's helper, the copy not open before its
// end); the builder's arguments before them stand for the open start (they are its own: they
// agree), so every position is the builder's. Otherwise nothing is compared.
size_t alignOpenStart(const PyAbi& abi, const CppArgList& copy, std::vector<KernelArg>& b, std::vector<KernelArg>& c) {
  const bool bo = builderOpen(abi), co = !copy.openTail.empty();
  const bool aligned = (!bo && !co) || (bo && co && !abi.tailModule.empty() && !copy.openBefore);
  if (!aligned) {
    b.clear();
    c.clear();
    return 0;
  }
  if (b.size() < c.size()) return 0;  // more known after the open start than the builder has: a difference
  const size_t k = b.size() - c.size();
  c.insert(c.begin(), b.begin(), b.begin() + static_cast<long>(k));
  return k;
}
}  // namespace

size_t comparedPrefix(const PyAbi& abi, const CppArgList& copy, std::vector<KernelArg>& b, std::vector<KernelArg>& c) {
  b = abi.args;
  c = copy.args;
  if (!copy.openStart.empty()) return alignOpenStart(abi, copy, b, c);
  bool bo = builderOpen(abi), co = copyOpen(copy);
  // Both open at a helper of another module (not in the tree) given the IRBuilder: the helper's
  // block and the pack are the same trailing block (the conv family's problem arguments), so the
  // arguments before them correspond one to one, count included. Open at a call it cannot follow
  // (a callback of the kernel, a method of the spec), or a copy open before its end (a macro or
  // `#if` arm not read): whatever that call declares, if anything, is no block the copy's tail is
  // known to stand for; the part both state is compared.
  if (bo && co) {
    if (!abi.tailModule.empty() && !copy.openBefore) return 0;
    size_t n = std::min(b.size(), c.size());
    b.resize(n);
    c.resize(n);
    return 0;
  }
  if (bo && c.size() >= b.size()) {
    c.resize(b.size());
  } else if (co && b.size() >= c.size()) {
    b.resize(c.size());
  }
  return 0;
}

std::vector<std::string> notComparedParts(const PyAbi& abi, const CppArgList& copy, int moduleInTree) {
  std::vector<std::string> out;
  if (builderOpen(abi)) {
    std::string where = abi.tailModule.empty() ? "in this module, not followed" : abi.tailModule;
    if (!abi.tailModule.empty() && moduleInTree == 0) where += ", not in the tree";
    if (!abi.tailModule.empty() && moduleInTree == 1) where += ", whose list is not read across modules";
    out.push_back(absl::StrCat("arguments after #", abi.args.size(), " are declared by ", abi.tailHelper, " (",
                               where, ")"));
  }
  if (!copy.openStart.empty()) out.push_back(copy.openStart);
  if (!copy.openTail.empty()) out.push_back(copy.openTail);
  return out;
}

std::vector<std::string> hookNotes(const PyBuilder& builder, const PyAbi& abi) {
  std::vector<std::string> out;
  for (const PyHook& h : builder.hooks) {
    if (h.function != abi.origin) continue;  // a hook of another list (another body)
    std::string at = h.after.empty() ? "before its first argument" : absl::StrCat("after ", h.after);
    out.push_back(absl::StrCat("builder has a hook ", h.name, ", called with the IRBuilder ", at,
                               ", that can insert arguments there (compared: its b.param calls, what a caller "
                               "passing no hook declares)"));
  }
  return out;
}

std::string helperModulePath(const PyAbi& abi, const std::string& builderPath) {
  return pyextract::helperPathInTree(builderPath, abi.tailModule);
}

std::optional<PyBuilder> closedFromBase(const PyBuilder& head, const PyAbi& headAbi, const Comparison& before,
                                        const CppArgList& baseCopy, bool helperUnchanged, std::string& note) {
  const PyAbi* was = before.abi;
  if (!helperUnchanged || !was || before.outcome != Comparison::Outcome::Agree || !builderOpen(*was) ||
      !builderOpen(headAbi) || copyOpen(baseCopy))
    return std::nullopt;
  if (was->origin != headAbi.origin || was->guard != headAbi.guard || was->tailHelper != headAbi.tailHelper ||
      was->tailModule != headAbi.tailModule || was->tailCall != headAbi.tailCall || headAbi.tailCall.empty())
    return std::nullopt;
  if (baseCopy.args.size() < was->args.size()) return std::nullopt;
  PyBuilder out = head;
  for (PyAbi& a : out.abis) {
    if (a.origin != headAbi.origin || a.guard != headAbi.guard || a.tailCall != headAbi.tailCall) continue;
    size_t known = a.args.size();
    for (size_t i = was->args.size(); i < baseCopy.args.size(); ++i) {
      KernelArg k = baseCopy.args[i];
      k.range = known ? a.args[known - 1].range : SourceRange{};  // the helper's arguments sit at its call
      k.conditional = false;
      a.args.push_back(std::move(k));
    }
    a.tailHelper.clear();
    a.tailModule.clear();
    a.tailCall.clear();
    size_t n = baseCopy.args.size() - was->args.size();
    note = n == 0 ? absl::StrCat(headAbi.tailHelper, ", called as at the base, declared no argument there (this copy agreed)")
                  : absl::StrCat("the ", n, n == 1 ? " argument" : " arguments", " after #", known, ", declared by ",
                                 headAbi.tailHelper, " (called as at the base), read as this copy stated them there (it agreed)");
    return out;
  }
  return std::nullopt;
}

}  // namespace impact::kernargs_detail
