// Name-keyed checks of a rocKE recipe's launch plan (SPEC R2.1, issue 16 form 7): a loop over
// `rocke_launch_plan_arg(plan, i)` that checks each argument by its name, in the forms of the
// real monorepo (RockeSdpaNative.cpp `Handler::launch`, the recipe fixture's
// `Prepared::execute`):
//   if (arg->kind == ROCKE_ARG_POINTER) { it = pointers.find(arg->name); check(it != end &&
//       arg->size == sizeof(void*), …) } else check(std::string(arg->name) == "scale" &&
//       arg->kind == ROCKE_ARG_F32 && arg->size == sizeof(float), …)
// and the name-first chain: `if (name == "q_ptr" || …) check(kind/size …) else if (name ==
// "scale") … else check((name == "batch" || …) && arg->kind == ROCKE_ARG_I32 && …)`, then a
// required-set check (`for (const char* n : {"q_ptr", …}) check(seen.count(n), …)`).
// Each branch's names come from equalities with string literals (`std::string(arg->name)`,
// `std::strcmp(arg->name, "x") == 0`, a local bound to `arg->name`) or from the keys of the map
// the branch looks the name up in (`M.find(arg->name)`: a braced initializer, or `M.emplace(n, …)`
// in a range-for over literals); its kind and size from `arg->kind == ROCKE_ARG_*` and
// `arg->size == <size>` in the branch's condition or in a check call inside it. The result is a
// CppArgList of Form::NameKeyed: one element per accepted name (kind, size, typeText = the
// ROCKE_ARG_* kind, `required`), in the order the file states them — an order that means nothing.
#pragma once

#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

void extractNameKeyed(const Ctx& c, std::vector<CppArgList>& out);

}  // namespace impact::cpp
