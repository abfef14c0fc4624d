// C++ half of extraction (DOMAIN.md §3): runs the first pass (Context), then each extractor of
// this folder, and keeps the lists in source order.
#include "extract/CppFacts.h"

#include <algorithm>
#include <tuple>

#include "absl/strings/str_cat.h"

#include "extract/cpp/CatalogBindings.h"
#include "extract/cpp/Context.h"
#include "extract/cpp/EngineRegistrations.h"
#include "extract/cpp/LambdaIdiom.h"
#include "extract/cpp/LaunchCalls.h"
#include "extract/cpp/Macros.h"
#include "extract/cpp/NameKeyedChecks.h"
#include "extract/cpp/NamesArrays.h"
#include "extract/cpp/StaticLists.h"
#include "extract/cpp/SymbolsAndKmdReads.h"

namespace impact {
namespace {

bool before(const SourceRange& a, const SourceRange& b) {
  return std::tie(a.line, a.col, a.endLine, a.endCol) < std::tie(b.line, b.col, b.endLine, b.endCol);
}

std::string failureText(const cpp::MacroSite& s) {
  return absl::StrCat("not read: macro ", s.macro, " (line ", s.range.line + 1, "): ", s.failure);
}

bool linesCover(const SourceRange& r, uint32_t line) { return r.line <= line && line <= r.endLine; }

// An invocation of the file's macros that could not be expanded, where it builds KernelArguments,
// is never silence (issue 36 item 3): inside an element, that element's reason; inside a function
// that appends, the list is open there; anywhere else, a copy of its own that says it was not read
// (no arguments, open from the first: accounted as not compared).
void recordMacroFailures(const cpp::Ctx& c, const cpp::MacroExpansion& mx, std::vector<CppArgList>& lists) {
  for (const cpp::MacroSite& s : mx.sites) {
    if (s.failure.empty() || !s.kernelArgument) continue;
    const std::string what = failureText(s);
    bool placed = false;
    for (const CppArgList& l : lists) placed = placed || l.openTail.find(what) != std::string::npos;
    for (CppArgList& l : lists)
      for (KernelArg& a : l.args)
        if (!placed && linesCover(a.range, s.range.line) && l.form != CppArgList::Form::Launch) {
          a.resolved = false;
          a.unresolvedReason += (a.unresolvedReason.empty() ? "" : "; ") + what;
          placed = true;
        }
    if (placed) continue;
    int f = -1;
    for (size_t i = 0; i < c.functions.size(); ++i)
      if (linesCover(rangeOf(c.functions[i].node), s.range.line)) f = static_cast<int>(i);
    const std::string symbol = f < 0 ? "" : cpp::functionName(c, c.functions[f].node);
    for (CppArgList& l : lists) {
      if (placed || f < 0 || l.form != CppArgList::Form::Lambda || l.symbol != symbol) continue;
      size_t known = 0;
      while (known < l.args.size() && before(l.args[known].range, s.range)) ++known;
      if (l.openTail.empty() || known < l.args.size()) {
        l.args.resize(known);
        l.openTail = absl::StrCat("the arguments from #", known + 1, " on: ", what);
        l.openBefore = true;
      }
      placed = true;
    }
    if (placed || !s.standalone) continue;
    CppArgList l;
    l.form = CppArgList::Form::Static;
    l.symbol = symbol;
    l.range = s.range;
    l.openTail = what;
    l.fingerprint = f < 0 ? 0 : codeFingerprint(c.tree, c.functions[f].node);
    lists.push_back(std::move(l));
  }
}

// An `#if` arm not decided with elements of a list inside it, the list starting outside it (issue
// 36 item 3): the list is open from its first such element, saying which directive (a list that
// starts inside an arm is read as that arm's own copy).
void openAtUndecidedArms(const cpp::MacroExpansion& mx, std::vector<CppArgList>& lists) {
  for (CppArgList& l : lists) {
    size_t cut = l.args.size();
    const cpp::UndecidedArm* which = nullptr;
    for (const cpp::UndecidedArm& arm : mx.undecided) {
      if (arm.line <= l.range.line && l.range.line <= arm.lastLine) continue;  // the list starts inside it
      for (size_t k = 0; k < cut; ++k)
        if (l.args[k].range.line >= arm.firstLine && l.args[k].range.line <= arm.lastLine) {
          cut = k;
          which = &arm;
          break;
        }
    }
    if (!which) continue;
    l.args.resize(cut);
    l.openTail = absl::StrCat("the arguments from #", cut + 1, " on: ", which->why);
    l.openBefore = true;
  }
}

void mapRanges(const cpp::MacroExpansion& mx, std::vector<CppArgList>& lists) {
  for (CppArgList& l : lists) {
    mx.mapBack(l.range);
    for (KernelArg& a : l.args) mx.mapBack(a.range);
  }
}

}  // namespace

void extractCpp(const SyntaxTree& file, FileFacts& out, const cpp::HeaderReader* headers) {
  try {
    if (ts_node_is_null(file.root())) return;
    // The file's own macros expanded first (lines kept); the lists are read from the expansion.
    cpp::MacroExpansion mx = cpp::expandMacros(file, headers);
    const SyntaxTree& tree = mx.tree ? *mx.tree : file;
    if (mx.tree) {
      out.error = tree.firstError();
      out.ok = out.error.empty();
    }
    // The expansion's types are this tree's when nothing was expanded (walked once for both).
    cpp::Ctx c(tree, mx.tree ? nullptr : mx.types);
    if (mx.tree || !mx.types) c.types.seed(mx.headerAliases);
    for (const cpp::MacroSite& s : mx.sites)
      if (!s.failure.empty() && s.kernelArgument) c.unexpanded[s.range.line] = {s.macro, failureText(s)};
    cpp::collect(c);
    std::vector<CppArgList> lists;
    cpp::extractStatic(c, lists, out.setAside);
    cpp::extractLambdas(c, lists, out.setAside);
    cpp::extractLaunches(c, lists);
    cpp::extractNameKeyed(c, lists);
    mapRanges(mx, lists);
    openAtUndecidedArms(mx, lists);
    recordMacroFailures(c, mx, lists);
    std::stable_sort(lists.begin(), lists.end(),
                     [](const CppArgList& a, const CppArgList& b) { return before(a.range, b.range); });
    for (auto& l : lists) {
      l.readThrough = mx.headersRead;
      out.lists.push_back(std::move(l));
    }
    cpp::extractNamesArrays(c, out.nameArrays, out.setAside);
    cpp::extractSymbols(c, out.symbols);
    cpp::extractEngineRegistrations(c, out.symbols.engineRegistrations);
    cpp::extractBindings(c, out.bindingSets, out.opKinds);
    mapRanges(mx, out.nameArrays);
    for (SetAside& s : out.setAside) mx.mapBack(s.range);
    for (BindingSet& b : out.bindingSets) {
      mx.mapBack(b.range);
      for (NameBinding& n : b.bindings) mx.mapBack(n.range);
    }
  } catch (const std::exception& e) {
    if (out.ok) {
      out.ok = false;
      out.error = std::string("C++ extraction failed: ") + e.what();
    }
  } catch (...) {
    if (out.ok) {
      out.ok = false;
      out.error = "C++ extraction failed";
    }
  }
}

}  // namespace impact
