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
std::optional<Comparison> compareConditionalCopy(const PyAbi& abi, const CppArgList& copy);

}  // namespace impact::kernargs_detail
