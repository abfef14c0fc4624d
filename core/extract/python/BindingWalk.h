// The bindings walk: a function body (or the module's top level) visited once in source order,
// recording every binding with the branch path it sits in, and the events that matter.
#pragma once

#include <vector>

#include "extract/python/Bindings.h"
#include "parse/Syntax.h"

namespace impact::pyextract {

// Binds the module's top-level names into `scope`.
void walkModule(const SyntaxTree& t, TSNode module, Scope& scope);
// Binds a function's parameters and body names into `scope` and records its events;
// names it does not bind are looked up in `moduleScope`.
void walkFunction(const SyntaxTree& t, TSNode def, Scope& scope, std::vector<Event>& events, const Scope* moduleScope);

}  // namespace impact::pyextract
