#include "emit/Geometry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact::emit {

namespace {

constexpr size_t kShown = 3;  // variants named in a message

std::string triple(const std::vector<int64_t>& v) { return absl::StrCat("(", absl::StrJoin(v, ", "), ")"); }

// One axis group (grid or block) of a family, judged over its variants.
struct AxisVerdict {
  std::set<std::string> axes;        // "x", "y", "z" that disagree somewhere
  std::vector<std::string> examples; // "name: Python (a, b, c), C++ (d, e, f)"
  size_t disagree = 0, agree = 0;
  std::vector<std::string> throws;   // "name: what the header threw"
  size_t throwCount = 0;
  std::vector<std::string> pyErrors; // "name: Python's exception"
  size_t pyErrorCount = 0;
  std::vector<std::string> unfed;    // "name: why"
  size_t unfedCount = 0;
  std::vector<std::string> declined; // declined by the header function while the launch has another path
  size_t declinedCount = 0;
  std::string firstUb;               // "name: UBSan's report"
  size_t ubCount = 0;
};

AxisVerdict judgeAxis(const GeometryFamily& f, bool grid) {
  static const char* kAxes[] = {"x", "y", "z"};
  AxisVerdict v;
  for (const auto& var : f.variants) {
    // The C++ side's own finding, whatever the Python side did; a variant the runtime stopped on
    // has no values.
    if (!var.cpp.ub.empty() && v.ubCount++ == 0) v.firstUb = absl::StrCat(var.name, ": ", var.cpp.ub);
    if (!var.cpp.ub.empty() && !var.cpp.ok && var.cpp.error.empty()) continue;
    if (!var.python.ok) {
      if (v.pyErrorCount++ < kShown) v.pyErrors.push_back(absl::StrCat(var.name, ": ", var.python.error));
      continue;
    }
    if (!var.notEvaluable.empty()) {
      if (v.unfedCount++ < kShown) v.unfed.push_back(absl::StrCat(var.name, ": ", var.notEvaluable));
      continue;
    }
    if (!var.cpp.ok && var.cpp.declined && !f.otherPaths.empty()) {
      if (v.declinedCount++ < kShown) v.declined.push_back(var.name);
      continue;
    }
    if (!var.cpp.ok) {
      if (v.throwCount++ < kShown) v.throws.push_back(absl::StrCat(var.name, ": ", var.cpp.error));
      continue;
    }
    const auto& py = grid ? var.python.grid : var.python.block;
    const auto& cc = grid ? var.cpp.grid : var.cpp.block;
    bool same = py.size() == cc.size();
    for (size_t i = 0; i < py.size() && i < cc.size() && i < 3; ++i)
      if (py[i] != cc[i]) {
        v.axes.insert(kAxes[i]);
        same = false;
      }
    if (same) {
      ++v.agree;
      continue;
    }
    if (v.disagree++ < kShown)
      v.examples.push_back(absl::StrCat(var.name, ": Python ", triple(py), ", C++ ", triple(cc)));
  }
  return v;
}

std::string more(size_t count, size_t shown) { return count > shown ? absl::StrCat(" and ", count - shown, " more") : ""; }

std::string variantsText(size_t n) { return absl::StrCat(n, n == 1 ? " shipped variant" : " shipped variants"); }

// The mismatch message of an axis group, "" when it agrees on every variant it could evaluate.
std::string mismatchText(const GeometryFamily& f, const AxisVerdict& v, const std::string& what) {
  std::vector<std::string> parts;
  if (v.disagree)
    parts.push_back(absl::StrCat(what, " axis ", absl::StrJoin(v.axes, ", "), " differs on ", variantsText(v.disagree),
                                 " of ", f.variants.size(), " (", absl::StrJoin(v.examples, "; "),
                                 more(v.disagree, v.examples.size()), ")"));
  if (v.throwCount)
    parts.push_back(absl::StrCat(f.headerFunction, " throws on ", variantsText(v.throwCount), " (",
                                 absl::StrJoin(v.throws, "; "), more(v.throwCount, v.throws.size()),
                                 "): prepare() cannot serve a shipped descriptor"));
  if (v.ubCount)
    parts.push_back(absl::StrCat(f.headerFunction, " has undefined behaviour on ", variantsText(v.ubCount), " (first: ",
                                 v.firstUb, "): the values it returned cannot be trusted"));
  if (parts.empty()) return "";
  return absl::StrCat("geometry: ", absl::StrJoin(parts, "; "), "; arguments: ", absl::StrJoin(f.plan, ", "));
}

// Why an axis group cannot be called agreeing ("" when every variant was evaluated on both sides).
std::string notCheckedText(const GeometryFamily& f, const AxisVerdict& v) {
  if (!f.notChecked.empty()) return f.notChecked;
  std::vector<std::string> parts;
  if (v.pyErrorCount)
    parts.push_back(absl::StrCat("Python raised on ", variantsText(v.pyErrorCount), " (", absl::StrJoin(v.pyErrors, "; "),
                                 more(v.pyErrorCount, v.pyErrors.size()), ")"));
  if (v.unfedCount)
    parts.push_back(absl::StrCat("the C++ side could not be fed ", variantsText(v.unfedCount), " (",
                                 absl::StrJoin(v.unfed, "; "), more(v.unfedCount, v.unfed.size()), ")"));
  if (v.declinedCount)
    parts.push_back(absl::StrCat(f.headerFunction, " declines ", variantsText(v.declinedCount), " (",
                                 absl::StrJoin(v.declined, "; "), more(v.declinedCount, v.declined.size()),
                                 "), which the pack may launch through ", absl::StrJoin(f.otherPaths, " or "),
                                 ": the profile names no Python/C++ pair for that path, so they are not compared"));
  if (f.variants.empty()) parts.push_back("no shipped variant");
  return absl::StrJoin(parts, "; ");
}

bool preexisting(const GeometryFamily& f, const GeometryDocument& doc, bool grid, const std::set<std::string>& changed) {
  for (const auto& b : doc.baseFamilies)
    if (b.manifest == f.manifest && b.module == f.module && b.header == f.header)
      return b.notChecked.empty() && geometryDisagrees(b, grid);
  for (const auto& p : f.inputs)
    if (changed.count(p)) return false;
  return true;
}

Row* findRow(std::vector<Row>& rows, const GeometryFamily& f, const std::string& name) {
  for (Row& r : rows)
    if (r.contract == "launch-surface:" + name && r.python.path == f.module && r.view.empty() &&
        (r.mirror.empty() || r.mirror.path == f.header))
      return &r;
  return nullptr;
}

}  // namespace

