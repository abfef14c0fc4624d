// What an AOT catalog family's producer script builds (DOMAIN.md §6): read by running the script
// with the evaluator (core/contracts/AotProducers), never extracted per file (it reads the
// builders' modules and spec.py through the tree).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/Facts.h"

namespace impact {

// One kernel the producer builds: the builder it called (a `b.param` builder anywhere in the
// tree, the producer's own included), the spec it passed (its fields as text: "false", "32",
// "f16"), and the symbol that kernel ships as (a string the producer computed from that spec,
// `spec.kernel_name()`, or passed to the builder).
struct AotProduced {
  // The strings the run computed from its spec object (`spec.kernel_name()`: first) or passed to
  // the builder: a catalog entry whose `symbol` is one of them is this kernel.
  std::vector<std::string> names;
  std::string builderPath, builderName;
  std::string specClass;  // "RMSNorm2DSpec"; "" without a spec object
  std::map<std::string, std::string> spec;
  SourceRange at;  // the builder's call in the producer (line of the call)
};

struct AotProducer {
  std::string path;                  // produce_<family>_co.py
  std::vector<AotProduced> kernels;  // in the order the producer builds them
  std::string notRead;               // "": read; else why its kernels are not known (a limit, a raise)
  std::vector<std::string> readThrough;  // the tree's modules the run read
};

}  // namespace impact
