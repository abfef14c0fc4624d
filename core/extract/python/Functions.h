// The functions of a module: module level, under module-level if/try/with/for, and methods
// ("Class.method").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parse/Syntax.h"

namespace impact::pyextract {

struct Fn {
  std::string name;   // "build_x" or "Class.method"
  std::string bare;   // "build_x" / "method"
  std::string cls;    // "" or "Class" (qualified for nested classes)
  TSNode def, nameNode;
};

void collectFunctions(const SyntaxTree& t, TSNode n, const std::string& cls, std::vector<Fn>& out, int depth);

}  // namespace impact::pyextract
