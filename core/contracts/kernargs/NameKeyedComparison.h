#pragma once
// A name-keyed copy (CppArgList::Form::NameKeyed: a check of a recipe's launch plan by argument
// name) against a builder's lists, on exactly what the copy states (SPEC R2.1): the names it
// accepts, the kind, size and scalar type it checks for each, the names it requires. Order never
// matters. Called from compareCopy (CopyComparison.cpp).

#include "contracts/Kernargs.h"

namespace impact::kernargs_detail {

Comparison compareNameKeyed(const PyBuilder& builder, const CppArgList& copy);

// The scalar type class of an argument: "f32", "i32", "i64", "f16", "bf16", … for a scalar,
// "ptr" for a pointer, "" when not stated. A builder argument's from its IR type text (`F32`,
// `T.F32`, `"f32"`), a name-keyed copy's from the ROCKE_ARG_* kind it checks.
std::string scalarClass(const KernelArg& a, bool nameKeyed);

}  // namespace impact::kernargs_detail
