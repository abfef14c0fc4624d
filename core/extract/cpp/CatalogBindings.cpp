#include "extract/cpp/CatalogBindings.h"

#include <optional>

#include "extract/cpp/ArgumentKinds.h"

namespace impact::cpp {

namespace {

// LaunchBindings' maps (CatalogTypes.hpp): what each binds.
bool isBindingMap(std::string_view m) { return m == "pointerUids" || m == "pointerValues" || m == "scalars"; }
// The map methods that insert a key and its value as the call's first two arguments.
bool isInsert(std::string_view m) { return m == "emplace" || m == "try_emplace" || m == "insert_or_assign"; }

// A string literal's content ("X" -> X); nothing for anything else.
std::optional<std::string> literal(const Ctx& c, TSNode n) {
  if (!is(n, "string_literal")) return std::nullopt;
  std::string out;
  for (TSNode k : items(n)) {
    if (!is(k, "string_content")) return std::nullopt;  // an escape: not read
    out += c.text(k);
  }
  return out;
}

// `catalog::ScalarValue{E}` / `ScalarValue(E)` -> E (the alternative is E's type); else the node.
TSNode unwrapScalarValue(const Ctx& c, TSNode v) {
  TSNode ty, args;
  if (is(v, "compound_literal_expression")) ty = field(v, "type"), args = field(v, "value");
  else if (is(v, "call_expression")) ty = field(v, "function"), args = field(v, "arguments");
  else return v;
  if (isNull(ty) || lastComponent(noSpace(c.text(ty))) != "ScalarValue") return v;
  std::vector<TSNode> a = items(args);
  return a.size() == 1 ? a[0] : v;
}

// The ScalarValue alternative a value of this type constructs (CatalogTypes.hpp:
// std::variant<uint64_t, int64_t, float>), as written; "" with `why` when not stated.
std::string alternativeOf(const InferredKind& k, std::string& why) {
  if (!k.known()) {
    why = k.why;
    return "";
  }
  if (k.cls == "f32") return "float";
  if (k.cls == "i64" && k.size == 8) return "int64_t";
  if (k.cls == "u64" && k.size == 8) return "uint64_t";
  return k.typeText.empty() ? k.cls : k.typeText;  // not an alternative: said as read
}

}  // namespace

void extractBindings(const Ctx& c, std::vector<BindingSet>& out, std::map<std::string, std::string>& opKinds) {
  std::optional<DeclaredTypes> types;
  std::map<std::pair<int, std::string>, size_t> sets;  // (function, object) -> index in out
  auto add = [&](TSNode at, TSNode mapExpr, TSNode key, TSNode value) {
    std::string mapName(c.text(field(mapExpr, "field")));
    auto name = literal(c, key);
    if (!isBindingMap(mapName) || !name) return;
    int fn = c.functionOf(at);
    std::string object = noSpace(c.text(field(mapExpr, "argument")));
    auto [it, fresh] = sets.try_emplace({fn, object}, out.size());
    if (fresh) {
      BindingSet s;
      s.function = fn >= 0 ? functionName(c, c.functions[fn].node) : "";
      s.variable = object;
      s.range = rangeOf(at);
      out.push_back(std::move(s));
    }
    NameBinding b;
    b.name = *name;
    b.map = mapName;
    b.range = rangeOf(at);
    if (mapName == "scalars" && !isNull(value)) {
      if (!types) types.emplace(c);
      if (fn >= 0) types->prepare(fn);
      b.valueType = alternativeOf(types->infer(unwrapScalarValue(c, value), fn), b.why);
    }
    out[it->second].bindings.push_back(std::move(b));
  };
  c.tree.walkAll([&](TSNode n) {
    if (is(n, "call_expression")) {
      TSNode callee = field(n, "function");
      if (is(callee, "field_expression") && isInsert(c.text(field(callee, "field")))) {
        TSNode mapExpr = field(callee, "argument");
        std::vector<TSNode> a = items(field(n, "arguments"));
        if (is(mapExpr, "field_expression") && a.size() >= 2) add(n, mapExpr, a[0], a[1]);
      }
    } else if (is(n, "assignment_expression")) {  // bindings.scalars["eps"] = v
      TSNode left = field(n, "left");
      if (is(left, "subscript_expression")) {
        TSNode mapExpr = field(left, "argument");
        std::vector<TSNode> idx = items(field(left, "indices"));
        if (is(mapExpr, "field_expression") && idx.size() == 1) add(n, mapExpr, idx[0], field(n, "right"));
      }
    } else if (is(n, "function_definition")) {  // `const char* opKind() const override { return "rmsnorm"; }`
      TSNode fd = functionDeclarator(n);
      if (!isNull(fd) && lastComponent(noSpace(c.text(field(fd, "declarator")))) == "opKind") {
        std::vector<TSNode> body = items(field(n, "body"));
        if (body.size() == 1 && is(body[0], "return_statement") && !items(body[0]).empty())
          if (auto kind = literal(c, items(body[0])[0])) {
            std::string written = noSpace(c.text(field(fd, "declarator")));
            std::string owner = written.rfind("::") != std::string::npos
                                    ? lastComponent(written.substr(0, written.rfind("::")))
                                    : "";
            if (owner.empty())  // declared in its class's body
              for (TSNode p = parentOf(n); !isNull(p); p = parentOf(p))
                if (is(p, "class_specifier") || is(p, "struct_specifier")) {
                  owner = lastComponent(c.text(field(p, "name")));
                  break;
                }
            if (!owner.empty()) opKinds[owner] = *kind;
          }
      }
    }
    return true;
  });
}

}  // namespace impact::cpp