bool geometryDisagrees(const GeometryFamily& f, bool grid) {
  AxisVerdict v = judgeAxis(f, grid);
  return v.disagree > 0 || v.throwCount > 0 || v.ubCount > 0;
}

bool geometryDisagrees(const GeometryFamily& f) {
  return f.notChecked.empty() && (geometryDisagrees(f, true) || (!f.blockFunction.empty() && geometryDisagrees(f, false)));
}

GeometryOutcome foldGeometry(std::vector<Row>& rows, const GeometryDocument& doc, const std::set<std::string>& changedPaths) {
  GeometryOutcome out;
  for (const GeometryFamily& f : doc.families) {
    std::string fam = absl::StrCat(f.module, " <-> ", f.header, f.headerFunction.empty() ? "" : ":", f.headerFunction);
    std::vector<std::string> summary;
    for (bool grid : {true, false}) {
      const std::string& fn = grid ? f.gridFunction : f.blockFunction;
      if (fn.empty()) continue;
      const std::string name = grid ? "grid" : "block";
      AxisVerdict v = judgeAxis(f, grid);
      Row* r = findRow(rows, f, name);
      std::string mismatch = f.notChecked.empty() ? mismatchText(f, v, name) : "";
      if (!mismatch.empty()) {
        ++out.mismatches;
        summary.push_back(absl::StrCat(name, " MISMATCH"));
        if (!r) {
          Row added;
          added.contract = "launch-surface:" + name;
          added.key = absl::StrCat("launch-surface|", f.manifest, "|", name, "|geometry");
          added.python = Location{f.module, 0, fn, {}, {}};
          added.mirror = Location{f.header, 0, f.headerFunction, {}, {}};
          added.archs = f.archs;
          rows.push_back(std::move(added));
          r = &rows.back();
        }
        r->preexisting = preexisting(f, doc, grid, changedPaths);
        r->status = Status::Mismatch;
        r->message = absl::StrCat(r->message.empty() ? "" : r->message + "; ", mismatch,
                                  r->preexisting ? " (already so at the base)" : "");
        continue;
      }
      if (std::string why = notCheckedText(f, v); !why.empty()) {
        ++out.notChecked;
        summary.push_back(absl::StrCat(name, " not checked: ", why));
        if (r && r->status == Status::Changed)
          r->message = absl::StrCat(r->message.empty() ? "" : r->message + "; ", "geometry not checked: ", why);
        continue;
      }
      summary.push_back(absl::StrCat(name, " agrees on all ", variantsText(v.agree)));
      if (r && r->status == Status::Changed) {
        r->status = Status::Inert;
        r->message = absl::StrCat(r->message.empty() ? "" : r->message + "; ", "geometry: ", fn, " and ",
                                  f.headerFunction, " agree on every axis for all ", variantsText(v.agree));
        ++out.folded;
      }
    }
    if (f.notChecked.empty() && !f.noUbsan.empty()) summary.push_back("UBSan not available: " + f.noUbsan);
    out.notes.push_back(absl::StrCat("geometry: ", fam, ": ", absl::StrJoin(summary, "; ")));
  }
  return out;
}

}  // namespace impact::emit
