// The builder evaluator's values (DeclEval.h): truth, comparisons, and/or/not (symbolic ones
// become guards), comprehensions, the join of two branches' values, and a guard's text.
#include "extract/python/DeclEvalImpl.h"

#include <functional>

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;
using Op = GuardNode::Op;

// The value as a guard node of `g` (a literal, or the symbolic value's expression).
uint32_t nodeOf(Guard& g, const AV& v, const std::string& textIfOpaque) {
  switch (v.k) {
    case K::Sym: return copySubtree(g, *v.g, v.g->root);
    case K::Str: return addNode(g, GuardNode{Op::Str, v.s, {}});
    case K::Int: return addNode(g, GuardNode{Op::Num, std::to_string(v.i), {}});
    case K::Bool: return addNode(g, GuardNode{Op::Bool, v.i ? "true" : "false", {}});
    case K::None: return addNode(g, GuardNode{Op::None, "", {}});
    case K::Tuple:
    case K::List: {
      std::vector<uint32_t> kids;
      for (const AV& el : *v.items) kids.push_back(nodeOf(g, el, textIfOpaque));
      return addNode(g, GuardNode{Op::Tuple, "", kids});
    }
    default: return addNode(g, GuardNode{Op::Opaque, textIfOpaque, {}});
  }
}

struct Unread {
  std::string why;
};

bool concrete(const AV& v) {
  return v.k == K::Int || v.k == K::Bool || v.k == K::Str || v.k == K::None || v.isSeq();
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

std::string textAt(const Guard& g, uint32_t at, bool inner) {
  const GuardNode& n = g.nodes[at];
  auto kid = [&](size_t i, bool in) { return textAt(g, n.kids[i], in); };
  std::string out;
  switch (n.op) {
    case Op::And:
    case Op::Or:
      for (size_t i = 0; i < n.kids.size(); ++i)  // `a and (b and c)` reads as `a and b and c`
        out += (i ? (n.op == Op::And ? " and " : " or ") : "") + kid(i, g.nodes[n.kids[i]].op != n.op);
      return inner ? "(" + out + ")" : out;
    case Op::Not:
      return "not " + (g.nodes[n.kids[0]].op == Op::Compare ? "(" + kid(0, true) + ")" : kid(0, true));
    case Op::Compare: return kid(0, true) + " " + n.text + " " + kid(1, true);
    case Op::Str: return quoted(n.text);
    case Op::Bool: return n.text == "true" ? "True" : "False";
    case Op::None: return "None";
    case Op::Tuple:
      for (size_t i = 0; i < n.kids.size(); ++i) out += (i ? ", " : "") + kid(i, false);
      return "(" + out + ")";
    default: return n.text;
  }
}

}  // namespace

std::string guardText(const Guard& g) { return g.empty() ? "" : textAt(g, g.root, false); }

AV symFromGuard(Guard g, std::string text) {
  AV v = AV::of(K::Sym);
  v.g = std::make_shared<Guard>(std::move(g));
  v.s = std::move(text);
  return v;
}

std::shared_ptr<Guard> guardOfAV(const AV& v) {
  if (v.k == K::Sym) return v.g;
  return nullptr;
}

Guard andAll(const std::vector<Guard>& gs) {
  Guard out;
  for (const Guard& g : gs) out = guardAnd(out, g);
  return out;
}

bool truthKnown(const AV& v, bool* truth) {
  switch (v.k) {
    case K::None: *truth = false; return true;
    case K::Bool:
    case K::Int: *truth = v.i != 0; return true;
    case K::Str: *truth = !v.s.empty(); return true;
    case K::List:
    case K::Tuple:
    case K::Dict: *truth = !v.items->empty(); return true;
    case K::Type:
    case K::PtrCtor:
    case K::BuilderCtor:
    case K::Builder:
    case K::SigCtor:
    case K::Sig:
    case K::ParamMethod:
    case K::Func:
    case K::Partial:
    case K::Builtin:
    case K::Iter:
    case K::Instance: *truth = true; return true;
    default: return false;
  }
}

