// The Python extractor's entry: the builders of a module and its module facts.
#include "extract/PythonFacts.h"

#include <iterator>

#include "extract/python/ModuleBuilders.h"
#include "extract/python/ModuleSymbols.h"
#include "extract/python/NameLists.h"
#include "extract/python/Nodes.h"

namespace impact {

void extractPython(const SyntaxTree& tree, FileFacts& out) {
  pyextract::ChildListing listing;  // every walk below lists a node's children once
  try {
    std::vector<PyBuilder> found;
    std::vector<CppArgList> copies;
    pyextract::extractBuilders(tree, found, copies);
    out.builders.insert(out.builders.end(), std::make_move_iterator(found.begin()),
                        std::make_move_iterator(found.end()));
    out.lists.insert(out.lists.end(), std::make_move_iterator(copies.begin()), std::make_move_iterator(copies.end()));
  } catch (...) {
    // Extraction must never throw: keep whatever was appended before the failure.
  }
  try {
    pyextract::extractModuleSymbols(tree, out.module);
  } catch (...) {
  }
  try {
    pyextract::evaluateNameLists(tree, out.nameLists);
  } catch (...) {
  }
}

}  // namespace impact
