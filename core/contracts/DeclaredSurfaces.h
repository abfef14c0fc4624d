// Which launch_surface entries of the profiles declare a kernargs pair (SPEC R2.3): an entry
// is one when its two sides hold what a kernargs pair compares — a builder (b.param lists or a
// SignatureBuilder chain) on the Python side, a launch call or a KernelArgument list on the
// C++ side — whatever its `name` (`kernargs`, `kernargs_and_execution`, ...). An entry named
// `kernargs` stays declared even when a side holds nothing comparable; `notCompared` then
// says which side and why (a row, core/judge/LaunchSurfaceRows.cpp). python_source paths are
// resolved against the profile's rocke/library, `..` included (Layout::libraryPath).
#pragma once

#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "model/Facts.h"
#include "model/Layout.h"

namespace impact {

struct DeclaredSurface {
  std::string manifest;             // the profile's path
  const Manifest* profile = nullptr;
  const SurfaceEntry* entry = nullptr;
  std::string module;               // python_source's module (repository path); "" for prose
  std::string builder;              // the builder it names: its symbol, else the profile's builder
  std::string sourceModule;         // the profile's `source:` module (repository path), or ""
  std::string pythonBuilder;        // the builder found on the Python side ("" when none)
  std::vector<const CppArgList*> copies;  // what the C++ side holds that a pair compares
  bool kernargs = false;            // the entry declares a kernargs pair
  std::string notCompared;          // named kernargs, but a side holds nothing comparable: why
};

// Every launch_surface entry of every profile of the tree, classified.
std::vector<DeclaredSurface> declaredSurfaces(const TreeFacts& facts, const Layout& layout);

// The layout whose library root is the profile's `provider_root`'s rocke/library.
Layout profileLayout(const Manifest& m, const Layout& layout);

}  // namespace impact
