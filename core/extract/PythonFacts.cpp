#include "extract/PythonFacts.h"

namespace impact {
void extractPython(const SyntaxTree& tree, FileFacts& out) {}
}  // namespace impact
