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

//  - a lambda std::apply calls with a tuple the file builds (`std::make_tuple(a, b)`,
//    `std::forward_as_tuple`, `std::tie(s.a, s.b)` of a struct's fields, `std::tuple{...}`,
//    `std::tuple_cat` of those, a local initialised with one): the tuple's elements are the
//    pack's values, read in place (Values).
struct PackUse {
  enum class Kind { None, Wrapper, Tail, Values } kind = Kind::None;
  size_t at = 0;     // index (in the call's arguments, the stream at 0) of the first pack expansion
  std::string what;  // Tail: "the trailing parameter pack values... (from a std::variant)"
  std::vector<TSNode> values;  // Values: the expressions the pack expands to, in order
};

// `args`: the call's arguments; `function`: the function the call sits in (-1: none).
PackUse packUse(const Ctx& c, const std::vector<TSNode>& args, int function);

}  // namespace impact::cpp
