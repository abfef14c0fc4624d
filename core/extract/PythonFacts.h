// Python half of extraction: the builders of one module (DOMAIN.md §2).
#pragma once

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact {

// Appends to out.builders every function that declares a kernel ABI:
//  - `b.param(name, type, **attrs)` calls on a name bound to `IRBuilder(...)` (Style::Params);
//  - SignatureBuilder chains in `<op>_signature` functions (Style::SignatureBuilder) of a module
//    that has no b.param builder.
// And to out.lists every restatement of a b.param builder in its own module: a function that
// returns a SignatureBuilder chain or a literal list of {name, type} dicts (a Python copy,
// compared like any C++ copy).
// Types resolve through imports and module-/function-level assignments; an unresolved type is
// marked (KernelArg::resolved = false), never guessed. Conditional arguments carry their
// condition with local aliases resolved. An early `return other(spec)` before the first
// b.param adds other's ABI (same module), or, to another module's function, a list open there.
void extractPython(const SyntaxTree& tree, FileFacts& out);

}  // namespace impact
