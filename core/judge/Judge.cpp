#include "judge/Judge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/Accounting.h"
#include "contracts/Kernargs.h"
#include "contracts/kernargs/LaunchValues.h"
#include "contracts/kernargs/OpenTails.h"
#include "judge/Archs.h"
#include "judge/Contracts.h"
#include "python/ModuleGraph.h"

namespace impact {

namespace {

const PyBuilder* findBuilder(const TreeFacts& facts, const std::string& path, const std::string& name) {
  const FileFacts* f = facts.find(path);
  if (!f) return nullptr;
  for (const auto& b : f->builders)
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::string> sorted(const std::set<std::string>& s) { return {s.begin(), s.end()}; }

Location builderLoc(const BuilderRef& b) {
  return {b.path, b.builder->range.line + 1, b.builder->name, b.builder->range, b.builder->range};
}

Location copyLoc(const CopyRef& c) {
  std::string sym = c.list->symbol;
  if (!c.list->variable.empty()) sym = sym.empty() ? c.list->variable : sym + " " + c.list->variable;
  if (c.list->form == CppArgList::Form::Launch) sym = (sym.empty() ? "" : sym + " ") + "launch(...)";
  if (sym.empty()) sym = "(list)";
  return {c.path, c.list->range.line + 1, sym, c.list->range, c.list->range};
}

std::string parseProblem(const TreeFacts& facts, const std::string& path) {
  const FileFacts* f = facts.find(path);
  if (!f || f->ok) return "";
  return absl::StrCat(path, " could not be read: ", f->error);
}

bool isSurfaceFile(const FileFacts* f, const Layout& layout) {
  if (!f) return false;
  switch (f->kind) {
    case FileKind::Python: return true;  // any module of the rocKE trees
    case FileKind::Cpp: return !f->lists.empty();
    case FileKind::Manifest: return true;
    case FileKind::Descriptor: return true;
    // A YAML file of a configs folder is on the surface when it names a rocKE builder (or cannot
    // be read): a config of HIP or embedded sources only, or a sweep file, is not.
    case FileKind::GeneratorConfig:
      return !f->ok || (f->generator && std::any_of(f->generator->sources.begin(), f->generator->sources.end(),
                                                     [](const GeneratorSource& s) { return s.namesBuilder(); }));
    case FileKind::Other: return false;
  }
  return false;
}

}  // namespace

bool touched(const Revision& base, const Revision& head, const std::string& path) {
  const FileRef* a = base.find(path);
  const FileRef* b = head.find(path);
  if (!a || !b) return a != b;
  return a->id != b->id;
}

bool changedInCode(const Revision& base, const Revision& head, const std::string& path) {
  if (path.empty() || !touched(base, head, path)) return false;
  const FileFacts* a = base.facts.find(path);
  const FileFacts* b = head.facts.find(path);
  if (!a || !b || !a->ok || !b->ok) return true;
  return a->fingerprint != b->fingerprint;
}

std::shared_ptr<const Derived> Derived::of(std::shared_ptr<const TreeFacts> facts, const Layout& layout) {
  auto d = std::make_shared<Derived>();
  d->facts = std::move(facts);
  d->layout = layout;
  d->pairs = pairKernargs(*d->facts, d->layout, &d->unpaired);
  d->graph = std::make_unique<ModuleGraph>(*d->facts, d->layout);
  d->archs = std::make_unique<ArchIndex>(*d->facts, d->layout, *d->graph);
  return d;
}

Derived::~Derived() = default;

std::vector<Row> judge(const Revision& base, const Revision& head, const Layout& layout,
                       std::vector<std::string>* notes, JudgeMemo* memo) {
  std::vector<Row> rows;
  // Each side's module graph and arch index: precomputed when the caller has them.
  std::optional<ModuleGraph> ownHeadGraph, ownBaseGraph;
  std::optional<ArchIndex> ownHeadArchs, ownBaseArchs;
  if (!head.derived) ownHeadGraph.emplace(head.facts, layout);
  if (!base.derived) ownBaseGraph.emplace(base.facts, layout);
  const ModuleGraph& headGraph = head.derived ? *head.derived->graph : *ownHeadGraph;
  const ModuleGraph& baseGraph = base.derived ? *base.derived->graph : *ownBaseGraph;
  if (!head.derived) ownHeadArchs.emplace(head.facts, layout, headGraph);
  if (!base.derived) ownBaseArchs.emplace(base.facts, layout, baseGraph);
  const ArchIndex& headArchs = head.derived ? *head.derived->archs : *ownHeadArchs;
  const ArchIndex& baseArchs = base.derived ? *base.derived->archs : *ownBaseArchs;
  JudgeContext cx{base, head, layout, baseGraph, headGraph, baseArchs, headArchs};
  if (notes && !headArchs.unexpanded().empty()) {
    std::string names;
    for (const auto& g : headArchs.unexpanded()) names += (names.empty() ? "" : ", ") + g;
    notes->push_back(headArchs.tableFound()
                         ? "generic targets not in the table " + layout.genericTargetTable + ": " + names + " (kept as named)"
                         : "no generic-target table at " + layout.genericTargetTable + ": " + names +
                               " kept as named (their member archs are unknown)");
  }
  auto builderArchs = [&](const std::string& module, const std::string& name) {
    auto s = headArchs.forBuilder(module, name);
    auto b = baseArchs.forBuilder(module, name);
    s.insert(b.begin(), b.end());
    return s;
  };

  std::vector<KernargsPair> headOwn, baseOwn;
  const std::vector<KernargsPair>* headGiven = head.pairs ? head.pairs : head.derived ? &head.derived->pairs : nullptr;
  const std::vector<KernargsPair>* baseGiven = base.pairs ? base.pairs : base.derived ? &base.derived->pairs : nullptr;
  if (!headGiven) headOwn = pairKernargs(head.facts, layout);
  if (!baseGiven) baseOwn = pairKernargs(base.facts, layout);
  const std::vector<KernargsPair>& headPairs = headGiven ? *headGiven : headOwn;
  const std::vector<KernargsPair>& basePairs = baseGiven ? *baseGiven : baseOwn;
  std::map<std::string, const KernargsPair*> baseByCopy;
  for (const auto& p : basePairs) baseByCopy.emplace(p.copy.key, &p);
  std::set<std::string> headCopyKeys;
  // Paths whose change a pair row explains (a changed or mismatch row reads them).
  std::set<std::string> explained, covered;

  for (const auto& p : headPairs) {
    headCopyKeys.insert(p.copy.key);
    const std::string& cPath = p.copy.path;
    if (!p.builder) {
      if (!touched(base, head, cPath) && !(p.declared && touched(base, head, p.manifest))) continue;
      Row r;
      r.contract = "kernargs";
      r.status = Status::Changed;
      r.mirror = copyLoc(p.copy);
      r.message = p.note;
      r.pairedBy = p.pairedBy;
      r.key = "kernargs|" + p.copy.key;
      r.archs = sorted({archFromPath(cPath)});
      if (r.archs.size() == 1 && r.archs[0].empty()) r.archs.clear();
      explained.insert(cPath);
      covered.insert(cPath);
      rows.push_back(std::move(r));
      continue;
    }
    const BuilderRef& b = *p.builder;
    bool manifestTouched = (p.declared && touched(base, head, p.manifest)) ||
                           (!p.declaration.empty() && touched(base, head, p.declaration));
    // A declaration that states the shipped variants (a KDP, a generator config) decides
    // conditional arguments: its change re-judges the pair.
    if (p.shipped)
      for (const auto& f : p.shipped->files) manifestTouched = manifestTouched || touched(base, head, f);
    bool builderTouched = touched(base, head, b.path);
    for (const std::string& m : b.builder->readThrough) builderTouched = builderTouched || touched(base, head, m);
    if (!builderTouched && !touched(base, head, cPath) && !manifestTouched) continue;

    Row r;
    r.contract = "kernargs";
    r.python = builderLoc(b);
    r.mirror = copyLoc(p.copy);
    r.key = "kernargs|" + p.copy.key;
    r.archs = sorted(builderArchs(b.path, b.builder->name));
    // A builder no shipped descriptor reaches: the archs its pack's declaration names.
    if (r.archs.empty()) r.archs = sorted({p.declaredArchs.begin(), p.declaredArchs.end()});
    r.pairedBy = p.pairedBy;
    covered.insert(b.path);
    covered.insert(cPath);

    // A builder whose arguments are not read is not compared, as impact check says (Accounting):
    // never a mismatch "declares no argument list" (issue 36).
    if (std::string why = builderNotRead(*b.builder, b.path); !why.empty()) {
      std::string problem = parseProblem(head.facts, b.path);
      r.status = Status::Changed;
      r.message = (p.note.empty() ? "" : p.note + "; ") + (problem.empty() ? "not compared: the builder's " + why : problem);
      explained.insert(b.path);
      explained.insert(cPath);
      rows.push_back(std::move(r));
      continue;
    }
    const KernargsPair* bp = nullptr;
    if (auto it = baseByCopy.find(p.copy.key); it != baseByCopy.end()) bp = it->second;
    std::optional<Comparison> before;
    if (bp && bp->builder && builderNotRead(*bp->builder->builder, bp->builder->path).empty()) before = comparePair(*bp);
    // Stable pairing: the list the copy agreed with at the base, where it paired with this builder.
    std::optional<ListAtBase> atBase;
    if (before && before->abi && before->outcome != Comparison::Outcome::Disagree &&
        bp->builder->key() == b.key())
      atBase = ListAtBase{before->abi->origin, before->abi->guard,
                          bp->copy.list->fingerprint == p.copy.list->fingerprint};
    Comparison now = comparePair(p, atBase ? &*atBase : nullptr);
    // A list open at a helper impactd cannot see, which the change left as it was: read as the
    // base's agreeing copy stated it (OpenTails.h), so a break made before the helper is found.
    std::optional<PyBuilder> closed;
    std::string closedNote;
    if (before && now.abi && kernargs_detail::builderOpen(*now.abi)) {
      std::string helper = kernargs_detail::helperModulePath(*now.abi, b.path);
      bool unchanged = !helper.empty() && !touched(base, head, helper);
      closed = kernargs_detail::closedFromBase(*b.builder, *now.abi, *before, *bp->copy.list, unchanged, closedNote);
      if (closed) now = compareCopy(*closed, *p.copy.list, p.shipped.get(), atBase ? &*atBase : nullptr);
    }
    // Named launch values that traded places since the base, the builder's list as it was
    // (LaunchValues.h): a mismatch the kinds alone cannot show.
    if (before && before->abi && now.abi && now.outcome != Comparison::Outcome::Disagree &&
        before->outcome != Comparison::Outcome::Disagree && p.copy.list->form == CppArgList::Form::Launch) {
      auto moved = kernargs_detail::movedValues(*before->abi, *now.abi, *bp->copy.list, *p.copy.list);
      if (!moved.message.empty()) {
        now.outcome = Comparison::Outcome::Disagree;
        now.message = moved.message;
        now.focusBuilder = moved.focusBuilder;
        now.focusCopy = moved.focusCopy;
      }
    }

    const PyBuilder* baseBuilder = findBuilder(base.facts, b.path, b.builder->name);
    bool builderChanged = !baseBuilder || baseBuilder->fingerprint != b.builder->fingerprint;
    bool copyChanged = !bp || bp->copy.list->fingerprint != p.copy.list->fingerprint;
    std::vector<std::string> moved;
    if (builderChanged) moved.push_back("builder");
    if (copyChanged) moved.push_back("copy");

    std::string problem = parseProblem(head.facts, b.path);
    if (problem.empty()) problem = parseProblem(head.facts, cPath);

    std::string lead = p.note.empty() ? "" : p.note + "; ";
    if (!problem.empty()) {
      r.status = Status::Changed;
      r.message = problem;
    } else if (now.outcome == Comparison::Outcome::Disagree) {
      r.status = Status::Mismatch;
      if (now.abi && now.focusBuilder >= 0 && size_t(now.focusBuilder) < now.abi->args.size())
        r.python.focus = now.abi->args[now.focusBuilder].range;
      if (now.focusCopy >= 0 && size_t(now.focusCopy) < p.copy.list->args.size())
        r.mirror.focus = p.copy.list->args[now.focusCopy].range;
      r.preexisting = before && before->outcome == Comparison::Outcome::Disagree;
      r.message = lead + now.message;
      if (r.preexisting) r.message += " (already so at the base)";
    } else if (builderChanged || copyChanged ||
               (now.outcome == Comparison::Outcome::AgreeWithoutConditional &&
                (!before || before->outcome == Comparison::Outcome::Agree))) {
      r.status = Status::Changed;
      std::string what = now.outcome != Comparison::Outcome::Agree ? now.message
                         : now.notCompared.empty()
                             ? absl::StrCat("agrees (", now.shippedNote.empty() && now.abi ? now.abi->args.size()
                                                                                          : now.pairs.size(),
                                            " arguments)")
                             : absl::StrCat("agrees on the ", now.pairs.size(), " arguments both state");
      if (now.outcome == Comparison::Outcome::Agree && !now.shippedNote.empty()) what += "; " + now.shippedNote;
      r.message = lead + what + (moved.empty() ? "" : "; " + absl::StrJoin(moved, " and ") + " changed in code");
    } else {
      r.status = Status::Inert;
      // A catalog entry's list fingerprint is its args_signature alone (grid/block are judged
      // by catalog-geometry): other fields of the entry may have moved.
      r.message = lead + (p.copy.list->catalog ? "its argument list did not change" : "only comments or whitespace changed");
    }
    if (!now.unresolved.empty() && r.status != Status::Inert)
      r.message += "; type not resolved for " + absl::StrJoin(now.unresolved, ", ");
    if (now.abi && !now.notCompared.empty() && r.status != Status::Inert) {
      std::string helper = kernargs_detail::helperModulePath(*now.abi, b.path);
      int inTree = helper.empty() ? -1 : head.facts.find(helper) ? 1 : 0;
      r.message += "; not compared: " + absl::StrJoin(kernargs_detail::notComparedParts(*now.abi, *p.copy.list, inTree), "; ");
    }
    if (closed && r.status != Status::Inert) r.message += "; " + closedNote;
    if (now.abi && r.status != Status::Inert)
      for (const std::string& h : kernargs_detail::hookNotes(*b.builder, *now.abi)) r.message += "; " + h;
    if (r.status != Status::Inert) {
      explained.insert(b.path);
      explained.insert(cPath);
    }
    rows.push_back(std::move(r));
  }

  // A copy that paired at the base and pairs with nothing now (its builder went away).
  for (const auto& p : basePairs) {
    if (!p.builder || headCopyKeys.count(p.copy.key)) continue;
    const FileFacts* hf = head.facts.find(p.copy.path);
    if (!hf) continue;  // the copy's file is gone too
    bool stillThere = false;
    for (const auto& l : hf->lists)
      if (l.symbol == p.copy.list->symbol && l.form == p.copy.list->form) stillThere = true;
    if (!stillThere) continue;
    Row r;
    r.contract = "kernargs";
    r.status = Status::Mismatch;
    r.python = builderLoc(*p.builder);
    r.python.line = 0;
    r.mirror = copyLoc(p.copy);
    r.message = absl::StrCat("the copy paired with ", p.builder->builder->name,
                             " at the base; no builder matches it now");
    r.pairedBy = p.pairedBy;
    // It paired through a declaration that is gone or unreadable now: the copy and its builder
    // may still agree; what changed is the declaration (its own row says how).
    if (!p.declaration.empty() && p.declaration != p.copy.path) {
      const FileFacts* df = head.facts.find(p.declaration);
      if (!df || !df->ok) {
        r.status = Status::Changed;
        r.message = absl::StrCat("paired with ", p.builder->builder->name, " at the base through ", p.pairedBy, "; ",
                                 p.declaration, df ? " could not be read: " + df->error : " is gone",
                                 ", and nothing else pairs it now");
      }
    }
    r.key = "kernargs|" + p.copy.key;
    r.archs = sorted(builderArchs(p.builder->path, p.builder->builder->name));
    explained.insert(p.copy.path);
    explained.insert(p.builder->path);
    rows.push_back(std::move(r));
  }

  // The other contracts (SPEC R2.4–R2.9), each judged in its own file under core/judge/. With
  // a memo (the language server), a contract none of whose input kinds changed since the
  // last judgement is not judged again: its rows are reused.
  struct Entry {
    const char* name;
    ContractRows (*judge)(const JudgeContext&);
    std::set<FileKind> reads;
  };
  static const Entry contracts[] = {
      {"launch-surface", &judgeLaunchSurfaces, {FileKind::Python, FileKind::Cpp, FileKind::Manifest, FileKind::Descriptor}},
      {"symbols", &judgeSymbols, {FileKind::Cpp, FileKind::Manifest, FileKind::Descriptor}},
      {"removed-symbol", &judgeRemovedSymbols, {FileKind::Python, FileKind::Descriptor}},
      {"build", &judgeBuildFiles, {FileKind::Cpp, FileKind::Other}},
      {"catalog-geometry", &judgeCatalogGeometry, {FileKind::Python, FileKind::Descriptor}},
      {"catalog-bindings", &judgeCatalogBindings, {FileKind::Cpp, FileKind::Descriptor}},
      {"kernargs-names", &judgeNameLists, {FileKind::Python, FileKind::Cpp, FileKind::Manifest}},
  };
  for (const Entry& e : contracts) {
    bool reuse = memo && memo->valid && memo->rows.count(e.name);
    for (FileKind k : e.reads) reuse = reuse && !memo->changedKinds.count(k);
    ContractRows more = reuse ? memo->rows[e.name] : e.judge(cx);
    if (memo) memo->rows[e.name] = more;
    if (memo) memo->judged += reuse ? 0 : 1;
    for (auto& r : more.rows) rows.push_back(std::move(r));
    if (notes) notes->insert(notes->end(), more.notes.begin(), more.notes.end());
    explained.insert(more.explained.begin(), more.explained.end());
    covered.insert(more.covered.begin(), more.covered.end());
  }

  // Touched surface files whose change no pair row explains.
  std::set<std::string> paths;
  for (const auto& [path, _] : head.facts.files) paths.insert(path);
  for (const auto& [path, _] : base.facts.files) paths.insert(path);
  for (const auto& path : paths) {
    if (!touched(base, head, path)) continue;
    const FileFacts* hf = head.facts.find(path);
    const FileFacts* bf = base.facts.find(path);
    if (!isSurfaceFile(hf, layout) && !isSurfaceFile(bf, layout)) continue;
    const FileFacts* any = hf ? hf : bf;
    Row r;
    r.contract = any->kind == FileKind::Python ? "kernel-code"
                 : any->kind == FileKind::Cpp  ? "copy-file"
                 : any->kind == FileKind::Manifest ? "manifest"
                 : any->kind == FileKind::GeneratorConfig ? "generator-config"
                                                   : "descriptor";
    r.key = r.contract + "|" + path;
    Location loc{path, 0, "", {}, {}};
    if (any->kind == FileKind::Python) r.python = loc;
    else r.mirror = loc;
    std::set<std::string> archs;
    if (any->kind == FileKind::Python) {
      archs = headArchs.forModule(path);
      auto b = baseArchs.forModule(path);
      archs.insert(b.begin(), b.end());
    } else if (any->kind == FileKind::Descriptor) {
      for (const FileFacts* f : {hf, bf})
        if (f && f->descriptor) archs.insert(f->descriptor->arch.begin(), f->descriptor->arch.end());
    } else if (any->kind == FileKind::Manifest) {
      for (const FileFacts* f : {hf, bf})
        if (f && f->manifest && !f->manifest->arch.empty()) archs.insert(f->manifest->arch);
    } else if (any->kind == FileKind::GeneratorConfig) {
      for (const FileFacts* f : {hf, bf})
        if (f && f->generator)
          for (const auto& s : f->generator->sources) archs.insert(s.arch.begin(), s.arch.end());
    } else if (std::string a = archFromPath(path); !a.empty()) {
      archs.insert(a);
    }
    r.archs = sorted(archs);
    if (!hf) {
      r.status = Status::Changed;
      r.message = "removed";
    } else if (!hf->ok) {
      r.status = Status::Changed;
      r.message = absl::StrCat("could not be read: ", hf->error);
    } else if (!bf) {
      r.status = Status::Changed;
      r.message = "added";
    } else if (hf->fingerprint != bf->fingerprint) {
      if (explained.count(path)) continue;
      r.status = Status::Changed;
      r.message = any->kind == FileKind::Python ? "code changed outside the argument lists compared above"
                                                : "content changed";
    } else {
      if (covered.count(path)) continue;
      r.status = Status::Inert;
      const bool labelled = any->descriptor && (any->descriptor->type == "ued" || any->descriptor->type == "umd" ||
                                                any->descriptor->type == "uhd" || any->descriptor->type == "udd" ||
                                                any->descriptor->type == "kmd");
      r.message = any->kind == FileKind::Python || any->kind == FileKind::Cpp ? "only comments or whitespace changed"
                  : labelled ? "no value a contract reads changed (its name is a label)"
                             : "no value changed";
    }
    if (!hf && explained.count(path)) continue;
    // R2.7: a module no shipped variant (nor the packer) reaches is outside the surface.
    if (any->kind == FileKind::Python && !headGraph.inShippedClosure(path) && !baseGraph.inShippedClosure(path))
      r.status = Status::Outside, r.message = "outside the shipped closure; " + r.message;
    rows.push_back(std::move(r));
  }

  // A pre-existing mismatch on files this change touched only inertly asks for no device run.
  for (Row& r : rows) {
    if (r.status != Status::Mismatch || !r.preexisting) continue;
    std::vector<std::string> reads{r.python.path, r.mirror.path};
    if (r.key.starts_with("launch-surface|")) reads.push_back(r.key.substr(15, r.key.find('|', 15) - 15));
    r.inertTouch = std::none_of(reads.begin(), reads.end(),
                                [&](const std::string& p) { return changedInCode(base, head, p); });
  }

  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (a.status != b.status) return a.status < b.status;
    const std::string& pa = a.mirror.empty() ? a.python.path : a.mirror.path;
    const std::string& pb = b.mirror.empty() ? b.python.path : b.mirror.path;
    if (pa != pb) return pa < pb;
    return a.mirror.line < b.mirror.line;
  });
  return rows;
}

}  // namespace impact
