// Which variants the emitter builds (SPEC R4.1, R4.2): every `kind: rocke` launch of the shipped
// descriptors (inline in a KDP or in its own UKD file, multi-launch `sources` included), grouped
// into families (source module, builder) and, within one, by (spec, target) as the packer does.
// hip/hsaco/kpack launches have nothing to build. The AOT catalog families too (issue 39): every
// kernel an AOT producer builds (TreeFacts::producers, the static reading of its script: builder,
// spec and call), for the arch of the family.json beside it. Pure: reads the trees' facts only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "emit/EmitDocument.h"
#include "model/Layout.h"

namespace impact::emitter {

struct VariantSpec {
  std::string name;  // the first UKD shipping it; an AOT catalog kernel: its symbol
  std::string arch;
  std::string spec;  // canonical JSON
  // An AOT catalog kernel (issue 39): how its producer built it, for the driver (canonical JSON:
  // {"producer", "spec_class": {"module", "name"}, "call": {"args", "kwargs"}}, or {"producer",
  // "not_run": why}); "" for a descriptor's variant.
  std::string aot;
};

struct FamilyPlan {
  std::string source, builder, path;
  std::vector<VariantSpec> base, head;  // what each revision ships
  std::vector<std::string> producers;    // the AOT producers whose kernels are variants here
  std::string key() const { return source + ":" + builder; }
};

struct Plan {
  std::map<std::string, FamilyPlan> families;  // by key
  std::vector<emit::Failure> failures;         // one name, different specs
  std::vector<emit::NotInspected> notInspected;
};

Plan planVariants(const TreeFacts& base, const TreeFacts& head, const Layout& layout);

}  // namespace impact::emitter
