// A launch call passing a parameter pack (`kernel.launch(stream, a.ptr, ..., values...)`): where
// the pack comes from decides what the call is.
//  - the enclosing function's own parameters (`template <class... Args> void run(Args... args)`):
//    a forwarding wrapper, not a copy (the arguments are at its callers);
//  - a lambda's parameters, typically the lambda std::apply expands a tuple or std::array into,
//    itself inside a lambda std::visit calls on a std::variant (the gfx950 conv pack): a copy whose
//    arguments before the pack are read, and whose trailing arguments the call site does not show.
#pragma once

#include <string>
#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

struct PackUse {
  enum class Kind { None, Wrapper, Tail } kind = Kind::None;
  size_t at = 0;     // index (in the call's arguments, the stream at 0) of the first pack expansion
  std::string what;  // Tail: "the trailing parameter pack values... (from a std::variant)"
};

// `args`: the call's arguments; `function`: the function the call sits in (-1: none).
PackUse packUse(const Ctx& c, const std::vector<TSNode>& args, int function);

}  // namespace impact::cpp
