// Pairing a real AOT catalog entry with its builder (DOMAIN.md §6). A catalog
// (`rocke/aot_catalog/<arch>/<family>/family.json`) names no builder: the folder's arch and
// family name the module (`kernels/<arch>/<family>.py`, else the family with trailing `_word`s
// dropped: attention_dense_prefill -> attention_dense), and the entry's `symbol`
// (`rocke_` + the kernel name) the builder in it. Which of the builder's lists an entry
// restates is its variant's: `_persist<N>` in the symbol selects the persistent early return
// (CppArgList::spec carries `persistent`, read by compareCopy).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/Kernargs.h"
#include "model/Layout.h"

namespace impact {

// The module a catalog family restates ("" when none of the candidates exists); `tried`
// receives the candidates in the order they were looked for.
std::string catalogModule(const TreeFacts& facts, const Layout& layout, const std::string& arch,
                          const std::string& family, std::vector<std::string>* tried = nullptr);

// An entry explained by its family's producer (AotProducers.h): the kernel the producer builds
// under the entry's `symbol`, its builder, and the entry as a copy of that kernel's list (its spec
// the producer's: conditional arguments decided by it). `note` is set when the folder has a
// producer but none explains the entry (and why), or how it paired when not by its own symbol.
struct CatalogProduced {
  BuilderRef builder;
  const AotProducer* producer = nullptr;
  const AotProduced* kernel = nullptr;
  std::shared_ptr<const CppArgList> copy;  // the entry with the kernel's spec (and names, below)
  // The builder with the conditional arguments that spec decides decided (on: unconditional; off:
  // left out), so positions are the shipped list's. An entry whose every name is one of the
  // builder's speaks its vocabulary: its names are compared too (a swap of two i32 is a break).
  std::shared_ptr<const PyBuilder> decided;
  std::string pairedBy, note;
  bool unbuilt = false;   // no kernel the producer builds has the entry's symbol (compared with the nearest)
  std::string writtenBy;  // the generator that writes the entry, when the producer names no kernel so
};

// The generator (a script of the family folder or the arch folder above it whose run builds
// catalog entries) that writes the entry `symbol` of this catalog; "" when none does.
std::string catalogWrittenBy(const TreeFacts& facts, const std::string& catalogPath, const std::string& symbol);
// Nothing (note empty) when the folder has no producer: the entry pairs by folder and symbol.
// `unbuilt` is set when nothing is returned because the producer builds no kernel of the entry's
// symbol though a generator writes the entry (its .co is not written).
std::optional<CatalogProduced> catalogProduced(const TreeFacts& facts, const std::string& catalogPath,
                                               const CppArgList& entry, std::string& note, bool& unbuilt);

// The builder an entry restates, or nothing with `note` saying what was looked for.
std::optional<BuilderRef> catalogBuilder(const TreeFacts& facts, const Layout& layout,
                                         const CppArgList::CatalogEntry& entry, std::string& note);

}  // namespace impact
