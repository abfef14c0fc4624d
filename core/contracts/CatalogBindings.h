// The AOT catalog engine's name-keyed copies (DOMAIN.md §6): a `LaunchBindings` set
// (extract/cpp/CatalogBindings) against the catalog entries it binds. Paired by op kind (the
// set's function is a method of a class whose `opKind()` is the catalog's `op_kind`: the adapter),
// else by folder (a test in the family folder binds that family's entries). LaunchAbi.cpp
// (bindArgs, packArgs) decides what a binding must be: an entry's `ptr` argument is looked up in
// `pointerValues` then `pointerUids`; any other in `scalars`, whose ScalarValue alternative must
// be the one `packArgs` reads with std::get (`f32` float; `i32` and `i64` int64_t). A name an
// entry needs and the set does not bind (or binds where LaunchAbi does not look, or with another
// alternative) throws at every launch of that entry: a mismatch. A binding no entry reads is a note.
#pragma once

#include <string>
#include <vector>

#include "analysis/CrossModule.h"
#include "analysis/TreeFacts.h"

namespace impact {

struct BindingPair {
  std::string path;  // the C++ file
  const BindingSet* set = nullptr;
  std::string pairedBy;  // "opKind() of RmsNormAdapter (….hpp) = op_kind rmsnorm", "family folder"
  std::vector<std::pair<std::string, const CppArgList*>> entries;  // catalog path, entry
  const LaunchAbiRules* abi = nullptr;  // the tree's LaunchAbi.cpp rules (null or notRead: the table)
};

struct BindingCheck {
  std::vector<std::string> problems;  // what throws at launch ("binds no InvRms (ptr), which 18 entries need")
  std::vector<std::string> unused;    // bindings no entry reads
  std::vector<std::string> unstated;  // scalars whose value's C++ type the file does not state (why)
  const NameBinding* focus = nullptr;  // the first binding a problem is about (else none)
  std::string rules;  // where LaunchAbi's rules came from ("read from …/LaunchAbi.cpp", or the table and why)
};

// Reads the tree's `aot_catalog_engine/launch/LaunchAbi.cpp` (bindArgs, packArgs) into
// `facts.launchAbi`; without one (or unreadable), checkBindings uses impactd's table of its rules.
void readLaunchAbi(TreeFacts& facts, const TreeReader& read, const TreeIds& ids = {});

// Every binding set of the tree, paired; `unpaired` gets the others, each "path function: why".
std::vector<BindingPair> pairBindings(const TreeFacts& facts, std::vector<std::string>* unpaired = nullptr);
BindingCheck checkBindings(const BindingPair& p);

// The entry argument's name and catalog type ("X: ptr" as extracted -> {"X", "ptr"}).
std::pair<std::string, std::string> entryArg(const KernelArg& a);

}  // namespace impact
