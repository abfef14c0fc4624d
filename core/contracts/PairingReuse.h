// Reusing the pairing of the last analysis after an edit that cannot change it. Pairing reads
// only names (builders, their lists' argument names and conditions, copies' names, forms,
// symbols, hints, specs) and the declarations (manifests, generator configs, descriptors'
// launches, specs and dispatch ids, C++ symbol strings, pack-table entries and `register…`
// functions); an edit that leaves a file's names alone (a body edit, a type change, a comment)
// keeps every pair, whose pointers then move to the new facts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"

namespace impact {

// What pairing reads of one file.
std::string pairingSignature(const FileFacts& f);

// The previous pairs moved onto `now`, when every path in `changed` has the same pairing
// signature in `before` and `now` (and is present in both, or absent in both); else nullopt.
std::optional<std::vector<KernargsPair>> reusePairs(const std::vector<KernargsPair>& pairs, const TreeFacts& before,
                                                    const TreeFacts& now, const std::vector<std::string>& changed);

}  // namespace impact
