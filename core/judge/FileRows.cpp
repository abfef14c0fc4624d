// Rows of the touched surface files whose change no contract's row explains or covers: a
// kernel module's code, a C++ copy file, a profile, a generator config, a descriptor — changed,
// inert, or outside the shipped closure (SPEC R2.7).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "judge/Archs.h"
#include "judge/Contracts.h"
#include "judge/Judge.h"
#include "python/ModuleGraph.h"

namespace impact {

namespace {

std::vector<std::string> sorted(const std::set<std::string>& s) { return {s.begin(), s.end()}; }

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

std::vector<Row> judgeTouchedFiles(const JudgeContext& cx, const std::set<std::string>& explained,
                                   const std::set<std::string>& covered) {
  const Revision& base = cx.base;
  const Revision& head = cx.head;
  const Layout& layout = cx.layout;
  std::vector<Row> out;
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
      archs = cx.headArchs.forModule(path);
      auto b = cx.baseArchs.forModule(path);
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
    if (any->kind == FileKind::Python && !cx.headGraph.inShippedClosure(path) && !cx.baseGraph.inShippedClosure(path))
      r.status = Status::Outside, r.message = "outside the shipped closure; " + r.message;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
