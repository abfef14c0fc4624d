#include "emit/RunTruth.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/kernargs/Guards.h"
#include "extract/python/RockeTypes.h"

namespace impact::emit {

std::map<std::string, std::string> specText(const nlohmann::json& spec) {
  std::map<std::string, std::string> out;
  if (!spec.is_object()) return out;
  for (const auto& [k, v] : spec.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
    else if (v.is_boolean()) out[k] = v.get<bool>() ? "true" : "false";
    else if (v.is_number() || v.is_null()) out[k] = v.dump();
  }
  return out;
}

KernelArg recordedArg(const ArgRecord& a) {
  KernelArg k;
  k.name = a.name;
  k.kind = a.kind;
  k.size = a.size;
  k.typeText = a.type;
  k.resolved = !a.kind.empty() && a.size != 0;
  if (!k.resolved) k.unresolvedReason = "the run recorded no size for " + a.type;
  k.typeClass = pyextract::typeStringClass(a.type);
  return k;
}

namespace {

constexpr size_t kRunShown = 3;  // variants named in a message; the rest counted

std::string runSomeOf(const std::vector<std::string>& names) {
  std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kRunShown));
  std::string out = absl::StrJoin(shown, ", ");
  if (names.size() > kRunShown) absl::StrAppend(&out, " and ", names.size() - kRunShown, " more");
  return out;
}

// The copy as it stands for one variant: each conditional argument kept (its guard then dropped)
// or left out by the variant's spec. False: a guard the spec does not decide.
bool runCopyForSpec(const CppArgList& copy, const std::map<std::string, std::string>& spec, CppArgList& out) {
  out = copy;
  out.args.clear();
  for (const KernelArg& a : copy.args) {
    Guard g = argGuard(a);
    Truth t = g.empty() ? Truth::True : evalGuard(g, spec);
    if (t == Truth::Unknown) return false;
    if (t == Truth::False) continue;
    KernelArg k = a;
    k.conditional = false;
    k.condition.clear();
    k.guard = Guard{};
    out.args.push_back(std::move(k));
  }
  out.spec.clear();  // the variant is decided here; the recorded list has no guard to pick
  return true;
}

// The recorded list of one kernel as a builder of one unconditional list.
PyBuilder recordedBuilder(const std::string& name, const KernelRecord& k) {
  PyBuilder b;
  b.name = name;
  PyAbi abi;
  abi.origin = name;
  for (const ArgRecord& a : k.args) abi.args.push_back(recordedArg(a));
  b.abis.push_back(std::move(abi));
  return b;
}

// The variants of `f` the pair serves: those its shipped set names, else every variant.
std::vector<const Variant*> runServedVariants(const Family& f, const KernargsPair& p) {
  std::vector<const Variant*> all, named;
  std::set<std::string> names;
  if (p.shipped)
    for (const auto& v : p.shipped->variants) names.insert(v.name);
  // An AOT catalog entry: the kernel its producer built under the entry's symbol (issue 39).
  if (p.copy.list->catalog) {
    std::vector<const Variant*> built;
    for (const auto& v : f.variants)
      if (v.name == p.copy.list->catalog->symbol && v.head.present && v.head.error.empty() && !v.head.kernels.empty() &&
          !v.head.otherShard)
        built.push_back(&v);
    if (!built.empty()) return built;
  }
  for (const auto& v : f.variants) {
    if (!v.head.present || !v.head.error.empty() || v.head.kernels.empty() || v.head.otherShard) continue;
    if (!p.copy.list->spec.empty()) {  // a descriptor copy: its own variant
      if (specText(v.head.spec) == p.copy.list->spec) named.push_back(&v);
      continue;
    }
    all.push_back(&v);
    if (names.count(v.name)) named.push_back(&v);
  }
  if (!p.copy.list->spec.empty()) return named;
  return named.empty() ? all : named;
}

Location runBuilderLocation(const KernargsPair& p) {
  const PyBuilder& b = *p.builder->builder;
  return {p.builder->path, b.range.line + 1, b.name, b.range, b.range};
}

Location runCopyLocation(const CopyRef& c) {
  std::string sym = c.list->symbol;
  if (!c.list->variable.empty()) sym = sym.empty() ? c.list->variable : sym + " " + c.list->variable;
  if (c.list->form == CppArgList::Form::Launch) sym = (sym.empty() ? "" : sym + " ") + "launch(...)";
  if (sym.empty()) sym = "(list)";
  return {c.path, c.list->range.line + 1, sym, c.list->range, c.list->range};
}

}  // namespace

