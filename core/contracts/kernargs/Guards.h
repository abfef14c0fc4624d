#pragma once
// Deciding on guards (model/Guard.h): a guard against a variant's spec (true / false / unknown),
// two guards against each other (same / implied / disjoint / unknown), and a guard under an
// assignment of its atoms — the comparisons, names and calls that and / or / not combine.

#include <map>
#include <string>
#include <vector>

#include "model/Facts.h"

namespace impact {

enum class Truth { False, True, Unknown };

// `spec.use_sinks`, `not spec.persistent and spec.dtype in ("bf16", "f16")`, ... against a
// variant's spec (JSON scalars as text: "true", "8", "bf16", "null"). Names are read as
// `spec.<key>` or `<key>`; anything else (calls, other objects) is unknown. Empty: true.
Truth evalGuard(const Guard& g, const std::map<std::string, std::string>& spec);

enum class GuardRelation { Same, Implies, ImpliedBy, Disjoint, Unknown };
// Decided on the atoms as independent truths (sound: what holds for every assignment holds for
// the ones a spec can reach). More than 16 distinct atoms: Same when the texts are equal, else
// Unknown.
GuardRelation relateGuards(const Guard& a, const Guard& b);
const char* relationName(GuardRelation r);

// The guard an argument is declared under: its structured guard, or, for a condition stated only
// as text (a C++ copy's), one opaque atom of that text. Empty: unconditional.
Guard argGuard(const KernelArg& a);

// The atoms of a guard, keyed by their canonical text in positive form (`x != 'a'` is
// `not x == 'a'`); added to `keys` once each.
void guardAtoms(const Guard& g, std::vector<std::string>& keys);
// The guard when atom keys[i] is bit i of `bits`; an atom not in `keys`: unknown.
Truth evalUnder(const Guard& g, const std::vector<std::string>& keys, uint64_t bits);
// Each atom's value against a spec (as evalGuard reads it), by key.
void atomsAgainstSpec(const Guard& g, const std::map<std::string, std::string>& spec, std::map<std::string, Truth>& out);

}  // namespace impact
