// Bounds every walk of the Python extractor keeps, so garbage input or deep nesting cannot hang
// or overflow the stack.
#pragma once

namespace impact::pyextract {

constexpr int kMaxVisitDepth = 400;  // syntax nesting the walkers descend

}  // namespace impact::pyextract
