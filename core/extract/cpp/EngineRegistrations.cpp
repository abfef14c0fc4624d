#include "extract/cpp/EngineRegistrations.h"

namespace impact::cpp {

namespace {

// The contents of a plain "..." literal naming an engine ("hipkernel:Gfx950ConvFwd"): one ':'
// with a name on both sides, no space, no escape.
bool engineLiteral(std::string_view text, std::string& out) {
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return false;
  std::string_view inner = text.substr(1, text.size() - 2);
  auto colon = inner.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == inner.size()) return false;
  if (inner.find(':', colon + 1) != std::string_view::npos) return false;
  for (char ch : inner)
    if (ch == ' ' || ch == '\\' || ch == '"' || ch == '\t' || ch == '\n') return false;
  out = std::string(inner);
  return true;
}

// `&f` / `&ns::f`: the function's name (its last component); "" for anything else.
std::string addressedFunction(const Ctx& c, TSNode e) {
  if (!is(e, "pointer_expression")) return "";
  TSNode op = field(e, "operator");
  if (isNull(op) || c.text(op) != "&") return "";
  TSNode arg = field(e, "argument");
  if (!is(arg, "identifier") && !is(arg, "qualified_identifier")) return "";
  return lastComponent(noSpace(c.text(arg)));
}

}  // namespace

void extractEngineRegistrations(const Ctx& c, std::vector<CppEngineRegistration>& out) {
  TSNode row{};  // the last registration row: the lists inside it are its own
  for (TSNode n : c.matches.of(NodeKind::InitializerList)) {
    if (!isNull(row) && isUnder(n, row)) continue;
    std::vector<TSNode> elems = items(n);
    std::string engine;
    if (elems.size() < 2 || !is(elems[0], "string_literal") || !engineLiteral(c.text(elems[0]), engine)) continue;
    for (size_t i = 1; i < elems.size(); ++i)
      if (std::string f = addressedFunction(c, elems[i]); !f.empty()) {
        out.push_back({engine, f, ts_node_start_point(n).row});
        row = n;
        break;
      }
  }
}

}  // namespace impact::cpp
