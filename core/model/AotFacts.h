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
  // How the emitter (R4) builds this kernel again as the producer did: the spec's fields as typed
  // JSON (a tuple as {"$tuple": [...]}) and the module (repository path) defining its class, the
  // builder's call as {"args": [...], "kwargs": {...}} with the spec as {"$spec": true}. `notRun`
  // says why it cannot be built from what the reading knows ("" when it can).
  std::string specJson, specModule, callJson, notRun;
};

// One catalog entry a script's run built itself (a dict with a "symbol" key, as the
// `gen_*_family_json.py` generators build family.json): the entry is explained by that script.
struct AotWritten {
  std::string symbol;
  SourceRange at;  // where the symbol string was written
};

struct AotProducer {
  std::string path;                  // produce_<family>_co.py (or a generator, gen_*_family_json.py)
  std::vector<AotProduced> kernels;  // in the order the producer builds them
  std::vector<AotWritten> written;   // the catalog entries its run built (a generator's)
  std::string notRead;               // "": read; else why its kernels are not known (a limit, a raise)
  std::vector<std::string> readThrough;  // the tree's modules the run read
};

// What the AOT catalog engine's launch/LaunchAbi.cpp does with an entry argument of one catalog
// type (core/extract/cpp/LaunchAbiRules): the LaunchBindings maps bindArgs looks it up in, in
// order, and the ScalarValue alternative packArgs std::gets ("" for a pointer's uint64_t).
struct LaunchAbiRule {
  std::vector<std::string> maps;
  std::string alternative;
  SourceRange at;  // the std::get in packArgs
};
struct LaunchAbiRules {
  std::string path;  // the LaunchAbi.cpp read; "" when the tree has none
  // catalog type ("ptr", "f32", "i32") -> its rule; "*": packArgs' last `else` (the types no
  // condition names: i64)
  std::map<std::string, LaunchAbiRule> byType;
  std::string notRead;  // "": read; else why its rules are impactd's table
};

}  // namespace impact
