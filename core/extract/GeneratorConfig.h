// Generator configs (`projects/hipdnn/tools/IngestorGenerator/configs/<slug>.yaml`, the file the
// IngestorGenerator builds a pack's descriptors from), read with yaml-cpp. What impactd reads of
// one: the engine each pack serves (`engine.name`, or a pack's own `engine`), the kernel source
// its kernels are built from (`kernel_defaults: {kind, source, builder, spec}`, a `kernels:`
// entry's `kernel_source`, or a variant group's own `source` + `builder`), and the specs of the
// variants it generates, expanded as the generator's loader does:
//  - `kernels:` — each entry's `kernel_source.spec` over `kernel_defaults.spec`;
//  - `variants:` — per group, every shape row crossed with the arms of the knob set it names
//    (`knobs:`), each spec `kernel_defaults.spec` < `spec_defaults` < the shape < the arm (the
//    keys `knobs`, `resolved`, `ordinal`, `tag`, `metadata`, `ordinal_offset` are not spec);
//  - `axes:` + `kernel_template:` — the cross product of the axes' values over the template's
//    spec (a field the template states is not varied).
// See docs/contracts.md "Generator configs" and the real forms table.
#pragma once

#include <string_view>

#include "absl/status/statusor.h"
#include "model/Facts.h"

namespace impact {

// Is the path a generator config: a `.yaml`/`.yml` file (not a `*.profile.yaml`) directly in a
// folder named `configs`? (Which configs folders are analysed is Layout's; this is the kind.)
bool isGeneratorConfigPath(std::string_view path);

// At most this many variants are expanded per config; past it a source says it is incomplete.
inline constexpr size_t kMaxGeneratorVariants = 50000;

// Error text: "line N: <yaml-cpp message>" or "line N: <what is wrong>" for a document that is
// not a mapping. Parts that cannot be read (a pack that is not a mapping, a knob set a shape
// names that does not exist) are listed in `problems`, and the rest is still read.
absl::StatusOr<GeneratorConfig> parseGeneratorConfig(std::string_view content);
// The same, and yamlValueFingerprint(content) into *fingerprint, from one parse of the YAML.
absl::StatusOr<GeneratorConfig> parseGeneratorConfig(std::string_view content, uint64_t* fingerprint);

}  // namespace impact
