#include "extract/CppFunctions.h"

#include <string>

namespace impact {

namespace {

constexpr int kMaxDepth = 300;

std::string declaredName(const SyntaxTree& t, TSNode d, int depth) {
  if (ts_node_is_null(d) || depth > 32) return "";
  std::string_view ty = type(d);
  if (ty == "function_declarator") {
    TSNode inner = field(d, "declarator");
    if (ts_node_is_null(inner)) return "";
    std::string_view it = type(inner);
    if (it == "identifier" || it == "field_identifier" || it == "qualified_identifier" || it == "destructor_name" ||
        it == "operator_name" || it == "template_function")
      return std::string(t.text(inner));
    return declaredName(t, inner, depth + 1);
  }
  if (ty == "pointer_declarator" || ty == "reference_declarator" || ty == "parenthesized_declarator" ||
      ty == "attributed_declarator")
  {
    TSNode inner = field(d, "declarator");
    if (ts_node_is_null(inner) && ts_node_named_child_count(d) > 0) inner = ts_node_named_child(d, 0);
    return declaredName(t, inner, depth + 1);
  }
  for (TSNode c : namedChildren(d))
    if (is(c, "function_declarator")) return declaredName(t, c, depth + 1);
  return "";
}

std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
  return out;
}

void walkDefs(const SyntaxTree& t, TSNode n, const std::string& cls, FileFacts& out, int depth) {
  if (ts_node_is_null(n) || depth > kMaxDepth) return;
  for (TSNode c : namedChildren(n)) {
    std::string_view ty = type(c);
    if (ty == "function_definition") {
      std::string name = squeeze(declaredName(t, field(c, "declarator"), 0));
      if (!name.empty()) {
        PyDef d;
        d.kind = PyDef::Kind::Function;
        d.name = cls.empty() ? name : cls + "::" + name;
        TSPoint a = ts_node_start_point(c), b = ts_node_end_point(c);
        d.range = PyRange{a.row, a.column, b.row, b.column};
        d.nameLine = a.row;
        d.fingerprint = codeFingerprint(t, c);
        out.module.defs.push_back(std::move(d));
      }
      continue;  // lambdas and local classes inside a body are not listed
    }
    if (ty == "class_specifier" || ty == "struct_specifier" || ty == "union_specifier") {
      TSNode nm = field(c, "name");
      std::string sub = ts_node_is_null(nm) ? cls : squeeze(t.text(nm));
      if (!cls.empty() && !ts_node_is_null(nm)) sub = cls + "::" + sub;
      walkDefs(t, field(c, "body"), sub, out, depth + 1);
      continue;
    }
    walkDefs(t, c, cls, out, depth + 1);
  }
}

}  // namespace

void extractCppFunctions(const SyntaxTree& tree, FileFacts& out) {
  try {
    walkDefs(tree, tree.root(), "", out, 0);
  } catch (...) {
  }
}

bool cppSymbolMatches(const std::string& defined, const std::string& wanted) {
  std::string w = squeeze(wanted);
  while (w.size() > 2 && w.ends_with("()")) w.resize(w.size() - 2);
  if (w.empty()) return false;
  if (defined == w) return true;
  return defined.size() > w.size() && defined.ends_with(w) && defined.compare(defined.size() - w.size() - 2, 2, "::") == 0;
}

}  // namespace impact
