#include "extract/cpp/LaunchCalls.h"

#include <memory>

#include "extract/cpp/ArgumentKinds.h"
#include "extract/cpp/PackExpansion.h"

namespace impact::cpp {
namespace {

// A function whose parameters end in a pack (`Args... args`): a forwarding wrapper.
bool takesParameterPack(const Ctx& c, TSNode def) {
  TSNode fd = functionDeclarator(def);
  for (TSNode p : items(field(fd, "parameters")))
    if (is(p, "variadic_parameter_declaration") || c.text(p).find("...") != std::string_view::npos) return true;
  return false;
}

// "Class::method" for a method defined inside its class; the name as written otherwise.
std::string qualifiedName(const Ctx& c, TSNode def) {
  std::string name = functionName(c, def);
  if (name.find("::") != std::string::npos || name.find('.') != std::string::npos) return name;
  TSNode p = ts_node_parent(def);
  for (int i = 0; i < 4 && !isNull(p); ++i, p = ts_node_parent(p)) {
    if (is(p, "class_specifier") || is(p, "struct_specifier")) {
      std::string cls = noSpace(c.text(field(p, "name")));
      return cls.empty() ? name : cls + "::" + name;
    }
  }
  return name;
}

// `handle.getStream()`, `stream`, `hipStreamDefault`: an expression that names a stream.
bool streamExpression(const Ctx& c, TSNode n) {
  if (is(n, "call_expression")) {
    TSNode fn = field(n, "function");
    if (is(fn, "field_expression")) fn = field(fn, "field");
    std::string_view name = c.text(fn);
    return name == "getStream" || name == "stream";
  }
  if (is(n, "identifier")) {
    std::string_view name = c.text(n);
    return name == "stream" || name == "hipStream";
  }
  return false;
}

// The names a launch value designates, outermost first (KernelArg::valueNames): through
// parentheses, casts (`static_cast<T>(x)`, `(T)x`), `&`/`*` and `this->`; a field access adds its
// field. Anything else (a literal, a call, arithmetic, a subscript) designates nothing by name.
std::vector<std::string> designatedNames(const Ctx& c, TSNode n, int depth = 0) {
  if (isNull(n) || depth > 12) return {};
  if (is(n, "parenthesized_expression")) {
    auto k = items(n);
    return k.size() == 1 ? designatedNames(c, k[0], depth + 1) : std::vector<std::string>{};
  }
  if (is(n, "identifier") || is(n, "field_identifier")) return {std::string(c.text(n))};
  if (is(n, "qualified_identifier")) return {lastComponent(noSpace(c.text(n)))};
  if (is(n, "field_expression")) {
    TSNode object = field(n, "argument");
    std::vector<std::string> out = is(object, "this") ? std::vector<std::string>{} : designatedNames(c, object, depth + 1);
    if (out.empty() && !is(object, "this")) return {};
    out.push_back(noSpace(c.text(field(n, "field"))));
    return out;
  }
  if (is(n, "cast_expression")) return designatedNames(c, field(n, "value"), depth + 1);
  if (is(n, "pointer_expression")) return designatedNames(c, field(n, "argument"), depth + 1);
  if (is(n, "call_expression")) {
    TSNode fn = field(n, "function");
    std::string cast = is(fn, "template_function") ? noSpace(c.text(field(fn, "name"))) : "";
    auto a = items(field(n, "arguments"));
    if ((cast == "static_cast" || cast == "reinterpret_cast" || cast == "const_cast" || cast == "std::bit_cast" ||
         cast == "bit_cast") &&
        a.size() == 1)
      return designatedNames(c, a[0], depth + 1);
  }
  return {};
}

}  // namespace

void extractLaunches(const Ctx& c, std::vector<CppArgList>& out) {
  std::unique_ptr<DeclaredTypes> types;  // built on the first launch call of the file
  for (const auto& m : c.matches[QueryId::CppLaunchCall]) {
    TSNode method = m.get("method"), args = m.get("args"), call = m.get("call");
    if (isNull(method) || isNull(args) || isNull(call)) continue;
    if (c.text(method) != "launch") continue;
    auto a = items(args);
    if (a.size() < 2) continue;
    // A recipe's launch(extra, handle.getStream()): the stream comes last and the arguments
    // travel packed in one buffer (a name-keyed check of the launch plan restates them), so the
    // call states no argument list.
    if (streamExpression(c, a.back()) && !streamExpression(c, a.front())) continue;
    int f = c.functionOf(call);
    // launch(stream, args...) inside a variadic wrapper: not a copy. A pack a lambda expands
    // (std::apply over a family's array): the arguments before it are read, the rest is said.
    PackUse pack = packUse(c, a, f);
    if (pack.kind == PackUse::Kind::Wrapper) continue;
    // The arguments as positions: a pack std::apply expands from a tuple the file builds is its
    // elements, where the pack is.
    std::vector<TSNode> slots(a.begin(), a.end());
    if (pack.kind == PackUse::Kind::Values) {
      slots.erase(slots.begin() + static_cast<long>(pack.at));
      slots.insert(slots.begin() + static_cast<long>(pack.at), pack.values.begin(), pack.values.end());
    }
    size_t end = pack.kind == PackUse::Kind::Tail ? pack.at : slots.size();
    CppArgList l;
    l.openTail = pack.what;
    l.form = CppArgList::Form::Launch;
    l.range = rangeOf(call);
    if (f >= 0) {
      TSNode def = c.functions[f].node;
      if (takesParameterPack(c, def)) continue;  // a forwarding wrapper, whatever its name
      l.symbol = qualifiedName(c, def);
      l.fingerprint = codeFingerprint(c.tree, def);
    } else {
      l.fingerprint = codeFingerprint(c.tree, call);
    }
    if (!types) types = std::make_unique<DeclaredTypes>(c);
    types->prepare(f);
    for (size_t i = 1; i < end; ++i) {  // a[0] is the stream
      KernelArg k;
      k.name = collapse(c.text(slots[i]));
      k.range = rangeOf(slots[i]);
      k.valueNames = designatedNames(c, slots[i]);
      int at = c.functionOf(slots[i]);
      if (at != f && at >= 0) types->prepare(at);
      InferredKind kind = types->infer(slots[i], at);
      k.typeText = kind.typeText;
      if (kind.known()) {
        k.kind = kind.kind;
        k.size = kind.size;
        k.typeClass = kind.cls;
      } else {
        k.resolved = false;
        k.unresolvedReason = kind.why;
      }
      l.args.push_back(std::move(k));
    }
    l.named = true;
    out.push_back(std::move(l));
  }
}

}  // namespace impact::cpp
