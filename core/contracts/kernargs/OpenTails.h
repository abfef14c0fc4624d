#pragma once
// Lists known only up to a point (SPEC R2.1): a builder whose arguments after #N are declared
// by a helper (`emit_param_block(b, ...)`), a launch whose trailing arguments are a parameter
// pack (`values...`). Only the part both sides state is compared; the rest is said, never guessed.

#include <string>
#include <vector>

#include <optional>

#include "contracts/Kernargs.h"
#include "model/Facts.h"

namespace impact::kernargs_detail {

bool builderOpen(const PyAbi& abi);
bool copyOpen(const CppArgList& copy);

// The lists cut to what both state: an open list's known arguments are a prefix of the whole,
// so a closed side is cut to that length when it is at least as long (a closed side shorter than
// the open side's known prefix is not cut: its count is a difference). Both open, the builder at a
// helper of another module (its block against a launch's trailing pack): nothing is cut, the two
// tails stand for the same trailing block, so the arguments before them must agree in count, kind
// and size. Both open, the builder at a call it cannot follow (no module named: a kernel callback,
// a spec's method): the part both state, the shorter known prefix, is compared.
// A copy open at its start (CppArgList::openStart): its known arguments are aligned with the end of
// the builder's known list when both end at the same place (both closed, or both open at the same
// trailing block), `c` then led by the builder's own arguments standing for the open start; else
// nothing is compared. Returns how many arguments lead `c` so (copy index = index in `c` − it).
size_t comparedPrefix(const PyAbi& abi, const CppArgList& copy, std::vector<KernelArg>& b, std::vector<KernelArg>& c);

// What could not be compared, for the row: "arguments after #6 are declared by emit_param_block
// (kernels/common/_conv_implicit_gemm_common.py, not in the tree)", "the trailing parameter pack
// values... (from a std::variant)". moduleInTree: 1 the helper's module is in the tree, 0 not,
// -1 not known (the comparison alone; the judge knows).
std::vector<std::string> notComparedParts(const PyAbi& abi, const CppArgList& copy, int moduleInTree);

// What the row says of the builder's hooks on this list (issue 16, form 3): "_build_x_impl has a
// hook extra_params, called with the IRBuilder after D, that can insert arguments there; build_x
// calls it without one, so the list is its b.param calls" (or "passes one: ... not compared";
// the builder's own parameter: what a caller passing no hook declares is compared).
std::vector<std::string> hookNotes(const PyBuilder& builder, const PyAbi& abi);

// The path of the helper's module in the tree, from the builder's path (both under one
// `rocke/library/`; a relative import resolved against the builder's module); "" when the builder
// names none or its path has no library root.
std::string helperModulePath(const PyAbi& abi, const std::string& builderPath);

// An open end the change left as it was, read from the base. At the base the copy agreed with the
// builder's list known up to a helper impactd cannot see (`before`, a closed copy); if the helper's
// call is written as it was and its module did not change (helperUnchanged), the helper declares at
// the head what it declared at the base: what the copy stated past the builder's known list there.
// Returns the head builder with that list closed by those arguments (the copy's own, as the base
// copy stated them), or nothing when any condition fails; `note` says what was read so.
std::optional<PyBuilder> closedFromBase(const PyBuilder& head, const PyAbi& headAbi, const Comparison& before,
                                        const CppArgList& baseCopy, bool helperUnchanged, std::string& note);

}  // namespace impact::kernargs_detail
