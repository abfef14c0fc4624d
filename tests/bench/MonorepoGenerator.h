// Generates a monorepo-sized fixture for benchmarks: kernel modules with builders, C++ packs,
// pins and helpers, KDPs with many inline UKDs, and a mass of unrelated files, committed on
// main, with a feature branch that adds an argument to one builder (the pin does not follow).
#pragma once

#include <string>

namespace impact::bench {

struct GeneratorSize {
  int kernelModules = 100;
  int ukds = 1000;
  int cppFiles = 300;  // packs + pins + other sources
  int unrelatedFiles = 20000;
  // AOT catalog families (issue 39; impact_ci_bench --aot=N): each a platform builder
  // (rocke/instances/common/aot_op_<i>.py), a producer building 4 specs and a family.json of their 4
  // entries (rocke/aot_catalog/gfx1151/aot_op_<i>/), and an adapter binding their names
  // (src/engines/aot_catalog_engine/ops/AotOp<i>Adapter.cpp).
  int aotFamilies = 0;
};

// Creates the repository under dir (which must not exist). Returns the path of the builder
// the feature branch edits (repository-relative).
std::string generateMonorepo(const std::string& dir, const GeneratorSize& size);

// The tree of issue 37's report (another shape): ~20k files of which ~13.7k are surface files
// under dnn-providers/ and projects/hipdnn/ — 6.9k C++ and 6.8k Python (times `scale`), 100
// profile YAMLs, 6.7k Markdown — and a 3-file change on the feature branch (a builder gains an
// argument, its pack follows, its profile changes; the pin does not follow).
std::string generateSurfaceMonorepo(const std::string& dir, int scale = 1);

std::string builderModule(int i);  // "…/kernels/gfx950/op_<i>.py"
std::string pinFile(int i);        // "…/TestGfx950Op<i>Signature.cpp"

}  // namespace impact::bench
