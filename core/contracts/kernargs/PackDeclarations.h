// Which C++ pack file holds the copies of which builders, by the declarations that say so
// (SPEC R2.3): a shipped KDP (its launches' `kernel_source` name the builders; its dispatch
// symbol, or its `name`'s `hipkernel.<slug>.` symbols, name the pack that holds them) and a
// generator config (each pack's `source` + `builder`, for the engine it serves; the engine's
// pack is the file that defines the function the ingestor's pack table registers for that
// engine — `{"hipkernel:X", &registerXSymbols}` —, else the file defining `register<X>Symbols`,
// else `<X>Native.cpp` in the packs folder, said so). Read by pairKernargs after the profiles'
// launch_surface entries and before the file-name conventions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/TreeFacts.h"
#include "model/Layout.h"

namespace impact::kernargs_detail {

struct PackDeclaration {
  std::string pairedBy;  // "KDP <path> kernel_source" | "generator config <path> pack <engine>"
  std::string path;      // the declaring file
  std::string packVia;   // how the pack file was found ("defines registerXSymbols, which ... registers for ...")
  bool byFileName = false;  // the pack file was found by its name only
  std::vector<std::pair<std::string, std::string>> builders;  // (module path, builder name) it names
  std::vector<std::string> archs;
};

// By C++ pack file: the declarations naming builders whose copies it holds, KDPs first.
std::map<std::string, std::vector<PackDeclaration>> packDeclarations(const TreeFacts& facts, const Layout& layout);

struct PackFile {
  std::string path;
  std::string via;
  bool byFileName = false;
};

// The C++ file that is an engine's pack ("hipkernel:Gfx950ConvFwd"), by the declarations above.
std::optional<PackFile> enginePackFile(const TreeFacts& facts, const Layout& layout, const std::string& engine);

}  // namespace impact::kernargs_detail
