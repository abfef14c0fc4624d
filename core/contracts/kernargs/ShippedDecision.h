#pragma once
// A copy that lacks conditional arguments of the builder (SPEC R2.2), decided by the shipped
// variants where the tree states them (contracts/ShippedVariants.h; a descriptor copy's own spec
// is its one variant): each lacked argument's guard, and the list's own `when`, is evaluated on
// every shipped variant's spec (evalGuard, Guards.cpp).
//  - some variant that builds this list turns a lacked argument on: On, a mismatch naming them;
//  - every variant that builds this list turns every lacked argument off, and the set is
//    complete: Off, the copy agrees (the row says the guard is off for every shipped variant);
//  - otherwise (no variants, a guard a spec does not decide, an incomplete set): Unknown, the
//    copy stays "changed" and the message says what is not settled.

#include <string>
#include <vector>

#include "contracts/Kernargs.h"

namespace impact::kernargs_detail {

struct ShippedDecision {
  enum class Verdict { Unknown, Off, On };
  Verdict verdict = Verdict::Unknown;
  std::string message;    // On: what differs; Off: the agreement; Unknown: what is not settled ("" without variants)
  int focusBuilder = -1;  // On: the first lacked argument some variant turns on (index into abi.args)
};

// `lacked`: indices into abi.args of the conditional arguments the copy leaves out.
ShippedDecision decideByShipped(const PyAbi& abi, const std::vector<int>& lacked, const CppArgList& copy,
                                const ShippedSet* shipped);

}  // namespace impact::kernargs_detail
