#pragma once
// Pairing a name-keyed copy (CppArgList::Form::NameKeyed) with its builder: by the names it
// accepts, order-free (a launch plan's order comes from the recipe). Called from pairKernargs
// (CopyPairing.cpp).

#include <vector>

#include "contracts/Kernargs.h"

namespace impact::kernargs_detail {

// Sets p.builder to the builder among `all` whose arguments the check accepts best: most names
// in common (at least two, and half of the check's), then a public `b.param` builder, then the
// fewest builder arguments it leaves out, then one of the copy's arch. Leaves p.builder empty when none.
void pairNameKeyed(const std::vector<BuilderRef>& all, KernargsPair& p);

}  // namespace impact::kernargs_detail
