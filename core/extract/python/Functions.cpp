#include "extract/python/Functions.h"
#include "extract/python/Nodes.h"

#include "extract/python/Limits.h"

namespace impact::pyextract {

void collectFunctions(const SyntaxTree& t, TSNode n, const std::string& cls, std::vector<Fn>& out, int depth) {
  if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
  for (TSNode ch : namedChildren(n)) {
    std::string_view ty = type(ch);
    if (ty == "decorated_definition") {
      TSNode d = field(ch, "definition");
      if (!ts_node_is_null(d)) ch = d, ty = type(ch);
    }
    if (ty == "function_definition") {
      TSNode nm = field(ch, "name");
      if (ts_node_is_null(nm)) continue;
      std::string bare(t.text(nm));
      out.push_back(Fn{cls.empty() ? bare : cls + "." + bare, bare, cls, ch, nm});
    } else if (ty == "class_definition") {
      TSNode nm = field(ch, "name");
      std::string c(t.text(nm));
      collectFunctions(t, field(ch, "body"), cls.empty() ? c : cls + "." + c, out, depth + 1);
    } else if (ty == "if_statement" || ty == "try_statement" || ty == "with_statement" || ty == "for_statement" ||
               ty == "while_statement" || ty == "block" || ty == "elif_clause" || ty == "else_clause" ||
               ty == "except_clause" || ty == "except_group_clause" || ty == "finally_clause" || ty == "ERROR" ||
               ty == "match_statement" || ty == "case_clause") {
      collectFunctions(t, ch, cls, out, depth + 1);
    }
  }
}

}  // namespace impact::pyextract
