// C++ half of extraction (DOMAIN.md §3): runs the first pass (Context), then each extractor of
// this folder, and keeps the lists in source order.
#include "extract/CppFacts.h"

#include <algorithm>
#include <tuple>

#include "extract/cpp/CatalogBindings.h"
#include "extract/cpp/Context.h"
#include "extract/cpp/EngineRegistrations.h"
#include "extract/cpp/LambdaIdiom.h"
#include "extract/cpp/LaunchCalls.h"
#include "extract/cpp/NameKeyedChecks.h"
#include "extract/cpp/NamesArrays.h"
#include "extract/cpp/StaticLists.h"
#include "extract/cpp/SymbolsAndKmdReads.h"

namespace impact {
namespace {

bool before(const SourceRange& a, const SourceRange& b) {
  return std::tie(a.line, a.col, a.endLine, a.endCol) < std::tie(b.line, b.col, b.endLine, b.endCol);
}

}  // namespace

void extractCpp(const SyntaxTree& tree, FileFacts& out) {
  try {
    if (ts_node_is_null(tree.root())) return;
    cpp::Ctx c(tree);
    cpp::collect(c);
    std::vector<CppArgList> lists;
    cpp::extractStatic(c, lists, out.setAside);
    cpp::extractLambdas(c, lists);
    cpp::extractLaunches(c, lists);
    cpp::extractNameKeyed(c, lists);
    std::stable_sort(lists.begin(), lists.end(),
                     [](const CppArgList& a, const CppArgList& b) { return before(a.range, b.range); });
    for (auto& l : lists) out.lists.push_back(std::move(l));
    cpp::extractNamesArrays(c, out.nameArrays, out.setAside);
    cpp::extractSymbols(c, out.symbols);
    cpp::extractEngineRegistrations(c, out.symbols.engineRegistrations);
    cpp::extractBindings(c, out.bindingSets, out.opKinds);
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
