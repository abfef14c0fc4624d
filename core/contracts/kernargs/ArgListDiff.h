#pragma once
// Comparing two argument lists (shared by pairing and comparison): the diff, its message.

#include <string>
#include <utility>
#include <vector>

#include "contracts/Kernargs.h"

namespace impact::kernargs_detail {

// The arguments present whatever the guards say.
std::vector<KernelArg> unconditional(const std::vector<KernelArg>& args);

// Kind and size are both known.
bool typeKnown(const KernelArg& a);

struct Diff {
  int distance = 0;
  std::vector<std::string> parts;
  std::vector<std::pair<int, int>> pairs;  // (builder index, copy index) that correspond
  int focusBuilder = -1, focusCopy = -1;    // the first difference on each side
  void focus(int b, int c) {
    if (focusBuilder < 0 && focusCopy < 0) {
      focusBuilder = b;
      focusCopy = c;
    }
  }
};

// Positional when the lengths agree, aligned otherwise. A launch call's "names" are its argument
// expressions: never compared (ignoreNames), kinds and sizes are.
Diff diffLists(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames);

// Launch arguments whose kind the file does not state, one message per reason:
// "launch argument #5 compute(s) (why)", "launch arguments #4–#7 (fields of `shape`, ...)".
std::vector<std::string> unresolvedLaunchSlots(const std::vector<KernelArg>& args);

// "copy has N arguments, builder has M: missing x (kind/size) at #i; ..."
std::string joinDiff(const Diff& d);

}  // namespace impact::kernargs_detail
