// Which variants the emitter builds (SPEC R4.1, R4.2): every `kind: rocke` launch of the shipped
// descriptors (inline in a KDP or in its own UKD file, multi-launch `sources` included), grouped
// into families (source module, builder) and, within one, by (spec, target) as the packer does.
// hip/hsaco/kpack launches have nothing to build. Pure: reads extracted descriptor facts only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "emit/EmitDocument.h"
#include "model/Layout.h"

namespace impact::emitter {

struct VariantSpec {
  std::string name;  // the first UKD shipping it
  std::string arch;
  std::string spec;  // canonical JSON
};

struct FamilyPlan {
  std::string source, builder, path;
  std::vector<VariantSpec> base, head;  // what each revision ships
  std::string key() const { return source + ":" + builder; }
};

struct Plan {
  std::map<std::string, FamilyPlan> families;  // by key
  std::vector<emit::Failure> failures;         // one name, different specs
  std::vector<emit::NotInspected> notInspected;
};

Plan planVariants(const TreeFacts& base, const TreeFacts& head, const Layout& layout);

}  // namespace impact::emitter
