#include "extract/python/ModuleSymbols.h"
#include "extract/python/Nodes.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "extract/python/Limits.h"

namespace impact::pyextract {
namespace {

PyRange pyRange(TSNode n) {
  TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
  return PyRange{a.row, a.column, b.row, b.column};
}

bool isTargetContainer(std::string_view ty) {
  return ty == "pattern_list" || ty == "tuple_pattern" || ty == "list_pattern" || ty == "tuple" || ty == "list" ||
         ty == "parenthesized_expression" || ty == "expression_list" || ty == "list_splat_pattern" ||
         ty == "list_splat" || ty == "as_pattern_target";
}

class ModuleFactsBuilder {
 public:
  ModuleFactsBuilder(const SyntaxTree& t, PyModuleFacts& out) : t_(t), out_(out) {}

  void run() { statements(t_.root(), 0); }

 private:
  const SyntaxTree& t_;
  PyModuleFacts& out_;
  std::set<std::string> moduleRefSeen_;
  // While a def's parameters and body are read: its annotated parameters (name -> type chain)
  // and where reads on them go.
  std::map<std::string, std::string> typed_;
  std::vector<PyTypedRead>* typedOut_ = nullptr;
  bool inMethod_ = false;  // reading a method's parameters and body
  const std::string* importsOf_ = nullptr;  // collectLocals records imports for this function
  int importsDepth_ = 0;

  // The type an annotation names as a chain: `Spec`, `m.Spec`, `"Spec"`; "" for anything else
  // (Optional[...], unions: the receiver's type is then not known).
  std::string annotationChain(TSNode type) const {
    if (ts_node_is_null(type)) return "";
    TSNode e = type;
    if (is(e, "type") && ts_node_named_child_count(e) == 1) e = ts_node_named_child(e, 0);
    if (is(e, "identifier") || is(e, "attribute")) return chainOf(e);
    if (is(e, "string")) {
      std::string inner;
      for (TSNode c : namedChildren(e))
        if (is(c, "string_content")) inner += str(c);
      if (inner.empty()) return "";
      for (char c : inner)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return "";
      return inner;
    }
    return "";
  }

  std::map<std::string, std::string> annotatedParameters(TSNode params) const {
    std::map<std::string, std::string> out;
    for (TSNode p : namedChildren(params)) {
      TSNode nm{};
      if (is(p, "typed_default_parameter")) nm = field(p, "name");
      else if (is(p, "typed_parameter"))
        for (TSNode c : namedChildren(p))
          if (is(c, "identifier")) { nm = c; break; }
      if (!is(nm, "identifier")) continue;
      std::string type = annotationChain(field(p, "type"));
      if (!type.empty()) out[str(nm)] = type;
    }
    return out;
  }

  // A read on an annotated parameter (`spec.batch` with `spec: AttentionDenseSpec`): recorded
  // with its type. False when the chain's root is no annotated parameter.
  bool typedRead(const std::string& chain) {
    if (!typedOut_) return false;
    auto dot = chain.find('.');
    auto it = typed_.find(chain.substr(0, dot));
    if (dot == std::string::npos || it == typed_.end()) return false;
    auto end = chain.find('.', dot + 1);
    PyTypedRead r{it->first, it->second, chain.substr(dot + 1, end == std::string::npos ? std::string::npos : end - dot - 1)};
    if (std::find(typedOut_->begin(), typedOut_->end(), r) == typedOut_->end()) typedOut_->push_back(std::move(r));
    return true;
  }

  std::string str(TSNode n) const { return std::string(t_.text(n)); }

  // Statements of the module's top level (and of module-level if/try/with/for/while bodies).
  void statements(TSNode n, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    for (TSNode ch : namedChildren(n)) statement(ch, depth + 1);
  }

