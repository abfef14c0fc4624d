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

}  // namespace impact::testing
