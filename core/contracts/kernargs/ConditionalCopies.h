#pragma once
// A copy that is itself conditional (SPEC R2.2, last sentence), compared with one builder list
// per assignment of the guards both sides use.

#include <optional>

#include "contracts/Kernargs.h"

namespace impact::kernargs_detail {

// nullopt when the comparison does not apply (the copy has no conditional argument, states no
// names, states a condition only as text — a C++ copy's —, or the guards have more than 12
// distinct atoms): the caller compares as for an
// unconditional copy.
// `shipped`: the builder's shipped variants, where known: when the sides differ only where their
// guards differ, each variant's spec fixes the guards, and the lists declared under it are
// compared (a variant under which they differ: a mismatch naming it; none, and every variant
// decided: agree, with `shippedNote`).
std::optional<Comparison> compareConditionalCopy(const PyAbi& abi, const CppArgList& copy,
                                                 const ShippedSet* shipped = nullptr);

}  // namespace impact::kernargs_detail