  void statement(TSNode ch, int depth) {
    if (depth > kMaxVisitDepth) return;
    std::string_view ty = type(ch);
    TSNode outer = ch;
    if (ty == "decorated_definition") {
      TSNode d = field(ch, "definition");
      if (ts_node_is_null(d)) return;
      ch = d;
      ty = type(ch);
    }
    if (ty == "function_definition") {
      addFunction(ch, outer, "", depth);
    } else if (ty == "class_definition") {
      addClass(ch, outer, "", depth);
    } else if (ty == "import_statement" || ty == "import_from_statement" || ty == "future_import_statement") {
      addImports(ch, "");
    } else if (ty == "expression_statement" && assignmentOf(ch)) {
      addAssign(ch, "", depth);
    } else if (ty == "if_statement" || ty == "elif_clause" || ty == "while_statement") {
      moduleRefs(field(ch, "condition"));
      for (TSNode c : namedChildren(ch))
        if (is(c, "block") || is(c, "elif_clause") || is(c, "else_clause")) statement(c, depth + 1);
    } else if (ty == "for_statement") {
      moduleRefs(field(ch, "right"));
      statement(field(ch, "body"), depth + 1);
      TSNode alt = field(ch, "alternative");
      if (!ts_node_is_null(alt)) statement(alt, depth + 1);
    } else if (ty == "with_statement") {
      for (TSNode c : namedChildren(ch)) {
        if (is(c, "with_clause")) moduleRefs(c);
        else if (is(c, "block")) statement(c, depth + 1);
      }
    } else if (ty == "try_statement" || ty == "block" || ty == "else_clause" || ty == "finally_clause" ||
               ty == "except_clause" || ty == "except_group_clause" || ty == "ERROR" || ty == "match_statement" ||
               ty == "case_clause") {
      for (TSNode c : namedChildren(ch)) {
        std::string_view ct = type(c);
        if (ct == "block" || ct == "except_clause" || ct == "except_group_clause" || ct == "else_clause" ||
            ct == "finally_clause" || ct == "case_clause" || ct == "ERROR" || ct == "function_definition" ||
            ct == "class_definition" || ct == "decorated_definition" || ct == "expression_statement" ||
            ct == "import_statement" || ct == "import_from_statement" || ct == "if_statement" ||
            ct == "try_statement" || ct == "with_statement" || ct == "for_statement")
          statement(c, depth + 1);
        else if (ct != "comment")
          moduleRefs(c);
      }
    } else if (ty != "comment") {
      moduleRefs(ch);
    }
  }

  static bool assignmentOf(TSNode stmt) { return !ts_node_is_null(assignmentOfNode(stmt)); }
  static TSNode assignmentOfNode(TSNode stmt) {
    for (TSNode c : namedChildren(stmt))
      if (is(c, "assignment")) return c;
    return TSNode{};
  }

  void moduleRefs(TSNode n) {
    if (ts_node_is_null(n)) return;
    std::vector<std::string> refs;
    std::set<std::string> seen;
    collectRefs(n, {}, refs, seen, nullptr, 0);
    for (auto& r : refs)
      if (moduleRefSeen_.insert(r).second) out_.moduleRefs.push_back(r);
  }

  // Leaves in order, comments skipped; a space after each comma.
  void leaves(TSNode n, int d, std::string& out) const {
    if (d > 200) return;
    if (is(n, "comment")) return;
    uint32_t cc = ts_node_child_count(n);
    if (cc == 0 || is(n, "string")) {
      std::string_view text = t_.text(n);
      out += text;
      if (text == ",") out += ' ';
      return;
    }
    for (uint32_t i = 0; i < cc; ++i) leaves(ts_node_child(n, i), d + 1, out);
  }

