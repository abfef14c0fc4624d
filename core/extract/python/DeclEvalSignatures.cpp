// The builder evaluator (DeclEval.h): rocKE's SignatureBuilder (rocke.helpers.spec) — `.ptr(name,
// dtype)`, `.scalar(name, ty)` and `.extend(entries)` append `{"name", "type"}` entries and return
// the builder, `.build()` returns the list — and a returned list of such entries read as the
// argument list it restates (each entry's condition the branches it was added in).
#include "extract/python/DeclEvalImpl.h"

#include "extract/python/Literals.h"
#include "extract/python/Nodes.h"
#include "extract/python/RockeTypes.h"

namespace impact::pyextract {

namespace {
using K = AV::K;

AV entry(const AV& name, const AV& type) {
  AV d = AV::seq(K::Dict, {AV::str("name"), name, AV::str("type"), type});
  return d;
}

const AV* key(const AV& dict, const char* k) {
  for (size_t i = 0; i + 1 < dict.items->size(); i += 2)
    if ((*dict.items)[i].k == K::Str && (*dict.items)[i].s == k) return &(*dict.items)[i + 1];
  return nullptr;
}

void unresolve(KernelArg& a, const std::string& why) {
  a.resolved = false;
  a.unresolvedReason += (a.unresolvedReason.empty() ? "" : "; ") + why;
}

// Kind, size and class of an entry's type: a type string ("i32", "ptr<bf16,global>") or an IR type.
void typeInto(KernelArg& a, const AV* ty) {
  if (!ty) return unresolve(a, "the entry has no type");
  if (ty->k == K::Str) {
    a.typeText = ty->s;
    bool ptr = false;
    if (auto sz = typeStringSize(ty->s, &ptr)) {
      a.kind = ptr ? "global_buffer" : "by_value";
      a.size = *sz;
      a.typeClass = typeStringClass(ty->s);
      return;
    }
    return unresolve(a, "type string '" + clip(ty->s, 60) + "' is not a known type");
  }
  if (ty->k == K::Type) {
    a.typeText = ty->typeText;
    a.kind = ty->kind;
    a.size = ty->size;
    a.typeClass = ty->cls;
    return;
  }
  a.typeText = ty->typeText.empty() ? ty->s : ty->typeText;
  bool ptr = false;
  if (ty->k == K::Unknown && !ty->prefix.empty() && typeStringSize(ty->prefix, &ptr) && ptr) {
    a.kind = "global_buffer";  // "ptr<" and an element not known: a pointer all the same
    a.size = 8;
    return;
  }
  unresolve(a, "type '" + clip(a.typeText, 80) + "' could not be resolved");
}

}  // namespace

AV DeclEval::Impl::signatureMethod(const AV& m, std::vector<AV>& pos, std::vector<std::pair<std::string, AV>>& kw,
                                   TSNode at, DFrame& f, DPath& p) {
  const AV& self = *m.self;
  const std::string& n = m.s;
  auto arg = [&](size_t i, std::initializer_list<const char*> names) -> AV {
    if (i < pos.size()) return pos[i];
    if (const AV* v = kwArg(kw, names)) return *v;
    return AV::unknown("no " + std::string(*names.begin()) + " argument");
  };
  if (n == "build") return AV::seq(K::List, *self.items);
  if (n == "ptr") {  // rocKE's sig_param: {"name": name, "type": f"ptr<{canon}, {addr_space}>"}
    AV dtype = arg(1, {"dtype"}), space = pos.size() > 2 ? pos[2] : kwArg(kw, {"addr_space"}) ? *kwArg(kw, {"addr_space"}) : AV::str("global");
    std::string canon = dtype.k == K::Str && (dtype.s == "f16" || dtype.s == "fp16") ? "f16" : dtype.s;
    AV t;
    if (dtype.k == K::Str && space.k == K::Str) {
      t = AV::str("ptr<" + canon + ", " + space.s + ">");
    } else {
      t = AV::unknown("a pointer to " + clip(dtype.s, 60));
      t.prefix = dtype.k == K::Str ? "ptr<" + canon + ", " : "ptr<";
      t.typeText = "ptr<" + clip(dtype.k == K::Str ? canon : dtype.s, 60) + ", " + (space.k == K::Str ? space.s : "?") + ">";
    }
    self.items->push_back(tagged(entry(arg(0, {"name"}), t), p.conds));
  } else if (n == "scalar") {
    self.items->push_back(tagged(entry(arg(0, {"name"}), arg(1, {"ty", "type", "dtype"})), p.conds));
  } else if (n == "extend") {
    AV list = arg(0, {"items", "args", "entries"});
    bool ok = false;
    std::vector<AV> add = elementsOf(list, &ok);
    if (!ok) {  // an entry that says what could not be read, never a shorter list
      auto args = namedChildren(field(at, "arguments"));
      std::string src = args.empty() ? std::string("?") : clip(text(f, args[0]), 80);
      AV name = AV::unknown(src);
      name.at = args.empty() ? rangeOf(at) : rangeOf(args[0]);
      add = {entry(name, AV::unknown("extend(" + src + ") of a list it cannot read"))};
    }
    for (AV& a : add) {
      if (a.isSeq() && a.items->size() >= 2) a = entry((*a.items)[0], (*a.items)[1]);  // a (name, type) pair
      self.items->push_back(tagged(a, p.conds));
    }
  } else {
    return AV::unknown("SignatureBuilder." + n);
  }
  if (self.items->size() > DeclEval::kMaxItems) throw DStop{"a signature longer than the size limit"};
  return self;
}

bool entriesOf(const AV& v, std::vector<KernelArg>& out) {
  if (!(v.isSeq() || v.k == K::Sig) || !v.items || v.items->empty()) return false;
  for (const AV& e : *v.items)
    if (e.k != K::Dict || !key(e, "name")) return false;
  for (const AV& e : *v.items) {
    KernelArg a;
    const AV* name = key(e, "name");
    a.range = name->at;
    const AV* type = key(e, "type");
    if (name->k == K::Str) {
      a.name = name->s;
      typeInto(a, type);
    } else if (name->k == K::Unknown && type && type->k == K::Unknown) {  // an entry not read
      a.name = name->s;
      unresolve(a, type->s);
    } else {
      a.name = name->s;
      unresolve(a, "the entry's name '" + clip(name->s, 60) + "' is not a literal string");
      typeInto(a, type);
    }
    if (e.when && !e.when->empty()) {
      a.guard = andAll(*e.when);
      a.conditional = true;
      a.condition = guardText(a.guard);
    }
    out.push_back(std::move(a));
  }
  return true;
}

}  // namespace impact::pyextract
