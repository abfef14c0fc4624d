// Where the evaluator's lists (DeclEval.h) meet the body reader's (BuilderLists.cpp): every
// function that can reach `.param` and hold an IRBuilder is evaluated from its entry; its lists are
// the builder's (the body reader keeps its hooks, fingerprint and unresolved returns); when the
// evaluation stopped at a limit, the body
// reader's list stands if it has one, and a builder with none is "not read" with the reason, never
// an empty list.
#include "extract/python/EvaluatedBuilders.h"

#include <algorithm>
#include <set>

#include "extract/python/DeclEval.h"
#include "extract/python/Literals.h"

namespace impact::pyextract {

namespace {

size_t allArgs(const std::vector<PyAbi>& abis) {
  size_t n = 0;
  for (const PyAbi& a : abis) n += a.args.size();
  return n;
}

}  // namespace

void applyEvaluation(DeclEval& eval, const SyntaxTree& t, const std::vector<Fn>& fns, std::vector<PyBuilder>& out) {
  for (const Fn& fn : fns) {
    if (!eval.mayDeclare(fn.name) && !eval.mayDispatch(fn.name)) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const PyBuilder& b) { return b.name == fn.name; });
    // Neither a builder nor holding an IRBuilder nor returning what another module's function does.
    if (it == out.end() && !eval.mayBuild(fn.name) && !eval.mayDispatch(fn.name)) continue;
    DeclResult r = eval.run(fn.name);
    PyBuilder* old = it == out.end() || it->style != PyBuilder::Style::Params ? nullptr : &*it;
    // It holds an IRBuilder and reached a `.param` call it could not resolve, declaring nothing:
    // not read, and why (never an empty list, never silence).
    bool missed = r.stopped.empty() && !r.declares && !r.missed.empty() && (r.builds || eval.mayBuild(fn.name)) &&
                  !(old && allArgs(old->abis) > 0);
    if (missed) r.stopped = "it reaches " + r.missed;
    if (!r.stopped.empty()) {
      if (old && allArgs(old->abis) > 0) continue;  // the body reader's list stands, its gaps named there
      if (!missed && (!r.declares || !r.builds) && !old) continue;
      PyBuilder b;
      if (old) b = *old;
      b.name = fn.name;
      b.range = rangeOf(fn.nameNode);
      b.bodyRange = rangeOf(fn.def);
      b.abis.clear();
      b.notRead = "arguments not read: " + r.stopped + " (in " + fn.name + ")";
      if (old) *old = std::move(b);
      else if (it == out.end()) out.push_back(std::move(b));
      continue;
    }
    // A dispatch: every path returns another module's kernel, each open at that module until the
    // tree is followed (core/analysis/CrossModule).
    bool dispatch = !r.declares && r.builds && dispatchesOnly(r.abis);
    if (!dispatch && (!r.declares || r.abis.empty() || allArgs(r.abis) == 0 || (!r.builds && !old))) continue;
    // A builder that declares its own list and, on an early return, returns another module's
    // function keeps that return as a list of its own, open at that module (followed with the tree).
    if (it != out.end() && !old) continue;  // a SignatureBuilder factory of the same name
    if (old) {
      // A function of another module given the IRBuilder (`emit_param_block(b, ...)`) is not
      // followed here: the list is open where the evaluator met the first one.
      old->abis = std::move(r.abis);
      continue;
    }
    PyBuilder b;
    b.name = fn.name;
    b.style = PyBuilder::Style::Params;
    b.range = rangeOf(fn.nameNode);
    b.bodyRange = rangeOf(fn.def);
    b.abis = std::move(r.abis);
    b.fingerprint = codeFingerprint(t, fn.def);
    out.push_back(std::move(b));
  }
}

}  // namespace impact::pyextract
