#include "extract/python/ModuleBuilders.h"

#include <algorithm>
#include <optional>

#include "extract/python/DeclEval.h"
#include "extract/python/Functions.h"

namespace impact::pyextract {

namespace {

bool hasList(const std::vector<PyAbi>& abis) {
  for (const PyAbi& a : abis)
    if (!a.args.empty() || !a.tailHelper.empty()) return true;
  return false;
}

// The definition's fingerprint, with those of the module's functions its evaluation ran: a
// change to any of them changes the builder's code.
uint64_t fingerprintOf(const SyntaxTree& t, TSNode def, std::vector<TSNode> ran) {
  uint64_t fp = codeFingerprint(t, def);
  std::sort(ran.begin(), ran.end(), [](TSNode a, TSNode b) { return ts_node_start_byte(a) < ts_node_start_byte(b); });
  for (TSNode n : ran) {
    if (ts_node_eq(n, def)) continue;
    uint64_t o = codeFingerprint(t, n);
    fp = fnv1a(std::string_view(reinterpret_cast<const char*>(&o), sizeof o), fp);
  }
  return fp;
}

PyBuilder builderAt(const Fn& fn, PyBuilder::Style style) {
  PyBuilder b;
  b.name = fn.name;
  b.style = style;
  b.range = rangeOf(fn.nameNode);
  b.bodyRange = rangeOf(fn.def);
  return b;
}

// The builder `fn`'s evaluation `r` makes, if it is one.
std::optional<PyBuilder> builderOf(const SyntaxTree& t, const Fn& fn, DeclResult& r, bool mayBuild) {
  // It holds an IRBuilder and reached a `.param` call it could not resolve, declaring nothing:
  // not read, and why (never an empty list, never silence).
  bool missed = r.stopped.empty() && !r.declares && !r.missed.empty() && (r.builds || mayBuild);
  if (missed) r.stopped = "it reaches " + r.missed;
  PyBuilder b = builderAt(fn, PyBuilder::Style::Params);
  b.fingerprint = fingerprintOf(t, fn.def, r.ran);
  if (!r.stopped.empty()) {
    // Stopped (a limit, recursion) holding an IRBuilder, or having declared: a builder not read.
    if (!missed && !r.builds && !r.recursion) return std::nullopt;
    b.notRead = "arguments not read: " + r.stopped + " (in " + fn.name + ")";
    return b;
  }
  // A dispatch: every path returns another module's kernel, each open at that module until the
  // tree is followed (core/analysis/CrossModule).
  bool dispatch = !r.declares && r.builds && dispatchesOnly(r.abis);
  if (!dispatch && (!r.declares || !r.builds || !hasList(r.abis))) return std::nullopt;
  b.abis = std::move(r.abis);
  b.hooks = std::move(r.hooks);
  return b;
}

bool within(const SourceRange& at, const SourceRange& r) {
  auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) { return l1 < l2 || (l1 == l2 && c1 <= c2); };
  return before(r.line, r.col, at.line, at.col) && before(at.line, at.col, r.endLine, r.endCol);
}

CppArgList copyOf(const SyntaxTree& t, const Fn& fn, std::vector<KernelArg> args) {
  CppArgList c;
  c.form = CppArgList::Form::Static;
  c.symbol = fn.name;
  c.range = rangeOf(fn.nameNode);
  c.args = std::move(args);
  c.named = std::any_of(c.args.begin(), c.args.end(), [](const KernelArg& a) { return !a.name.empty(); });
  c.fingerprint = codeFingerprint(t, fn.def);
  return c;
}

}  // namespace

void extractBuilders(const SyntaxTree& t, std::vector<PyBuilder>& out, std::vector<CppArgList>& copies) {
  DeclEval eval(t);
  std::vector<Fn> fns;
  collectFunctions(t, t.root(), "", fns, 0);
  std::vector<std::pair<const Fn*, DeclResult>> signatures;
  std::vector<SourceRange> builderNames;  // where the declared names of the module's builders are written
  for (const Fn& fn : fns) {
    bool asBuilder = (eval.mayDeclare(fn.name) && eval.mayBuild(fn.name)) || eval.mayDispatch(fn.name);
    if (!asBuilder && !eval.maySign(fn.name)) continue;
    DeclResult r = eval.run(fn.name);
    if (r.returnsEntries && !r.declares) {
      signatures.emplace_back(&fn, std::move(r));
      continue;
    }
    if (!asBuilder) continue;
    std::vector<SourceRange> names = r.nameSources;
    if (auto b = builderOf(t, fn, r, eval.mayBuild(fn.name))) {
      out.push_back(std::move(*b));
      builderNames.insert(builderNames.end(), names.begin(), names.end());
    }
  }
  // A builder that declares named arguments (those it knows: its list may be open at a helper of
  // another module, followed with the tree): the module's lists are restated beside it.
  bool declaringBuilder = std::any_of(out.begin(), out.end(), [](const PyBuilder& b) {
    return b.notRead.empty() && hasList(b.abis) && !dispatchesOnly(b.abis) &&
           std::all_of(b.abis[0].args.begin(), b.abis[0].args.end(), [](const KernelArg& a) { return !a.name.empty(); });
  });
  for (auto& [fn, r] : signatures) {
    SourceRange def = rangeOf(fn->def);
    // A builder whose names are written in the signature function reads its list from it: the
    // signature is then the definition, not a copy.
    bool readByBuilder = std::any_of(builderNames.begin(), builderNames.end(), [&](const SourceRange& at) { return within(at, def); });
    if (declaringBuilder && !readByBuilder) {
      copies.push_back(copyOf(t, *fn, std::move(r.entries)));
    } else if (r.madeSignature) {
      PyBuilder b = builderAt(*fn, PyBuilder::Style::SignatureBuilder);
      b.abis.push_back(PyAbi{fn->name, "", std::move(r.entries), "", "", {}, ""});
      b.fingerprint = codeFingerprint(t, fn->def);
      out.push_back(std::move(b));
    }
  }
}

}  // namespace impact::pyextract