bool sameAV(const AV& a, const AV& b) {
  if (a.k != b.k) return (a.k == K::Int && b.k == K::Bool) || (a.k == K::Bool && b.k == K::Int) ? a.i == b.i : false;
  switch (a.k) {
    case K::None: return true;
    case K::Bool:
    case K::Int: return a.i == b.i;
    case K::Str: return a.s == b.s;
    case K::Type: return a.kind == b.kind && a.size == b.size && a.cls == b.cls;
    case K::List:
    case K::Tuple:
    case K::Dict:
      if (a.items == b.items) return true;
      if (a.items->size() != b.items->size()) return false;
      for (size_t i = 0; i < a.items->size(); ++i)
        if (!sameAV((*a.items)[i], (*b.items)[i])) return false;
      return true;
    case K::Sym: return guardKey(*a.g) == guardKey(*b.g);
    case K::Builder:
    case K::BuilderCtor:
    case K::SigCtor:
    case K::PtrCtor: return true;
    case K::Sig: return a.items == b.items;
    case K::Func: return ts_node_eq(a.def, b.def);
    case K::Imported:
    case K::Builtin: return a.s == b.s;
    default: return false;
  }
}

AV mergeValues(const AV& a, const AV& b) {
  if (sameAV(a, b)) return a;
  if (a.k == K::Type && b.k == K::Type && a.kind == b.kind && a.size == b.size) {
    AV v = a;
    v.cls.clear();  // F16 or BF16: kind and size agree, the class does not
    v.typeText.clear();
    return v;
  }
  AV v = AV::unknown("assigned differently on different paths");
  v.lib = a.lib && b.lib;  // a value of rocKE's IR library on every path is one still
  return v;
}

AV chooseValues(const Guard& g, const AV& a, const AV& b) {
  // IR types, or strings (a name): what a declaration keeps as its choices (KernelArg::choices).
  auto family = [](const AV& v) {
    const AV& x = v.k == K::Unknown && v.alts && !v.alts->empty() ? v.alts->front().second : v;
    return x.k == K::Type ? 1 : x.k == K::Str ? 2 : 0;
  };
  AV merged = mergeValues(a, b);
  if (merged.k != K::Unknown || g.empty() || family(a) == 0 || family(a) != family(b)) return merged;
  auto out = std::make_shared<std::vector<std::pair<Guard, AV>>>();
  auto add = [&](const Guard& when, const AV& v) {
    if (v.alts)
      for (auto& [w, alt] : *v.alts) out->emplace_back(guardAnd(when, w), alt);
    else
      out->emplace_back(when, v);
  };
  add(g, a);
  add(guardNot(g), b);
  if (out->size() > 16) return AV::unknown("a value chosen among more than 16 alternatives");
  AV v = AV::unknown("depends on " + guardText(g));
  v.alts = out;
  return v;
}

AV DeclEval::Impl::compare(TSNode e, DFrame& f, DPath& p, int d) {
  // a < b < c is a < b and b < c
  std::vector<TSNode> operands;
  std::vector<std::string> ops;
  for (TSNode ch : children(e)) {
    if (ts_node_is_named(ch)) operands.push_back(ch);
    else {
      std::string o(type(ch));
      if (!ops.empty() && operands.size() == ops.size()) ops.back() += " " + o;  // "not in", "is not"
      else ops.push_back(o);
    }
  }
  if (operands.size() != ops.size() + 1) return AV::unknown("a comparison it cannot read");
  std::vector<AV> vals;
  for (TSNode o : operands) vals.push_back(expr(o, f, p, d + 1));
  Guard g;
  std::vector<uint32_t> parts;
  bool allTrue = true, symbolic = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    const AV &a = vals[i], &b = vals[i + 1];
    const std::string& op = ops[i];
    if (concrete(a) && concrete(b)) {
      bool r = false;
      if (op == "==" || op == "!=") r = sameAV(a, b) == (op == "==");
      else if (op == "in" || op == "not in") {
        bool found = false;
        if (b.k == K::Str && a.k == K::Str) found = b.s.find(a.s) != std::string::npos;
        else if (b.isSeq() || b.k == K::Dict)
          for (size_t j = 0; j < b.items->size(); j += (b.k == K::Dict ? 2 : 1)) found = found || sameAV((*b.items)[j], a);
        r = found == (op == "in");
      } else if (op == "is" || op == "is not") r = (a.k == K::None && b.k == K::None) == (op == "is");
      else if (a.k == K::Int && b.k == K::Int)
        r = op == "<" ? a.i < b.i : op == "<=" ? a.i <= b.i : op == ">" ? a.i > b.i : a.i >= b.i;
      else return AV::unknown("a comparison of values it cannot order");
      if (!r) return AV::boolean(false);
      continue;
    }
    if ((op == "is" || op == "is not") && b.k == K::None && a.k != K::Sym && a.k != K::Unknown)
      {
        if ((op == "is") ) return AV::boolean(false);  // a known non-None value is not None
        continue;
      }
    allTrue = false;
    symbolic = true;
    AV sa = a.k == K::Unknown ? symOf(operands[i], a, f) : a;
    AV sb = b.k == K::Unknown ? symOf(operands[i + 1], b, f) : b;
    if ((sa.g ? sa.g->nodes.size() : 0) + (sb.g ? sb.g->nodes.size() : 0) > DeclEval::kMaxItems)
      return symOf(e, AV{}, f);
    uint32_t l = nodeOf(g, sa, text(f, operands[i])), r = nodeOf(g, sb, text(f, operands[i + 1]));
    parts.push_back(addNode(g, GuardNode{Op::Compare, op, {l, r}}));
  }
  if (!symbolic) return AV::boolean(allTrue);
  g.root = parts.size() == 1 ? parts[0] : addNode(g, GuardNode{Op::And, "", parts});
  return symFromGuard(std::move(g), text(f, e));
}

