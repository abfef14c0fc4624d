// C++ half of extraction: every restated kernel argument list of one file (DOMAIN.md §3).
#pragma once

#include "extract/cpp/Macros.h"
#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact {

// Appends to out.lists:
//  - Static: each braced list of KernelArgument elements that is returned, assigned, declared
//    or passed as a call argument ({kind, size, offset, name} or KernelArgument{...} elements),
//    sizes resolved through constexpr constants, sizeof and static_cast, kinds through string
//    constants; a lone KernelArgument{...} (push_back, withArgument(i, ...)) is not a list;
//  - Lambda: the `add(kind, size, name)` idiom (loops over name lists unrolled, calls under
//    `if` conditional);
//  - Launch: `.launch(stream, a, b, ...)` calls, the handler's own `launch` method included
//    (args after the stream, each with the kind and size the file states, or unresolved).
// One file per job under core/extract/cpp/ (ARCHITECTURE.md, "Where each decision is made").
// With `headers`, the macros of the tree's headers the file includes are read too (Macros.h).
void extractCpp(const SyntaxTree& tree, FileFacts& out, const cpp::HeaderReader* headers = nullptr);

}  // namespace impact
