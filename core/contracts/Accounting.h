// Accounting (issue 26 item 3): what impactd understood of one tree, with nothing left out.
// Every builder a declaration names (a profile's launch_surface or `builder`, a KDP/UKD
// `kernel_source`, a generator config's pack) or a copy pairs with is read, or says why not;
// every copy a surface file states (KernelArgument list, launch call, name-keyed check, names
// array) is compared with what paired it, or says why not ("not compared"), or is set aside as
// no copy at all with why (a value a test case builds to be refused). `impact check` prints it;
// the report's coverage line and the editor's Information diagnostics are its counts and gaps.
// A pure function of the tree's facts and its pairs (one place where "accounted" is decided).
#pragma once

#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "model/Facts.h"
#include "model/Layout.h"

namespace impact {

struct AccountedBuilder {
  std::string path, name;              // module path, function name
  const PyBuilder* builder = nullptr;  // null: not found in the tree
  std::vector<std::string> declaredBy; // declarations naming it ("profile X launch_surface kernargs", ...)
  bool read = false;
  std::string notRead;                 // "arguments not read: <why>" when !read
};

struct AccountedCopy {
  enum class State { Compared, NotCompared, NotACopy };
  State state = State::NotCompared;
  std::string path;
  SourceRange range;
  std::string what;      // "launch in Pack::launch", "KernelArgument list in pythonAbi", "names array NAMES"
  std::string builder;   // "module.py:build_x" it pairs with; "" when none
  std::string pairedBy;  // the declaration that paired it
  std::string detail;    // Compared: "agrees (8 arguments)" / the mismatch; else why it is not compared
};

struct Accounting {
  std::vector<AccountedBuilder> builders;
  std::vector<AccountedCopy> copies;
  size_t copiesCompared = 0, copiesTotal = 0;    // NotACopy entries are in neither
  size_t buildersRead = 0, buildersTotal = 0;
  // Anything on the surface impactd did not read or compare (impact check exits 1).
  size_t unaccounted() const { return (copiesTotal - copiesCompared) + (buildersTotal - buildersRead); }
};

// `pairs`/`unpaired`: pairKernargs of `facts` (with its unpaired list). `compare`: state each
// compared copy's outcome in `detail` (impact check); without it only the counts and the gaps are
// filled (the report's coverage line).
Accounting account(const TreeFacts& facts, const Layout& layout, const std::vector<KernargsPair>& pairs,
                   const std::vector<KernargsPair>& unpaired, bool compare);

// Why the builder `b` of `module` has no arguments impactd can compare ("arguments not read:
// ..."), or "" when it has: impact check and the report decide "not read" here, the one place.
std::string builderNotRead(const PyBuilder& b, const std::string& module);

// "copies compared 12 of 14; builders read 3 of 3"
std::string coverageLine(const Accounting& a);

}  // namespace impact