  std::string paramsText(TSNode params) const {
    if (ts_node_is_null(params)) return "";
    std::string out;
    leaves(params, 0, out);
    // "(a, b, )" -> "(a, b,)"
    std::string clean;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] == ' ' && i + 1 < out.size() && out[i + 1] == ')') continue;
      clean += out[i];
    }
    return clean;
  }

  // Names bound inside a definition (parameters, assignment targets, loop and with targets,
  // nested defs); `global`/`nonlocal` names are not local. While importsOf_ is set, the imports
  // met (not nested in one another) are recorded for that function, as deep as the statement
  // walk reaches (importsDepth_: the body's depth in it).
  void collectLocals(TSNode n, std::set<std::string>& locals, std::set<std::string>& globals, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    std::string_view ty = type(n);
    auto targets = [&](TSNode x) { bindTargets(x, locals, 0); };
    if (ty == "parameters" || ty == "lambda_parameters") {
      for (TSNode p : namedChildren(n)) {
        if (is(p, "identifier")) locals.insert(str(p));
        else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
          TSNode nm = field(p, "name");
          if (is(nm, "identifier")) locals.insert(str(nm));
          collectLocals(field(p, "value"), locals, globals, depth + 1);
        } else {
          for (TSNode c : namedChildren(p)) {
            if (is(c, "identifier")) { locals.insert(str(c)); break; }
            if (is(c, "list_splat_pattern") || is(c, "dictionary_splat_pattern"))
              for (TSNode g : namedChildren(c))
                if (is(g, "identifier")) locals.insert(str(g));
          }
          if (is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern"))
            for (TSNode g : namedChildren(p))
              if (is(g, "identifier")) locals.insert(str(g));
        }
      }
      return;
    }
    if (ty == "assignment" || ty == "augmented_assignment") targets(field(n, "left"));
    else if (ty == "for_statement" || ty == "for_in_clause") targets(field(n, "left"));
    else if (ty == "named_expression") targets(field(n, "name"));
    else if (ty == "as_pattern") targets(field(n, "alias"));
    else if (ty == "function_definition" || ty == "class_definition") {
      TSNode nm = field(n, "name");
      if (is(nm, "identifier")) locals.insert(str(nm));
    } else if (ty == "global_statement" || ty == "nonlocal_statement") {
      for (TSNode c : namedChildren(n))
        if (is(c, "identifier")) globals.insert(str(c));
      return;
    } else if (ty == "except_clause" || ty == "except_group_clause") {
      bool afterAs = false;
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) && t_.text(c) == "as") afterAs = true;
        else if (afterAs && is(c, "identifier")) { locals.insert(str(c)); afterAs = false; }
      }
    } else if (ty == "import_statement" || ty == "import_from_statement") {
      // Function-level imports are resolved by the graph (PyImport::function): recorded in this
      // walk of the body (one walk for locals and imports).
      if (importsOf_ && depth + importsDepth_ <= kMaxVisitDepth) addImports(n, *importsOf_);
      return;
    }
    for (TSNode c : namedChildren(n)) collectLocals(c, locals, globals, depth + 1);
  }

  void bindTargets(TSNode x, std::set<std::string>& locals, int depth) {
    if (depth > 32 || ts_node_is_null(x)) return;
    if (is(x, "identifier")) { locals.insert(str(x)); return; }
    if (isTargetContainer(type(x)))
      for (TSNode c : namedChildren(x)) bindTargets(c, locals, depth + 1);
  }

  // The dotted chain of an attribute expression rooted at a name ("a.b.c"), or "".
  std::string chainOf(TSNode n, int depth = 0) const {
    if (depth > 64) return "";
    if (is(n, "identifier")) return str(n);
    if (is(n, "attribute")) {
      std::string o = chainOf(field(n, "object"), depth + 1);
      TSNode a = field(n, "attribute");
      if (o.empty() || ts_node_is_null(a)) return "";
      return o + "." + str(a);
    }
    return "";
  }

  // Names used under n: identifiers in load position not in `locals`, attribute chains rooted
  // at such a name (or at self/cls), each once. Attribute names read on other receivers go to
  // `members` when given.
  void collectRefs(TSNode n, const std::set<std::string>& locals, std::vector<std::string>& refs,
                   std::set<std::string>& seen, std::vector<std::string>* members, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(n)) return;
    std::string_view ty = type(n);
    auto add = [&](std::string s) {
      if (!s.empty() && seen.insert(s).second) refs.push_back(std::move(s));
    };
    auto member = [&](TSNode attr) {
      if (!members || ts_node_is_null(attr)) return;
      std::string a = str(attr);
      if (std::find(members->begin(), members->end(), a) == members->end()) members->push_back(a);
    };
    if (ty == "comment" || ty == "string" || ty == "concatenated_string" || ty == "import_statement" ||
        ty == "import_from_statement" || ty == "future_import_statement" || ty == "global_statement" ||
        ty == "nonlocal_statement")
      return;
    if (ty == "identifier") {
      std::string s = str(n);
      if (!locals.count(s)) add(s);
      return;
    }
    if (ty == "attribute") {
      std::string chain = chainOf(n);
      if (!chain.empty()) {
        std::string root = chain.substr(0, chain.find('.'));
        if (!locals.count(root) || root == "self" || root == "cls") add(chain);
        else if (!typedRead(chain) || std::count(chain.begin(), chain.end(), '.') > 1) member(field(n, "attribute"));
        // In a method, self/cls has its class's type: the chain is traced through the class.
        if ((root == "self" || root == "cls") && !inMethod_) member(field(n, "attribute"));
        return;
      }
      member(field(n, "attribute"));
      collectRefs(field(n, "object"), locals, refs, seen, members, depth + 1);
      return;
    }
    if (ty == "keyword_argument") {
      collectRefs(field(n, "value"), locals, refs, seen, members, depth + 1);
      return;
    }
    if (ty == "function_definition" || ty == "class_definition") {
      for (TSNode c : namedChildren(n)) {
        if (ts_node_eq(c, field(n, "name"))) continue;
        collectRefs(c, locals, refs, seen, members, depth + 1);
      }
      return;
    }
    if (ty == "parameters" || ty == "lambda_parameters") {
      for (TSNode p : namedChildren(n)) {
        if (is(p, "default_parameter") || is(p, "typed_default_parameter"))
          collectRefs(field(p, "value"), locals, refs, seen, members, depth + 1);
        if (is(p, "typed_parameter") || is(p, "typed_default_parameter"))
          collectRefs(field(p, "type"), locals, refs, seen, members, depth + 1);
      }
      return;
    }
    for (TSNode c : namedChildren(n)) collectRefs(c, locals, refs, seen, members, depth + 1);
  }

  void addImports(TSNode n, const std::string& function) {
    uint32_t line = ts_node_start_point(n).row;
    if (is(n, "import_statement")) {
      for (TSNode ch : namedChildren(n)) {
        PyImport im;
        im.function = function;
        im.line = line;
        if (is(ch, "dotted_name")) {
          im.module = str(ch);
          im.alias = im.module.substr(0, im.module.find('.'));
        } else if (is(ch, "aliased_import")) {
          im.module = str(field(ch, "name"));
          im.alias = str(field(ch, "alias"));
        } else {
          continue;
        }
        out_.imports.push_back(std::move(im));
      }
      return;
    }
    TSNode mod = field(n, "module_name");
    std::string from = is(n, "future_import_statement") ? "__future__" : str(mod);
    from.erase(std::remove_if(from.begin(), from.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
               from.end());
    for (TSNode ch : namedChildren(n)) {
      if (!ts_node_is_null(mod) && ts_node_eq(ch, mod)) continue;
      PyImport im;
      im.module = from;
      im.function = function;
      im.line = line;
      if (is(ch, "wildcard_import")) {
        im.name = "*";
      } else if (is(ch, "dotted_name")) {
        im.name = str(ch);
        im.alias = im.name;
      } else if (is(ch, "aliased_import")) {
        im.name = str(field(ch, "name"));
        im.alias = str(field(ch, "alias"));
      } else {
        continue;
      }
      out_.imports.push_back(std::move(im));
    }
  }

  void addFunction(TSNode def, TSNode outer, const std::string& cls, int depth) {
    TSNode nm = field(def, "name");
    if (ts_node_is_null(nm)) return;
    PyDef d;
    d.kind = cls.empty() ? PyDef::Kind::Function : PyDef::Kind::Method;
    d.name = cls.empty() ? str(nm) : cls + "." + str(nm);
    d.params = paramsText(field(def, "parameters"));
    d.range = pyRange(outer);
    d.nameLine = ts_node_start_point(nm).row;
    d.fingerprint = codeFingerprint(t_, outer);
    std::set<std::string> locals, globals, seen;
    collectLocals(field(def, "parameters"), locals, globals, 0);
    importsOf_ = &d.name;
    importsDepth_ = depth + 1;
    collectLocals(field(def, "body"), locals, globals, 0);
    importsOf_ = nullptr;
    for (const auto& g : globals) locals.erase(g);
    std::vector<std::string> members;
    if (!ts_node_eq(outer, def))
      for (TSNode c : namedChildren(outer))
        if (is(c, "decorator")) collectRefs(c, {}, d.refs, seen, nullptr, 0);
    typed_ = annotatedParameters(field(def, "parameters"));
    for (auto it = typed_.begin(); it != typed_.end();)
      it = it->first == "self" || it->first == "cls" ? typed_.erase(it) : std::next(it);
    typedOut_ = &d.typedReads;
    inMethod_ = !cls.empty();
    collectRefs(field(def, "parameters"), locals, d.refs, seen, &members, 0);
    collectRefs(field(def, "return_type"), {}, d.refs, seen, nullptr, 0);
    collectRefs(field(def, "body"), locals, d.refs, seen, &members, 0);
    typedOut_ = nullptr;
    inMethod_ = false;
    typed_.clear();
    d.members = std::move(members);
    out_.defs.push_back(std::move(d));
  }

  void addClass(TSNode def, TSNode outer, const std::string& prefix, int depth) {
    if (depth > kMaxVisitDepth) return;
    TSNode nm = field(def, "name");
    if (ts_node_is_null(nm)) return;
    std::string name = prefix.empty() ? str(nm) : prefix + "." + str(nm);
    PyDef d;
    d.kind = PyDef::Kind::Class;
    d.name = name;
    d.range = pyRange(outer);
    d.nameLine = ts_node_start_point(nm).row;
    d.fingerprint = codeFingerprint(t_, outer);
    std::set<std::string> seen;
    if (!ts_node_eq(outer, def))
      for (TSNode c : namedChildren(outer))
        if (is(c, "decorator")) collectRefs(c, {}, d.refs, seen, nullptr, 0);
    TSNode supers = field(def, "superclasses");
    if (!ts_node_is_null(supers)) {
      for (TSNode b : namedChildren(supers)) {
        if (is(b, "keyword_argument") || is(b, "comment")) {
          collectRefs(b, {}, d.refs, seen, nullptr, 0);
          continue;
        }
        std::string c = chainOf(b);
        d.bases.push_back(c.empty() ? str(b) : c);
        collectRefs(b, {}, d.refs, seen, nullptr, 0);
      }
    }
    // The class body: members are their own defs; other statements are the class's refs.
    TSNode body = field(def, "body");
    size_t at = out_.defs.size();
    out_.defs.push_back(std::move(d));
    classBody(body, name, at, seen, depth + 1);
  }

  void classBody(TSNode body, const std::string& cls, size_t at, std::set<std::string>& seen, int depth) {
    if (depth > kMaxVisitDepth || ts_node_is_null(body)) return;
    for (TSNode ch : namedChildren(body)) {
      TSNode outer = ch, d = ch;
      if (is(ch, "decorated_definition")) d = field(ch, "definition");
      if (ts_node_is_null(d)) continue;
      if (is(d, "function_definition")) addFunction(d, outer, cls, depth);
      else if (is(d, "class_definition")) addClass(d, outer, cls, depth);
      else if (is(ch, "expression_statement") && !ts_node_is_null(assignmentOfNode(ch))) addAssign(ch, cls, depth);
      else if (is(ch, "if_statement") || is(ch, "try_statement") || is(ch, "with_statement") || is(ch, "block") ||
               is(ch, "else_clause") || is(ch, "elif_clause") || is(ch, "except_clause") || is(ch, "finally_clause")) {
        classBody(ch, cls, at, seen, depth + 1);
      } else if (is(ch, "import_statement") || is(ch, "import_from_statement")) {
        addImports(ch, cls);
      } else if (!is(ch, "comment")) {
        std::vector<std::string> refs;
        collectRefs(ch, {}, refs, seen, nullptr, 0);
        auto& r = out_.defs[at].refs;
        r.insert(r.end(), refs.begin(), refs.end());
      }
    }
  }

  void addAssign(TSNode stmt, const std::string& cls, int depth) {
    TSNode a = assignmentOfNode(stmt);
    if (ts_node_is_null(a)) return;
    std::vector<TSNode> lefts;
    TSNode value = a;
    int guard = 0;
    while (is(value, "assignment") && guard++ < 64) {
      lefts.push_back(field(value, "left"));
      value = field(value, "right");
    }
    std::set<std::string> names;
    for (TSNode l : lefts) bindTargets(l, names, 0);
    std::vector<std::string> refs;
    std::set<std::string> seen;
    collectRefs(value, {}, refs, seen, nullptr, 0);
    collectRefs(field(a, "type"), {}, refs, seen, nullptr, 0);
    uint64_t fp = codeFingerprint(t_, stmt);
    std::string alias = chainOf(value);
    for (const auto& n : names) {
      PyDef d;
      d.kind = PyDef::Kind::Assign;
      d.name = cls.empty() ? n : cls + "." + n;
      d.range = pyRange(stmt);
      d.nameLine = ts_node_start_point(stmt).row;
      d.fingerprint = fp;
      d.aliasOf = alias;
      d.refs = refs;
      out_.defs.push_back(std::move(d));
    }
  }
};

}  // namespace

void extractModuleSymbols(const SyntaxTree& t, PyModuleFacts& out) { ModuleFactsBuilder(t, out).run(); }

}  // namespace impact::pyextract
