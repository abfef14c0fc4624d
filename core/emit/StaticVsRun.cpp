// The static reading of each built family's builder against its run (emit/RunTruth.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/kernargs/Guards.h"
#include "emit/RunTruth.h"

namespace impact::emit {

namespace {

const PyBuilder* svrFindBuilder(const TreeFacts& head, const std::string& path, const std::string& name) {
  const FileFacts* f = head.find(path);
  if (!f) return nullptr;
  for (const PyBuilder& b : f->builders)
    if (b.name == name) return &b;
  return nullptr;
}

std::string svrArgText(const KernelArg& a) {
  std::string kind = a.resolved && !a.kind.empty() ? absl::StrCat(a.kind, "/", a.size) : "type not read";
  return absl::StrCat(a.name.empty() ? "(name not read)" : a.name, " (", kind,
                      a.typeClass.empty() ? "" : ", " + a.typeClass, ")");
}

std::string svrRecordText(const ArgRecord& a) { return absl::StrCat(a.name, " (", a.kind, "/", a.size, ", ", a.type, ")"); }

// What the static reading states of one argument differs from the recorded one ("" when not).
bool svrArgDiffers(const KernelArg& s, const ArgRecord& r) {
  if (!s.name.empty() && s.name != r.name) return true;
  if (s.resolved && !s.kind.empty() && s.kind != r.kind) return true;
  if (s.resolved && s.size != 0 && r.size != 0 && s.size != r.size) return true;
  KernelArg rec = recordedArg(r);
  if (!s.typeClass.empty() && !rec.typeClass.empty() && s.typeClass != rec.typeClass) {
    // "i32" (signedness not stated) stands for "s32" and "u32".
    auto width = [](const std::string& c) { return c.size() > 1 && (c[0] == 'i' || c[0] == 's' || c[0] == 'u') ? c.substr(1) : ""; };
    bool intsAgree = !width(s.typeClass).empty() && width(s.typeClass) == width(rec.typeClass) &&
                     (s.typeClass[0] == 'i' || rec.typeClass[0] == 'i');
    if (!intsAgree) return true;
  }
  return false;
}

// The static list of `b` for one spec: the list it builds (early returns decided) and its
// arguments (conditions decided; a type chosen by a condition picked). `open`: where and why the
// reading stops (an undecided guard, a helper not followed, a hook); the list is compared up to it.
struct SvrSpecList {
  std::vector<KernelArg> args;
  std::vector<const KernelArg*> off;  // arguments whose condition the spec decides false
  bool decided = true;  // false: which list is built is not decided by the spec
  std::string open;     // "" when the list is complete
};

SvrSpecList svrStaticListFor(const PyBuilder& b, const std::map<std::string, std::string>& spec) {
  SvrSpecList out;
  if (!b.notRead.empty()) {
    out.open = "not read: " + b.notRead;
    return out;
  }
  const PyAbi* chosen = nullptr;
  for (size_t i = 1; i < b.abis.size() && !chosen; ++i) {  // early returns first, in order
    Truth t = evalGuard(b.abis[i].when, spec);
    if (t == Truth::True) chosen = &b.abis[i];
    else if (t == Truth::Unknown) {
      out.decided = false;
      out.open = absl::StrCat("the spec does not decide the early return `", b.abis[i].guard, "`");
      return out;
    }
  }
  if (!chosen && !b.abis.empty()) {
    Truth t = evalGuard(b.abis[0].when, spec);
    if (t == Truth::Unknown) {
      out.decided = false;
      out.open = "the spec does not decide which list the builder declares";
      return out;
    }
    if (t == Truth::True) chosen = &b.abis[0];
  }
  if (!chosen) {
    out.open = "no list of the builder is declared for this spec";
    return out;
  }
  if (isDispatch(*chosen)) {
    out.open = absl::StrCat("the list is wholly ", chosen->tailHelper, "'s (not followed)");
    return out;
  }
  // A hook can insert arguments after the argument it follows.
  std::string hookAfter;
  bool hooked = !b.hooks.empty();
  if (hooked) hookAfter = b.hooks.front().after;
  if (hooked && hookAfter.empty()) {
    out.open = absl::StrCat("the hook ", b.hooks.front().name, " may declare arguments first");
    return out;
  }
  for (const KernelArg& a : chosen->args) {
    Guard g = argGuard(a);
    Truth t = g.empty() ? Truth::True : evalGuard(g, spec);
    if (t == Truth::Unknown) {
      out.open = absl::StrCat("the spec does not decide the condition of ", a.name, " (", a.condition, ")");
      return out;
    }
    if (t == Truth::False) {
      out.off.push_back(&a);
      continue;
    }
    KernelArg k = a;
    if (!a.choices.empty()) {
      const TypeChoice* pick = nullptr;
      for (const TypeChoice& c : a.choices)
        if (evalGuard(c.when, spec) == Truth::True) pick = &c;
      if (!pick) {
        out.open = absl::StrCat("the spec does not decide the type of ", a.name);
        return out;
      }
      if (!pick->name.empty()) k.name = pick->name;
      k.kind = pick->kind, k.size = pick->size, k.typeClass = pick->typeClass;
      k.resolved = !k.kind.empty();
    }
    out.args.push_back(std::move(k));
    if (hooked && a.name == hookAfter) {
      out.open = absl::StrCat("the hook ", b.hooks.front().name, " may declare arguments after ", a.name);
      return out;
    }
  }
  if (!chosen->tailHelper.empty())
    out.open = absl::StrCat("then whatever ", chosen->tailHelper, " declares (not followed)");
  return out;
}

// What the static reading made of a recorded argument it does not have at that place: an argument
// it declares under a condition this spec decides false names the condition and its line.
std::string svrConstruct(const SvrSpecList& s, const ArgRecord& r) {
  for (const KernelArg* a : s.off)
    if (a->name == r.name)
      return absl::StrCat("; the static reading declares ", r.name, " only if ", a->condition, " (line ", a->range.line + 1,
                          "), false for this variant's spec");
  for (const KernelArg& a : s.args)
    if (a.name == r.name) return absl::StrCat("; the static reading declares ", r.name, " elsewhere (line ", a.range.line + 1, ")");
  return "";
}

// The first difference of a static list (complete, or open after its args) and a recorded one.
std::string svrDifference(const SvrSpecList& s, const KernelRecord& k, int& position) {
  const auto& r = k.args;
  for (size_t i = 0; i < std::min(s.args.size(), r.size()); ++i)
    if (svrArgDiffers(s.args[i], r[i])) {
      position = int(i);
      return absl::StrCat("#", i, ": the static reading has ", svrArgText(s.args[i]), " (line ", s.args[i].range.line + 1,
                          "), the run declares ", svrRecordText(r[i]), svrConstruct(s, r[i]));
    }
  if (s.args.size() > r.size()) {
    position = int(r.size());
    return absl::StrCat("#", r.size(), ": the static reading has ", svrArgText(s.args[r.size()]), ", the run declares ",
                        r.size(), " arguments only");
  }
  if (s.args.size() < r.size() && s.open.empty()) {
    position = int(s.args.size());
    return absl::StrCat("#", s.args.size(), ": the run declares ", svrRecordText(r[s.args.size()]),
                        ", the static reading ends after ", s.args.size(), " arguments",
                        svrConstruct(s, r[s.args.size()]));
  }
  return "";
}

}  // namespace

StaticRunOutcome staticVsRun(const EmitDocument& doc, const TreeFacts& head) {
  StaticRunOutcome out;
  for (const Family& f : doc.families) {
    if (f.head.status != "ok") continue;
    std::vector<const Variant*> built;
    for (const Variant& v : f.variants)
      if (v.head.present && !v.head.otherShard && v.head.error.empty() && !v.head.kernels.empty()) built.push_back(&v);
    if (built.empty()) continue;
    ++out.builders;
    const PyBuilder* b = svrFindBuilder(head, f.path, f.builder);
    for (const Variant* v : built) {
      ++out.variants;
      StaticRunDiff d{f.path, f.builder, v->name, -1, ""};
      if (!b) {
        d.message = absl::StrCat("static reading of ", f.builder, " differs from its run: variant ", v->name,
                                 ": the static reading finds no builder ", f.builder, " in ", f.path,
                                 "; the run declares ", v->head.kernels.front().args.size(), " arguments");
        out.diffs.push_back(std::move(d));
        continue;
      }
      SvrSpecList s = svrStaticListFor(*b, specText(v->head.spec));
      if (!s.open.empty()) {
        ++out.open;
        out.openWhy.push_back(absl::StrCat(f.builder, " for ", v->name, ": ", s.open));
      }
      if (!s.decided) continue;
      std::string first;
      int position = -1;
      bool agrees = false;
      for (const KernelRecord& k : v->head.kernels) {
        int pos = -1;
        std::string diff = svrDifference(s, k, pos);
        if (diff.empty()) {
          agrees = true;
          break;
        }
        if (first.empty()) first = diff, position = pos;
      }
      if (agrees) continue;
      d.position = position;
      d.message = absl::StrCat("static reading of ", f.builder, " differs from its run: variant ", v->name, ": ", first);
      out.diffs.push_back(std::move(d));
    }
  }
  return out;
}

void addStaticRunRows(std::vector<Row>& rows, std::vector<std::string>& notes, const StaticRunOutcome& out,
                      const TreeFacts& head) {
  for (const StaticRunDiff& d : out.diffs) {
    Row r;
    r.contract = "static-vs-run";
    r.status = Status::Outside;
    r.python.path = d.path;
    r.python.symbol = d.builder;
    if (const PyBuilder* b = svrFindBuilder(head, d.path, d.builder)) {
      r.python.line = b->range.line + 1;
      r.python.range = r.python.focus = b->range;
    }
    r.message = d.message;
    r.key = absl::StrCat("static-vs-run|", d.path, "|", d.builder, "|", d.variant);
    rows.push_back(std::move(r));
  }
  std::string open;
  if (out.open) {
    std::vector<std::string> shown(out.openWhy.begin(), out.openWhy.begin() + std::min<size_t>(out.openWhy.size(), 3));
    open = absl::StrCat("; ", out.open, " compared only up to an open end (", absl::StrJoin(shown, "; "),
                        out.openWhy.size() > 3 ? "; ..." : "", ")");
  }
  notes.push_back(absl::StrCat("emitter: static reading compared with the run for ", out.variants,
                               out.variants == 1 ? " variant" : " variants", " of ", out.builders,
                               out.builders == 1 ? " builder" : " builders", ": ", out.diffs.size(),
                               out.diffs.size() == 1 ? " differs" : " differ", open));
}

}  // namespace impact::emit