AV DeclEval::Impl::caseCondition(const AV& subject, TSNode subjectNode, TSNode cc, DFrame& f, DPath& p, int d) {
  std::vector<TSNode> pats;
  for (TSNode c : namedChildren(cc))
    if (is(c, "case_pattern")) pats.push_back(c);
  auto opaque = [&]() {
    std::string t = "match " + clip(text(f, subjectNode), 40) + ": " + clip(text(f, cc).substr(0, text(f, cc).find(':')), 60);
    Guard g;
    g.root = addNode(g, GuardNode{Op::Opaque, t, {}});
    return symFromGuard(std::move(g), t);
  };
  // One pattern's condition: true (wildcard, capture), a comparison with a literal, or unknown.
  std::function<AV(TSNode)> one = [&](TSNode pat) -> AV {
    auto kids = namedChildren(pat);
    if (is(pat, "case_pattern") && kids.empty()) return AV::boolean(true);  // `_`
    if (is(pat, "case_pattern") && kids.size() == 1) return one(kids[0]);
    if (is(pat, "dotted_name") && text(f, pat).find('.') == std::string::npos) {
      if (text(f, pat) != "_") f.env[text(f, pat)] = subject;  // a capture binds the subject
      return AV::boolean(true);
    }
    if (is(pat, "union_pattern")) {
      AV any = AV::boolean(false);
      for (TSNode alt : kids) {
        AV c = one(alt);
        bool t = false;
        if (truthKnown(c, &t) && t) return c;
        if (!truthKnown(c, &t)) {
          if (c.k != K::Sym || any.k == K::Unknown) return AV::unknown("a pattern it cannot read");
          if (any.k == K::Sym) {
            Guard g;
            uint32_t l = nodeOf(g, any, any.s), r = nodeOf(g, c, c.s);
            g.root = addNode(g, GuardNode{Op::Or, "", {l, r}});
            any = symFromGuard(std::move(g), any.s + " or " + c.s);
          } else {
            any = c;
          }
        }
      }
      return any;
    }
    std::string_view ty = type(pat);
    if (ty != "string" && ty != "concatenated_string" && ty != "integer" && ty != "true" && ty != "false" && ty != "none")
      return AV::unknown("a pattern it cannot read");
    AV lit = expr(pat, f, p, d + 1);
    if (concrete(subject) && concrete(lit)) return AV::boolean(sameAV(subject, lit));
    AV s = subject.k == K::Unknown ? symOf(subjectNode, subject, f) : subject;
    Guard g;
    uint32_t l = nodeOf(g, s, text(f, subjectNode)), r = nodeOf(g, lit, text(f, pat));
    g.root = addNode(g, GuardNode{Op::Compare, "==", {l, r}});
    return symFromGuard(std::move(g), text(f, subjectNode) + " == " + text(f, pat));
  };
  AV c = pats.size() == 1 ? one(pats[0]) : AV::unknown("a sequence pattern");
  if (c.k == K::Unknown) return opaque();
  TSNode guard = field(cc, "guard");
  if (ts_node_is_null(guard)) return c;
  bool t = false;
  if (truthKnown(c, &t) && !t) return c;
  AV gv = expr(namedChildren(guard)[0], f, p, d + 1);
  bool gt = false;
  if (truthKnown(gv, &gt)) return gt ? c : AV::boolean(false);
  return opaque();
}

