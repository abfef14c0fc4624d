#include "contracts/CatalogPairing.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/AotProducers.h"
#include "contracts/kernargs/Guards.h"

namespace impact {

std::string catalogModule(const TreeFacts& facts, const Layout& layout, const std::string& arch,
                          const std::string& family, std::vector<std::string>* tried) {
  std::string stem = family;
  if (!arch.empty() && stem.ends_with("_" + arch)) stem.resize(stem.size() - arch.size() - 1);
  while (!stem.empty()) {
    std::string module = layout.libraryPath("kernels/" + arch + "/" + stem + ".py");
    if (tried) tried->push_back(module);
    if (const FileFacts* f = facts.find(module); f && f->kind == FileKind::Python) return module;
    auto us = stem.rfind('_');
    if (us == std::string::npos) break;
    stem.resize(us);
  }
  return "";
}

std::optional<BuilderRef> catalogBuilder(const TreeFacts& facts, const Layout& layout,
                                         const CppArgList::CatalogEntry& entry, std::string& note) {
  std::vector<std::string> tried;
  std::string module = catalogModule(facts, layout, entry.arch, entry.family, &tried);
  if (module.empty()) {
    note = absl::StrCat("catalog family ", entry.family, " (", entry.arch, "): no module ",
                        absl::StrJoin(tried, " nor "));
    return std::nullopt;
  }
  const FileFacts* f = facts.find(module);
  // The symbol is `rocke_` + the kernel name, which starts with the builder's op
  // (rocke_attention_dense_d128_... <- build_attention_dense): the longest such op wins; a
  // module with a single public builder needs no symbol to say so.
  std::string kernel = entry.symbol.starts_with("rocke_") ? entry.symbol.substr(6) : entry.symbol;
  const PyBuilder* best = nullptr;
  size_t bestLen = 0;
  std::vector<const PyBuilder*> publicBuilders;
  for (const PyBuilder& b : f->builders) {
    if (b.style != PyBuilder::Style::Params) continue;
    if (b.name.starts_with("_") || b.name.find('.') != std::string::npos) continue;
    publicBuilders.push_back(&b);
    std::string op = b.name.starts_with("build_") ? b.name.substr(6) : b.name;
    bool prefix = !op.empty() && kernel.starts_with(op) &&
                  (kernel.size() == op.size() || kernel[op.size()] == '_');
    if (prefix && op.size() > bestLen) {
      best = &b;
      bestLen = op.size();
    }
  }
  if (!best && publicBuilders.size() == 1) best = publicBuilders[0];
  if (!best) {
    note = absl::StrCat("catalog entry ", entry.symbol, ": no builder of ", module,
                        publicBuilders.empty() ? " declares an argument list" : " is named by its symbol");
    return std::nullopt;
  }
  return BuilderRef{module, best};
}

namespace {
size_t commonPrefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}
}  // namespace

std::string catalogWrittenBy(const TreeFacts& facts, const std::string& catalogPath, const std::string& symbol) {
  const std::string folder = aotFamilyFolder(catalogPath);
  if (folder.empty()) return "";
  // The family folder's scripts, then the arch folder's (a generator may write several families).
  const std::string arch = folder.substr(0, folder.rfind('/', folder.size() - 2) + 1);
  for (const std::string& dir : {folder, arch})
    for (auto it = facts.producers.lower_bound(dir); it != facts.producers.end() && it->first.starts_with(dir); ++it) {
      if (it->first.find('/', dir.size()) != std::string::npos) continue;
      for (const AotWritten& w : it->second->written)
        if (w.symbol == symbol) return it->first;
    }
  return "";
}

