// Launch calls: `kernel.launch(stream, a, b, ...)`; argument order is the ABI. Read wherever
// they sit, the dispatch handler's own method named `launch` included; only a real forwarding
// wrapper (a function taking a parameter pack, the pack it passes its own) is skipped; a pack a
// lambda expands (`values...` from std::apply over a std::variant's array, PackExpansion.h) ends
// the arguments read, and the list records what passes the rest (CppArgList::openTail). The
// first argument is the stream, not a kernel argument; each other argument's kind and size
// come from ArgumentKinds (unresolved, with the reason, when the file does not state them).
#pragma once

#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

void extractLaunches(const Ctx& c, std::vector<CppArgList>& out);

}  // namespace impact::cpp
