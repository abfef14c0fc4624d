// Equivalent rewrites of a pack's C++ copies (issue 26 item 6, metamorphic, the C++ side): the
// real launch `prepared.kernel().launch(handle.getStream(), o.ptr, ..., static_cast<int32_t>(0))`
// rewritten so that each kernel argument goes through another C++ form first. The stream (the
// first argument) is not a kernel argument and stays as written; so does a parameter pack's
// expansion (`values...`).
#pragma once

#include <string>
#include <vector>

namespace impact::testing {

struct CopyRewrite {
  std::string label;
  std::string source;  // the rewritten file ("" when not applicable)
};

// The launch call whose `launch(` is on 1-based `line` of `source`, rewritten: through `const auto`
// locals declared just before the statement; through a local struct whose fields hold them.
// `why` says why nothing applies (no launch on that line, an unbalanced argument list).
std::vector<CopyRewrite> launchRewritesOf(const std::string& source, int line, std::string& why);

// A name-keyed check (a pack that walks the kernel's argument plan and binds each argument by its
// name) rewritten so that its names and sizes come from other C++ forms, each equivalent:
// - "names through named constants": every string literal that is one of `names` becomes a
//   namespace-scope `constexpr const char*` of that value;
// - "names from a constexpr array": every range-for over a braced list of such literals ranges
//   over a namespace-scope `constexpr std::array<const char*, N>` instead;
// - "sizes through sizeof of a local": `== sizeof(float)` becomes `== sizeof(<a float local>)`,
//   the local declared just before the statement.
// A rewrite whose form the file does not have is left out; `why` says so when none applies.
std::vector<CopyRewrite> nameKeyedRewritesOf(const std::string& source, const std::vector<std::string>& names,
                                             std::string& why);

}  // namespace impact::testing