RunTruthOutcome judgeCopiesByRun(std::vector<Row>& rows, const EmitDocument& doc,
                                 const std::vector<KernargsPair>& headPairs,
                                 const std::set<std::string>& changedPaths) {
  RunTruthOutcome out;
  std::map<std::string, Row*> byKey;
  for (Row& r : rows)
    if (r.contract == "kernargs" && r.view.empty()) byKey.emplace(r.key, &r);
  std::vector<Row> added;
  size_t undecided = 0;
  for (const KernargsPair& p : headPairs) {
    if (!p.builder || !p.copy.list || p.copy.list->form == CppArgList::Form::Names) continue;
    for (const Family& f : doc.families) {
      if (f.path != p.builder->path || f.builder != p.builder->builder->name) continue;
      std::vector<std::string> disagree;
      std::string first;
      int focus = -1;
      bool unchanged = !changedPaths.count(p.copy.path);
      bool compared = false;
      for (const Variant* v : runServedVariants(f, p)) {
        CppArgList copy;
        if (!runCopyForSpec(*p.copy.list, specText(v->head.spec), copy)) {
          ++undecided;
          continue;
        }
        compared = true;
        ++out.comparisons;
        bool agrees = false;
        Comparison c;
        for (const KernelRecord& k : v->head.kernels) {
          PyBuilder rb = recordedBuilder(f.builder, k);
          Comparison ck = compareCopy(rb, copy, nullptr);
          if (ck.outcome != Comparison::Outcome::Disagree) {
            agrees = true;
            break;
          }
          if (c.message.empty()) c = std::move(ck);
        }
        if (agrees) continue;
        disagree.push_back(v->name);
        if (first.empty()) first = c.message, focus = c.focusCopy;
        // Nothing under it changed: the same disagreement stood at the base.
        if (!v->base.present || !v->argsEqual()) unchanged = false;
      }
      if (compared) ++out.copies;
      if (disagree.empty()) continue;
      std::string why = absl::StrCat("the run: the copy disagrees with the argument list ", f.builder, " recorded for ",
                                     disagree.size(), disagree.size() == 1 ? " variant" : " variants", " (",
                                     runSomeOf(disagree), "): ", first);
      auto it = byKey.find("kernargs|" + p.copy.key);
      if (it != byKey.end() && it->second->status == Status::Mismatch) continue;  // the static reading saw it
      ++out.disagreements;
      if (it != byKey.end()) {
        Row& r = *it->second;
        // The same disagreement stood at the base; a row the change touched only inertly stays so.
        if (unchanged) r.preexisting = true, r.inertTouch = r.status == Status::Inert;
        r.status = Status::Mismatch;
        r.message = absl::StrCat(r.message.empty() ? "" : r.message + "; ", why);
        continue;
      }
      Row r;
      r.contract = "kernargs";
      r.status = Status::Mismatch;
      r.preexisting = unchanged;
      r.inertTouch = unchanged;  // nothing it reads changed in a way its run shows
      r.python = runBuilderLocation(p);
      r.mirror = runCopyLocation(p.copy);
      if (focus >= 0 && size_t(focus) < p.copy.list->args.size()) r.mirror.focus = p.copy.list->args[focus].range;
      r.message = why;
      r.key = "kernargs|" + p.copy.key;
      r.pairedBy = p.pairedBy;
      r.archs = {};
      for (const auto& v : f.variants)
        if (v.head.present && std::find(r.archs.begin(), r.archs.end(), v.arch) == r.archs.end())
          r.archs.push_back(v.arch);
      added.push_back(std::move(r));
    }
  }
  for (Row& r : added) rows.push_back(std::move(r));
  out.notes.push_back(absl::StrCat("emitter: ", out.copies, out.copies == 1 ? " copy" : " copies",
                                   " compared with the recorded argument lists (", out.comparisons,
                                   " variant comparisons); ", out.disagreements,
                                   " disagree where the static reading did not",
                                   undecided ? absl::StrCat("; ", undecided,
                                                            " not compared: a copy's condition the variant's spec does not decide")
                                             : std::string()));
  return out;
}

}  // namespace impact::emit
