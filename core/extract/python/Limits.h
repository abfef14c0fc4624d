// Bounds every walk of the Python extractor keeps, so garbage input or deep nesting cannot hang
// or overflow the stack.
#pragma once

#include <cstddef>

namespace impact::pyextract {

constexpr int kMaxVisitDepth = 400;     // syntax nesting the walkers descend
constexpr int kMaxResolveDepth = 300;   // alias chains (sig = sig.ptr(...) repeated, alias of alias)
constexpr size_t kMaxUnroll = 256;      // elements of a literal loop that is unrolled
constexpr size_t kMaxEvents = 50000;    // events per function (unrolled loops multiply them)
constexpr long kResolveBudget = 4000000;  // resolution steps per module

}  // namespace impact::pyextract