std::optional<CatalogProduced> catalogProduced(const TreeFacts& facts, const std::string& catalogPath,
                                               const CppArgList& entry, std::string& note, bool& unbuilt) {
  const std::string folder = aotFamilyFolder(catalogPath);
  if (folder.empty() || !entry.catalog) return std::nullopt;
  std::vector<const AotProducer*> producers;
  for (auto it = facts.producers.lower_bound(folder); it != facts.producers.end() && it->first.starts_with(folder); ++it)
    if (it->first.find('/', folder.size()) == std::string::npos &&
        (!it->second->kernels.empty() || !it->second->notRead.empty()))
      producers.push_back(it->second.get());
  if (producers.empty()) return std::nullopt;
  const std::string& symbol = entry.catalog->symbol;
  const AotProducer* byP = nullptr;
  const AotProduced* byK = nullptr;
  const AotProducer* nearP = nullptr;
  const AotProduced* nearK = nullptr;
  size_t nearLen = 0;
  std::vector<std::string> unread;
  std::set<std::pair<std::string, std::string>> builders;  // every builder the producers call
  for (const AotProducer* p : producers) {
    if (!p->notRead.empty()) unread.push_back(absl::StrCat(p->path, ": ", p->notRead));
    for (const AotProduced& k : p->kernels) {
      builders.insert({k.builderPath, k.builderName});
      if (std::find(k.names.begin(), k.names.end(), symbol) != k.names.end() && !byK) byP = p, byK = &k;
      for (const std::string& n : k.names)
        if (size_t l = commonPrefix(n, symbol); l > nearLen) nearLen = l, nearP = p, nearK = &k;
    }
  }
  CatalogProduced out;
  const std::map<std::string, std::string>* spec = byK ? &byK->spec : nullptr;
  if (!byK) {
    std::string where = absl::StrJoin(producers, ", ", [](std::string* o, const AotProducer* p) { o->append(p->path); });
    if (!unread.empty()) {
      note = absl::StrCat("not compared: the producer could not be read (", absl::StrJoin(unread, "; "), ")");
      return std::nullopt;
    }
    // A generator writes the entry (family.json is its output) and the producer names no kernel
    // at all (its symbols are the compiled artifacts' names, which no reading computes): when every
    // kernel the producer builds is built by one builder, that builder is the entry's, compared
    // under the entry's own variant (its symbol's `_persist<N>`); else the folder and symbol say.
    // A producer that names its kernels and not this one does not write its .co (below).
    // Does the producer name kernels in this catalog's vocabulary (any entry's symbol among its
    // names)? A producer whose names are the artifacts' names none of the entries'.
    std::set<std::string> symbols;
    if (const FileFacts* cf = facts.find(catalogPath))
      for (const CppArgList& l : cf->lists)
        if (l.catalog) symbols.insert(l.catalog->symbol);
    const bool named = std::any_of(producers.begin(), producers.end(), [&](const AotProducer* p) {
      return std::any_of(p->kernels.begin(), p->kernels.end(), [&](const AotProduced& k) {
        return std::any_of(k.names.begin(), k.names.end(), [&](const std::string& n) { return symbols.count(n) > 0; });
      });
    });
    std::string writer = catalogWrittenBy(facts, catalogPath, symbol);
    if (!writer.empty() && !named) {
      if (builders.size() != 1) return std::nullopt;
      for (const AotProducer* p : producers)
        if (!p->kernels.empty()) byP = p, byK = &p->kernels.front();
      out.writtenBy = writer;
    } else if (!nearK || nearLen * 2 < symbol.size()) {
      note = writer.empty()
                 ? absl::StrCat("not compared: no producer or generator explains it (no kernel the producer ", where,
                                " builds is named ", symbol, ", and no generator of the family writes it)")
                 : absl::StrCat("the producer ", where, " builds no kernel named ", symbol,
                                " (its .co is not written), though generator ", writer, " writes the entry");
      unbuilt = !writer.empty();
      return std::nullopt;
    } else {
      // The producer builds no kernel of this symbol (its `.co` is not written): the entry is
      // compared with the kernel whose symbol is nearest (a spec edit renames it: `_sr`), and the
      // row says so.
      out.unbuilt = true;
      out.note = absl::StrCat("the producer builds no kernel named ", symbol, " (its .co is not written); nearest: ",
                              nearK->names.front(), writer.empty() ? "" : "; generator " + writer + " writes the entry");
      byP = nearP;
      byK = nearK;
      spec = &byK->spec;
    }
  }
  const FileFacts* bf = facts.find(byK->builderPath);
  const PyBuilder* b = nullptr;
  if (bf)
    for (const PyBuilder& pb : bf->builders)
      if (pb.name == byK->builderName && pb.style == PyBuilder::Style::Params) b = &pb;
  if (!b) {
    note = absl::StrCat("not compared: builder ", byK->builderName, " of ", byK->builderPath, " is not read");
    return std::nullopt;
  }
  out.builder = BuilderRef{byK->builderPath, b};
  out.producer = byP;
  out.kernel = byK;
  auto copy = std::make_shared<CppArgList>(entry);
  if (spec)
    for (const auto& [k, v] : *spec) copy->spec[k] = v;  // the producer's spec decides
  auto decided = std::make_shared<PyBuilder>(*b);
  std::set<std::string> builderNames;
  for (PyAbi& abi : decided->abis) {
    std::vector<KernelArg> kept;
    for (KernelArg& a : abi.args) {
      builderNames.insert(a.name);
      Truth t = a.conditional ? evalGuard(argGuard(a), copy->spec) : Truth::True;
      if (t == Truth::False) continue;
      if (t == Truth::True && a.conditional) {
        a.conditional = false;
        a.condition.clear();
        a.guard = Guard{};
      }
      kept.push_back(std::move(a));
    }
    abi.args = std::move(kept);
  }
  bool sameVocabulary = !copy->args.empty();
  std::vector<std::string> names;
  for (const KernelArg& a : copy->args) {
    auto colon = a.typeText.rfind(": ");
    names.push_back(colon == std::string::npos ? "" : a.typeText.substr(0, colon));
    sameVocabulary = sameVocabulary && builderNames.count(names.back());
  }
  if (sameVocabulary) {
    for (size_t i = 0; i < copy->args.size(); ++i) copy->args[i].name = names[i];
    copy->named = true;
  }
  out.copy = std::move(copy);
  out.decided = std::move(decided);
  if (!out.writtenBy.empty())
    out.pairedBy = absl::StrCat("generator ", out.writtenBy, " writes ", symbol, "; producer ", byP->path,
                                " builds every kernel with ", byK->builderName, " (line ", byK->at.line + 1,
                                "; the symbol is not computed from a spec)");
  else
    out.pairedBy = absl::StrCat("producer ", byP->path, " builds ", symbol, " with ", byK->builderName,
                                byK->specClass.empty() ? "" : "(" + byK->specClass + ")", " (line ", byK->at.line + 1, ")");
  return out;
}

}  // namespace impact
