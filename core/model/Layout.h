// Where things live in the monorepo (DOMAIN.md §1). Defaults match the real repository;
// every path is repository-relative and can be overridden.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

struct Layout {
  std::string providerRoot = "dnn-providers/hip-kernel-provider";
  // Python kernel library (descriptor `source` and manifest `python_source` are relative to it).
  std::string libraryRoot = "dnn-providers/hip-kernel-provider/rocke/library";
  // Trees whose files are analysed; everything else is outside the surface.
  std::vector<std::string> pythonRoots = {"dnn-providers/hip-kernel-provider/rocke/",
                                          "dnn-providers/hip-kernel-provider/descriptor-packaging/"};
  // (The AOT catalog's family folders hold the families' GPU tests, which bind the catalog's
  // argument names by hand: extract/cpp/CatalogBindings.)
  std::vector<std::string> cppRoots = {"dnn-providers/hip-kernel-provider/src/",
                                       "projects/hipdnn/plugin_sdk/include/",
                                       "dnn-providers/hip-kernel-provider/rocke/aot_catalog/"};
  std::vector<std::string> manifestRoots = {"projects/hipdnn/tools/IngestorGenerator/configs/"};
  std::vector<std::string> descriptorRoots = {"dnn-providers/hip-kernel-provider/"};
  // Python import roots (sys.path entries): a module's dotted name is its path below one.
  std::vector<std::string> importRoots = {"dnn-providers/hip-kernel-provider/rocke/library",
                                          "dnn-providers/hip-kernel-provider/rocke/platform/python",
                                          "dnn-providers/hip-kernel-provider/descriptor-packaging/python"};
  // The generic-target table (JSON: generic name -> ordered member archs). Its file name must
  // end in generic_targets.json. A missing table is a note, not an error.
  std::string genericTargetTable = "dnn-providers/hip-kernel-provider/descriptor-packaging/generic_targets.json";
  std::string packsDir = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";
  // `.impactd.yaml` `geometry:`: per family (its profile's slug), a geometry call-site argument
  // impactd cannot resolve (as written, whitespace collapsed) -> a C++ expression of the header's
  // other parameters that computes it (the geometry differential, emitter/geometry/).
  std::map<std::string, std::map<std::string, std::string>> geometryDeclarations;
  // ... or `{metadata: <key>}`: fed from the variant's metadata field (an argument the pack takes
  // from the run-time problem, compared at the shape the variant was built for).
  std::map<std::string, std::map<std::string, std::string>> geometryMetadata;

  // Is the file one impactd extracts facts from?
  bool analysed(std::string_view path) const;
  // Can a folder ("a/b/", with the '/') hold an analysed file, at any depth? A snapshot lists
  // only such folders (git/Snapshot.h FolderScope): the rest of a monorepo is never walked.
  bool mayHoldAnalysed(std::string_view folder) const;
  // "kernels/gfx950/a.py" -> "<libraryRoot>/kernels/gfx950/a.py"; a path that climbs out of
  // the library ("../platform/python/rocke/x.py", as real profiles write it) is resolved:
  // "<providerRoot>/rocke/platform/python/rocke/x.py".
  std::string libraryPath(std::string_view relative) const;
};

// "a/b/../c/./d" -> "a/c/d" (a ".." above the first component is kept).
std::string normalizedPath(std::string_view path);

// The architecture a path names: ".../kernels/gfx950/x.py" -> "gfx950",
// "Gfx942FooNative.cpp" -> "gfx942"; "" when none.
std::string archFromPath(std::string_view path);

}  // namespace impact