AV DeclEval::Impl::boolean(TSNode e, DFrame& f, DPath& p, int d) {
  if (is(e, "not_operator")) {
    TSNode arg = field(e, "argument");
    AV a = expr(arg, f, p, d + 1);
    bool truth = false;
    if (truthKnown(a, &truth)) return AV::boolean(!truth);
    AV s = symOf(arg, a, f);
    if (s.g->nodes.size() > DeclEval::kMaxItems) return symOf(e, AV{}, f);
    return symFromGuard(guardNot(*s.g), "not " + s.s);
  }
  TSNode l = field(e, "left"), r = field(e, "right");
  bool isAnd = text(f, field(e, "operator")) == "and";
  AV a = expr(l, f, p, d + 1);
  bool truth = false;
  if (truthKnown(a, &truth)) return truth == isAnd ? expr(r, f, p, d + 1) : a;
  AV b = expr(r, f, p, d + 1);
  if (truthKnown(b, &truth)) {
    if (truth == isAnd) return a;  // `x and True` is x's truth
    if (isAnd) return AV::boolean(false);
  }
  AV sa = symOf(l, a, f), sb = symOf(r, b, f);
  if (sa.g->nodes.size() + sb.g->nodes.size() > DeclEval::kMaxItems) return symOf(e, AV{}, f);  // kept by its text
  Guard g;
  uint32_t x = copySubtree(g, *sa.g, sa.g->root), y = copySubtree(g, *sb.g, sb.g->root);
  g.root = addNode(g, GuardNode{isAnd ? Op::And : Op::Or, "", {x, y}});
  return symFromGuard(std::move(g), text(f, e));
}

AV DeclEval::Impl::comprehension(TSNode e, DFrame& f, DPath& p, int d) {
  // [body for a in xs if c for b in ys ...]: clauses run left to right, the body innermost.
  TSNode body = field(e, "body");
  std::vector<TSNode> clauses;
  for (TSNode ch : namedChildren(e))
    if (is(ch, "for_in_clause") || is(ch, "if_clause")) clauses.push_back(ch);
  std::vector<AV> out;
  DFrame inner = f;  // the comprehension's own scope
  std::function<void(size_t)> run = [&](size_t at) {
    step();
    if (at == clauses.size()) {
      if (is(body, "pair")) {
        out.push_back(expr(field(body, "key"), inner, p, d + 1));
        out.push_back(expr(field(body, "value"), inner, p, d + 1));
      } else {
        out.push_back(expr(body, inner, p, d + 1));
      }
      if (out.size() > 2 * DeclEval::kMaxItems) throw DStop{"a comprehension larger than the size limit"};
      return;
    }
    TSNode c = clauses[at];
    if (is(c, "if_clause")) {
      AV cond = expr(namedChildren(c)[0], inner, p, d + 1);
      bool truth = false;
      if (!truthKnown(cond, &truth)) {  // the rest once, what it declares named
        std::string why = "a comprehension filtered by " + clip(text(f, c), 60);
        inner.loopWhy = "declared in " + why;
        run(at + 1);
        throw Unread{why};
      }
      if (truth) run(at + 1);
      return;
    }
    AV it = iterated(expr(field(c, "right"), inner, p, d + 1), d);
    if (it.k == K::Dict) {
      std::vector<AV> keys;
      for (size_t i = 0; i < it.items->size(); i += 2) keys.push_back((*it.items)[i]);
      it = AV::seq(K::List, keys);
    } else if (it.k == K::Str) {
      std::vector<AV> cs;
      for (char ch : it.s) cs.push_back(AV::str(std::string(1, ch)));
      it = AV::seq(K::List, cs);
    }
    if (!it.isSeq()) {  // the rest once, its names unknown, what it declares named
      std::string why = "a comprehension over " + clip(text(f, field(c, "right")), 60);
      inner.loopWhy = "declared in " + why;
      assign(field(c, "left"), AV::unknown("bound by " + why), inner, p, d);
      run(at + 1);
      throw Unread{why};
    }
    for (const AV& el : *it.items) {
      assign(field(c, "left"), el, inner, p, d);
      run(at + 1);
    }
  };
  try {
    run(0);
  } catch (const Unread& u) {
    return AV::unknown(u.why);
  }
  if (is(e, "dictionary_comprehension")) return AV::seq(K::Dict, std::move(out));
  return AV::seq(K::List, std::move(out));
}

}  // namespace impact::pyextract
