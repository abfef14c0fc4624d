// One copy as the editor features beyond diagnostics see it (inlay hints, code lens, symbols,
// rename): its pair's comparison — the same compareCopy the diagnostics come from — with, per
// copy element, the builder argument it binds and what it states differently. Pure functions of
// one AnalysisState; repository-relative paths, tree-sitter points.
#pragma once

#include <string>
#include <vector>

#include "analysis/Workspace.h"

namespace impact::server {

struct CopyView {
  const KernargsPair* pair = nullptr;
  Comparison cmp;
  std::vector<int> builderOf;      // per copy element: the index in cmp.abi->args, or -1
  std::vector<std::string> diffs;  // per copy element: what differs ("" agrees); an extra element says so
  int mismatches = 0;              // differing elements, extra elements, lacked unconditional arguments
  bool agrees() const { return cmp.outcome != Comparison::Outcome::Disagree; }
};

CopyView viewOf(const KernargsPair& p);

// Every paired copy of builder `b` (of module `path`), compared once each.
std::vector<CopyView> viewsOfBuilder(const AnalysisState& st, const std::string& path, const PyBuilder* b);

// The copy element of `view` that states argument `index` of `abi` (abi: one of the builder's
// lists), or -1: by the comparison's correspondence when the copy was compared with that list,
// else by name.
int elementFor(const CopyView& view, const PyAbi* abi, int index);

// The byte offset each argument has in the kernarg segment the builder's list implies (each
// argument at the next multiple of its natural alignment, its size's largest power-of-two
// divisor up to 8); -1 from the first argument whose size is not known.
std::vector<int64_t> impliedOffsets(const std::vector<KernelArg>& args);

// "Class::fn var", "fn", "var", "(list)": how a copy is named.
std::string copyName(const CppArgList& l);

// Whether what inlay hints and code lenses show may have moved between two analyses: a file
// holding builders or copies has new facts (the builder was edited, a copy was), or went away.
// The states are held by the caller, so equal pointers are the same facts. No `before` (the first
// analysis): true, so that a client that asked before it was ready asks again.
bool hintInputsMoved(const AnalysisState* before, const AnalysisState& now);

// The last component of a path.
std::string fileName(const std::string& path);

}  // namespace impact::server
