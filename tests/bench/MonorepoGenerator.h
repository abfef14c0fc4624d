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
};

// Creates the repository under dir (which must not exist). Returns the path of the builder
// the feature branch edits (repository-relative).
std::string generateMonorepo(const std::string& dir, const GeneratorSize& size);

std::string builderModule(int i);  // "…/kernels/gfx950/op_<i>.py"
std::string pinFile(int i);        // "…/TestGfx950Op<i>Signature.cpp"

}  // namespace impact::bench
