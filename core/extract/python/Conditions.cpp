// Conditions of conditional arguments and early returns, local aliases and literal loop
// variables replaced by what they stand for.
#include "extract/python/BuilderExtractor.h"
#include "extract/python/Nodes.h"

#include <set>
#include <string_view>


namespace impact::pyextract {

std::string BuilderExtractor::condText(TSNode cond, const Scope& s, Use u, const Ctx* ctx, int depth) {
  std::string src = text(cond);
  if (depth > 8 || --condBudget_ < 0) return src;
  uint32_t base = ts_node_start_byte(cond);
  std::vector<std::pair<TSNode, std::string>> repl;
  walk(cond, [&](TSNode n) {
    if (repl.size() > 64) return false;
    if (is(n, "lambda")) return false;
    if (!is(n, "identifier")) return true;
    TSNode parent = ts_node_parent(n);
    if (is(parent, "attribute") && ts_node_eq(field(parent, "attribute"), n)) return false;
    if (is(parent, "keyword_argument") && ts_node_eq(field(parent, "name"), n)) return false;
    std::string nm = text(n);
    if (ctx) {
      for (size_t i = ctx->loops.size(); i-- > 0;)
        if (ctx->loops[i].name == nm) {
          repl.emplace_back(n, text(ctx->loops[i].elem));
          return false;
        }
    }
    if (s.isModule) return false;
    const Binding* b = nullptr;
    TSNode v = resolver_.aliasOf(nm, s, u, &b);
    if (ts_node_is_null(v) || !b) return false;
    std::string r = condText(v, s, Use{b->stmtStart, &b->path}, nullptr, depth + 1);
    static const std::set<std::string_view> kAtomic = {
        "identifier", "attribute", "call", "subscript", "string", "integer", "float", "true", "false",
        "none", "parenthesized_expression", "list", "tuple", "dictionary", "concatenated_string"};
    if (!kAtomic.count(type(v))) r = "(" + r + ")";
    repl.emplace_back(n, std::move(r));
    return false;
  });
  if (repl.empty()) return src;
  std::string out;
  uint32_t at = 0;
  for (auto& [n, r] : repl) {
    uint32_t b = ts_node_start_byte(n) - base, e = ts_node_end_byte(n) - base;
    if (b < at || e > src.size()) continue;
    out += src.substr(at, b - at);
    out += r;
    at = e;
  }
  out += src.substr(std::min<size_t>(at, src.size()));
  if (out.size() > 2000) return src;  // aliases of aliases blowing up: keep the text as written
  return out;
}

std::string BuilderExtractor::conditionOf(const Ctx& c, const Scope& s) {
  std::string out;
  for (const Cond& k : c.conds) {
    std::string piece;
    if (ts_node_is_null(k.node)) piece = k.text;
    else piece = condText(k.node, s, Use{k.use.pos, k.path.get()}, &c, 0);
    if (k.negate) piece = "not (" + piece + ")";
    if (!out.empty()) out += " and ";
    out += piece;
  }
  return out;
}

void BuilderExtractor::conditionInto(KernelArg& a, const Ctx& c, const Scope& s) {
  if (c.conds.empty()) return;
  a.conditional = true;
  a.condition = conditionOf(c, s);
  a.guard = guardOf(c, s);
}

}  // namespace impact::pyextract
