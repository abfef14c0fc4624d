#include "extract/CppFacts.h"

namespace impact {
void extractCpp(const SyntaxTree& tree, FileFacts& out) {}
}  // namespace impact
