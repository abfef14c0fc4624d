// How a vector a function appends KernelArguments to starts (the direct form of LambdaIdiom.cpp):
// empty, as the list of a helper of the file (`auto s = scalarArguments(off);`), or as what a call
// returns whose list is not read (`auto v = tensorArguments();` of another file: open at its start).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

// The name of a local `std::vector<KernelArgument> v;` declared without elements, else "".
std::string emptyKernelArgumentVector(const Ctx& c, TSNode decl);
// The one list (of `pool`) read in the function a call calls; null when none or several.
const CppArgList* helperList(const Ctx& c, TSNode call, int f, const std::vector<const CppArgList*>& pool);
// The locals of function `f` each initialised by a call of a helper whose list was read, by name.
std::map<std::string, const CppArgList*> helperLocals(const Ctx& c, int f, const std::vector<const CppArgList*>& pool);
// The call an init declarator's value is (`auto v = f(…);`, `auto v{f(…)}`); null otherwise.
TSNode initialCall(TSNode initDeclarator);
// Whether the local `v` of function `f` is a KernelArgument list: by its declared type (`auto` from
// the call's return type) or by a KernelArgument appended or inserted into it.
bool holdsKernelArguments(const Ctx& c, TSNode decl, TSNode initDeclarator, const std::string& v, int f);
// Why the list a call returns is not read ("a function whose list is not read (not defined in this file)").
std::string unreadCallWhy(const Ctx& c, TSNode call, const std::vector<const CppArgList*>& pool);

}  // namespace impact::cpp
