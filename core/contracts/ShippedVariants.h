// The shipped variants of each builder, where the tree states them (SPEC R2.2): the specs of the
// shipped descriptors' rocke launches that name it (KDP/UKD `kernel_source.spec`), else the
// variants a generator config expands for it (`spec_defaults`, shapes x knob arms, `kernels:`
// specs, axes). A builder no declaration ships has no entry: its conditional arguments stay
// undecided ("changed"). Read by pairing (KernargsPair::shipped) and decided on per guard in
// core/contracts/kernargs/ShippedDecision.cpp.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "model/Layout.h"

namespace impact {

struct ShippedVariant {
  std::string name;  // the UKD's name, the generated kernel's name
  // Its spec's scalars as text ("true", "8", "bf16", "null"): the facts' own map (a descriptor
  // launch's specFields, a generator variant's spec), read where the extractor left it — the set
  // lives no longer than the facts it was built from, as every pair's lists do.
  const std::map<std::string, std::string>* spec = nullptr;
};

struct ShippedSet {
  std::vector<ShippedVariant> variants;
  std::string from;                 // "KDP <path>" / "generator config <path>" (", "-joined when several)
  std::vector<std::string> files;   // the declaring files: a change of one re-judges the pairs
  std::string incomplete;           // "" when every shipped variant is listed; else why not
};

// Key: "<module path>|<builder name as the declaration writes it>".
using ShippedIndex = std::map<std::string, std::shared_ptr<const ShippedSet>>;

ShippedIndex shippedVariants(const TreeFacts& facts, const Layout& layout);

// The set of a builder (module path, its name in the facts: "build_x" or "Class.build_x"), or null.
// `restatement`: the builder is a SignatureBuilder restatement (`rms_norm_signature`), which no
// declaration names: the sets of its module's builders (the kernel it states is theirs).
std::shared_ptr<const ShippedSet> shippedFor(const ShippedIndex& index, const std::string& module,
                                             const std::string& builder, bool restatement = false);

}  // namespace impact
