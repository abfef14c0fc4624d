#include "contracts/Kernargs.h"

#include "contracts/CatalogPairing.h"
#include "contracts/DeclaredSurfaces.h"
#include "contracts/kernargs/ArgListDiff.h"
#include "contracts/kernargs/NameKeyedPairing.h"
#include "contracts/kernargs/PackDeclarations.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <map>
#include <cstring>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

// Pairing each copy with its builder: by name, by file affinity, by declared surface, by catalog.

namespace impact {
using namespace kernargs_detail;

namespace {
std::vector<std::string> names(const std::vector<KernelArg>& args) {
  std::vector<std::string> out;
  for (const auto& a : args)
    if (!a.name.empty()) out.push_back(a.name);
  return out;
}

// How many of the copy's names the builder's closest list shares; and whether one list
// (or the list without its conditional arguments) has exactly the copy's names in order.
struct NameMatch {
  size_t common = 0;
  bool exact = false;
};

// The copy's named arguments in order, against one builder list's named arguments (all of them,
// or the unconditional ones only): the same names in the same order.
bool sameNames(const std::vector<std::string_view>& cn, const std::vector<KernelArg>& args, bool unconditionalOnly) {
  size_t k = 0;
  for (const auto& a : args) {
    if (a.name.empty() || (unconditionalOnly && a.conditional)) continue;
    if (k == cn.size() || cn[k] != a.name) return false;
    ++k;
  }
  return k == cn.size();
}

NameMatch nameMatch(const PyBuilder& b, const CppArgList& copy) {
  // Asked for every candidate builder of every copy: no copy of either list is made.
  NameMatch best;
  std::vector<std::string_view> cn, cs;
  for (const auto& a : copy.args)
    if (!a.name.empty()) cn.push_back(a.name);
  cs = cn;
  std::sort(cs.begin(), cs.end());
  cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
  std::vector<std::string_view> full;
  for (const auto& abi : b.abis) {
    if (!cn.empty() && (sameNames(cn, abi.args, false) || sameNames(cn, abi.args, true))) best.exact = true;
    full.clear();
    for (const auto& a : abi.args)
      if (!a.name.empty()) full.push_back(a.name);
    std::sort(full.begin(), full.end());
    full.erase(std::unique(full.begin(), full.end()), full.end());
    size_t common = 0;  // distinct names of the list the copy has
    for (auto x = full.begin(), y = cs.begin(); x != full.end() && y != cs.end();) {
      if (*x < *y) ++x;
      else if (*y < *x) ++y;
      else ++common, ++x, ++y;
    }
    best.common = std::max(best.common, common);
  }
  return best;
}

bool related(const NameMatch& m, const CppArgList& copy) {
  size_t own = names(copy.args).size();
  return m.exact || (m.common >= 2 && 2 * m.common >= own);
}

// The first builder whose names the copy matches exactly, and the related one sharing the most.
std::pair<std::optional<BuilderRef>, std::optional<BuilderRef>> bestByNames(const std::vector<BuilderRef>& cands,
                                                                            const CppArgList& list) {
  std::optional<BuilderRef> exact, closest;
  size_t bestCommon = 0;
  for (const auto& b : cands) {
    NameMatch nm = nameMatch(*b.builder, list);
    if (nm.exact && !exact) exact = b;
    if (related(nm, list) && nm.common > bestCommon) {
      bestCommon = nm.common;
      closest = b;
    }
  }
  return {exact, closest};
}

// Lower-case letters and digits only.
std::string squash(std::string_view s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// What a builder's module and name look like inside a file name ("attentiondense").
struct AffinityTokens {
  std::string module, name;
};

AffinityTokens affinityTokens(const BuilderRef& b) {
  auto ms = b.path.rfind('/');
  std::string module = b.path.substr(ms == std::string::npos ? 0 : ms + 1);
  if (module.ends_with(".py")) module.resize(module.size() - 3);
  AffinityTokens t{squash(module), squash(b.builder->name)};
  if (t.name.rfind("build", 0) == 0) t.name = t.name.substr(5);
  return t;
}

std::string squashedFileName(const std::string& path) {
  auto slash = path.rfind('/');
  return squash(path.substr(slash == std::string::npos ? 0 : slash + 1));
}

// Which builders a copy's file (squashed name) is named after: the builder's module or its own
// name (tokens of 3 characters or more) appears in the file name. The builders' tokens are in a
// hash map, looked up for every substring of the file name of a token's length (a file name is
// short, the builders many); the builders' indexes come out in order.
class AffinityIndex {
 public:
  explicit AffinityIndex(const std::vector<AffinityTokens>& tokens) {
    for (size_t i = 0; i < tokens.size(); ++i)
      for (const std::string* t : {&tokens[i].module, &tokens[i].name}) {
        if (t->size() < 3) continue;
        auto& ids = byToken_[*t];
        if (ids.empty() || ids.back() != i) ids.push_back(i);
        lengths_.insert(t->size());
      }
  }
  std::vector<size_t> matching(const std::string& file) const {
    std::vector<size_t> out;
    for (size_t len : lengths_)
      for (size_t at = 0; at + len <= file.size(); ++at) {
        auto it = byToken_.find(absl::string_view(file.data() + at, len));
        if (it == byToken_.end()) continue;
        // "op1" must not claim Gfx950Op12Native.cpp: a match ending in a digit may not run into more.
        size_t end = at + len;
        if (end < file.size() && std::isdigit(static_cast<unsigned char>(file[end])) &&
            std::isdigit(static_cast<unsigned char>(file[end - 1])))
          continue;
        out.insert(out.end(), it->second.begin(), it->second.end());
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

 private:
  absl::flat_hash_map<std::string, std::vector<size_t>> byToken_;
  std::set<size_t> lengths_;
};

std::string formName(CppArgList::Form f) {
  switch (f) {
    case CppArgList::Form::Static: return "static";
    case CppArgList::Form::Lambda: return "lambda";
    case CppArgList::Form::Launch: return "launch";
    case CppArgList::Form::NameKeyed: return "name_keyed";
    case CppArgList::Form::Names: return "names";
  }
  return "";
}

struct Declared {
  std::string manifest;
  std::string module, builder, sourceModule, symbol;
  bool test = false;
  std::string manifestBuilder;  // the manifest's own `builder:` (in sourceModule)
  std::string entry;            // the launch_surface entry's name
};

bool symbolMatches(const std::string& want, const std::string& have) {
  if (want.empty()) return true;
  if (want == have) return true;
  auto tail = [](const std::string& s) {
    auto p = s.rfind("::");
    return p == std::string::npos ? s : s.substr(p + 2);
  };
  return tail(want) == tail(have) && (want.find("::") == std::string::npos || have.find("::") == std::string::npos);
}

std::string stem(const std::string& path) {
  auto slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  auto dot = base.find('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

// Declared kernargs surfaces by C++ file (the mirror, and the entry's test): every entry whose
// two sides hold what a pair compares, whatever its name (contracts/DeclaredSurfaces).
std::map<std::string, std::vector<Declared>> declaredByFile(const TreeFacts& facts, const Layout& layout) {
  std::map<std::string, std::vector<Declared>> declared;
  for (const DeclaredSurface& ds : declaredSurfaces(facts, layout)) {
    if (!ds.kernargs) continue;
    const SurfaceEntry& s = *ds.entry;
    Declared d{ds.manifest, ds.module, ds.builder, ds.sourceModule, s.cppSymbol, false, ds.profile->builder, s.name};
    if (!s.cppPath.empty()) declared[s.cppPath].push_back(d);
    if (!s.testPath.empty()) {
      d.test = true;
      d.symbol.clear();
      declared[s.testPath].push_back(d);
    }
  }
  return declared;
}

// Pairs a copy of a pack file with a builder its declarations (KDPs, generator configs:
// PackDeclarations.h) name: a named list with the one whose names it matches (exactly, else the
// closest related), an unnamed list or a launch call with the only one (of several: the only one
// with a list of the launch's length). `missing` collects builders a declaration names that the
// tree does not have. True when paired.
template <class FindBuilder>
bool pairThroughPack(const std::vector<PackDeclaration>& decls, const FindBuilder& findBuilder, KernargsPair& p,
                     std::vector<std::string>& missing) {
  const CppArgList& list = *p.copy.list;
  const bool named = list.named && list.form != CppArgList::Form::Launch;
  for (const PackDeclaration& d : decls) {
    std::vector<BuilderRef> cands;
    for (const auto& [module, name] : d.builders) {
      if (auto b = findBuilder(module, name)) cands.push_back(*b);
      else missing.push_back(absl::StrCat(name, " (named by ", d.pairedBy, ") not found in ", module));
    }
    if (cands.empty()) continue;
    std::optional<BuilderRef> chosen;
    std::string how;
    if (list.form == CppArgList::Form::NameKeyed) {
      KernargsPair trial = p;
      pairNameKeyed(cands, trial);
      chosen = trial.builder;
    } else if (named) {
      auto [exact, closest] = bestByNames(cands, list);
      chosen = exact ? exact : closest;
    } else if (cands.size() == 1) {
      chosen = cands[0];
    } else if (list.openTail.empty()) {
      // Several builders (a multi-launch pack): the one whose list has the launch's length.
      std::vector<const BuilderRef*> sameLength;
      for (const auto& b : cands)
        for (const auto& abi : b.builder->abis)
          if (abi.args.size() == list.args.size() && abi.tailHelper.empty()) {
            sameLength.push_back(&b);
            break;
          }
      if (sameLength.size() == 1) {
        chosen = *sameLength[0];
        how = absl::StrCat(" (of its ", cands.size(), " builders, the one with ", list.args.size(), " arguments)");
      }
    }
    if (!chosen) continue;
    p.builder = chosen;
    p.pairedBy = d.pairedBy + (d.byFileName ? " (pack found by its file name)" : "");
    p.declaration = d.path;
    p.declaredArchs = d.archs;
    p.note = absl::StrCat("paired through ", d.pairedBy, ": the pack ", d.packVia, how);
    return true;
  }
  return false;
}

}  // namespace

std::vector<KernargsPair> pairKernargs(const TreeFacts& facts, const Layout& layout, std::vector<KernargsPair>* unpaired) {
  // What pairs with nothing is said, never dropped (accounting): `unpaired`, with why.
  auto leave = [&](KernargsPair&& p, std::string why) {
    if (!unpaired) return;
    if (p.note.empty()) p.note = std::move(why);
    unpaired->push_back(std::move(p));
  };
  // Builders by module.
  std::map<std::string, std::vector<BuilderRef>> byModule;
  std::vector<BuilderRef> all;
  for (const auto& [path, f] : facts.files)
    for (const auto& b : f->builders) {
      byModule[path].push_back({path, &b});
      all.push_back({path, &b});
    }
  std::vector<AffinityTokens> allTokens;
  std::vector<std::string> allArchs;
  allTokens.reserve(all.size());
  allArchs.reserve(all.size());
  for (const auto& b : all) allTokens.push_back(affinityTokens(b)), allArchs.push_back(archFromPath(b.path));
  // The builders a file is named after (AffinityIndex), by the file's path: asked once per file,
  // not once per list of it.
  const AffinityIndex affinity(allTokens);
  std::map<std::string, std::vector<BuilderRef>, std::less<>> affineByFile;
  auto affineTo = [&](const std::string& path) -> const std::vector<BuilderRef>& {
    auto [it, fresh] = affineByFile.try_emplace(path);
    if (fresh)
      for (size_t i : affinity.matching(squashedFileName(path))) it->second.push_back(all[i]);
    return it->second;
  };
  auto findBuilder = [&](const std::string& module, const std::string& name) -> std::optional<BuilderRef> {
    auto it = byModule.find(module);
    if (it == byModule.end()) return std::nullopt;
    for (const auto& b : it->second)
      if (b.builder->name == name || b.builder->name.ends_with("." + name)) return b;
    return std::nullopt;
  };

  const std::map<std::string, std::vector<Declared>> declared = declaredByFile(facts, layout);
  // Packs the shipped KDPs and the generator configs name, with the builders they name.
  const std::map<std::string, std::vector<PackDeclaration>> packDecls = packDeclarations(facts, layout);
  const ShippedIndex shipped = shippedVariants(facts, layout);
  // For every surface entry, the builders its python_source names, by the C++ file its cpp_mirror
  // names (a launch no entry declares pairs with the single builder they name).
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> namedWithFile;
  for (const auto& [path, f] : facts.files) {
    if (!f->manifest) continue;
    const Manifest& m = *f->manifest;
    Layout l = layout;
    if (!m.providerRoot.empty()) l.libraryRoot = m.providerRoot + "/rocke/library";
    for (const auto& s : m.surfaces)
      if (!s.cppPath.empty() && !s.pythonSymbol.empty())
        namedWithFile[s.cppPath].emplace_back(path, absl::StrCat(l.libraryPath(s.pythonPath), "|", s.pythonSymbol));
  }

  // The one b.param builder the profile entries naming `file` as their cpp_mirror name (the gfx950
  // conv profile names the Native for kernelFits, workspaceBytes, score and the builder
  // build_implicit_gemm_conv for pointer_nonalias and workspace), with the profile; none when
  // they name none or several.
  auto profileBuilderOfFile = [&](const std::string& file) -> std::optional<std::pair<BuilderRef, std::string>> {
    std::map<std::string, std::pair<BuilderRef, std::string>> found;  // by builder key: builder, manifest
    if (auto it = namedWithFile.find(file); it != namedWithFile.end())
      for (const auto& [manifest, located] : it->second) {
        auto bar = located.find('|');
        auto fb = findBuilder(located.substr(0, bar), located.substr(bar + 1));
        if (fb && fb->builder->style == PyBuilder::Style::Params) found.emplace(fb->key(), std::pair{*fb, manifest});
      }
    if (found.size() != 1) return std::nullopt;
    return found.begin()->second;
  };
  // Pairs `p` with the one builder the profile's entries name for its file. A launch's row says
  // so in its message (it has no names of its own to pair by).
  auto pairByProfileFile = [](KernargsPair& p, const std::pair<BuilderRef, std::string>& named) {
    const auto& [fb, manifest] = named;
    p.builder = fb;
    p.pairedBy = absl::StrCat("profile ", manifest, " launch_surface entries naming this file");
    p.declaration = manifest;
    p.note = p.copy.list->form != CppArgList::Form::Launch
                 ? ""
                 : absl::StrCat("paired through ", manifest.substr(manifest.rfind('/') + 1),
                                ", whose entries name this file and one builder, ", fb.path, ":", fb.builder->name);
  };

  std::vector<KernargsPair> out;
  std::map<std::string, std::string> builderOfFile;  // C++ file -> builder key its named lists paired with
  std::map<std::string, BuilderRef> builderByKey;
  // C++ file -> the declaring file of the pairing that set builderOfFile ("" by names): a copy
  // paired through the file (a pin through its pack's name) depends on it too.
  std::map<std::string, std::string> declarationOfFile;
  std::vector<KernargsPair> pendingByFileName;

  for (const auto& [path, f] : facts.files) {
    std::map<std::string, int> ordinals;
    for (const auto& list : f->lists) {
      KernargsPair p;
      std::string base = absl::StrCat(path, "|", formName(list.form), "|", list.symbol, "|", list.variable);
      p.copy = {path, &list, absl::StrCat(base, "|", ordinals[base]++)};
      const bool named = list.named && list.form != CppArgList::Form::Launch;

      const auto packIt = packDecls.find(path);
      std::vector<std::string> missing;  // builders a pack declaration names that the tree lacks

      // A name-keyed check of a recipe's launch plan: by the names it accepts, order-free; among
      // the builders its pack's declarations name first.
      if (list.form == CppArgList::Form::NameKeyed) {
        if (packIt == packDecls.end() || !pairThroughPack(packIt->second, findBuilder, p, missing)) {
          pairNameKeyed(all, p);
          p.pairedBy = "argument names (a name-keyed check)";
        }
        if (p.builder) out.push_back(std::move(p));
        else leave(std::move(p), "pairs with no builder: no declaration names this pack, and no builder declares the names it checks");
        continue;
      }

      // A real catalog entry names no builder: its folder and symbol do (CatalogPairing).
      if (list.catalog && !list.builderHint) {
        std::string note;
        // Its family's producer builds it: paired with that builder, compared under that spec.
        if (auto cp = catalogProduced(facts, path, list, note, p.unbuilt)) {
          p.builder = cp->builder;
          p.ownBuilder = cp->decided;
          p.builder->builder = p.ownBuilder.get();
          p.ownList = cp->copy;
          p.copy.list = p.ownList.get();
          p.pairedBy = cp->pairedBy;
          p.declaration = cp->producer->path;
          p.note = cp->note;
          p.unbuilt = cp->unbuilt;
        } else if (!note.empty()) {
          p.note = note;
        } else if (auto cb = catalogBuilder(facts, layout, *list.catalog, note)) {
          p.builder = cb;
          std::string writer = catalogWrittenBy(facts, path, list.catalog->symbol);
          p.pairedBy = absl::StrCat("catalog ", path, " folder and symbol",
                                    writer.empty() ? "" : "; written by generator " + writer);
          p.declaration = path;
        } else {
          p.note = note;
        }
        out.push_back(std::move(p));
        continue;
      }

      // A descriptor copy that names its builder pairs with it first.
      if (list.builderHint) {
        const auto& h = *list.builderHint;
        std::optional<BuilderRef> hb;
        if (!h.source.empty()) hb = findBuilder(layout.libraryPath(h.source), h.builder);
        if (!hb) {
          std::string arch = archFromPath(path);
          for (const auto& b : all)
            if (b.builder->name == h.builder && (!hb || (!arch.empty() && archFromPath(b.path) == arch))) hb = b;
        }
        if (hb) {
          p.builder = hb;
          const FileFacts* df = facts.find(path);
          p.pairedBy = absl::StrCat(df && df->descriptor && df->descriptor->type == "kdp" ? "KDP " : "descriptor ", path,
                                    " kernel_source");
          p.declaration = path;
          out.push_back(std::move(p));
          continue;
        }
        if (!named) {
          p.note = absl::StrCat("builder ", h.builder, " named by the descriptor not found",
                                h.source.empty() ? "" : " in " + layout.libraryPath(h.source));
          out.push_back(std::move(p));
          continue;
        }
      }

      const Declared* decl = nullptr;
      if (auto it = declared.find(path); it != declared.end())
        for (const auto& d : it->second)
          if (symbolMatches(d.symbol, list.symbol)) { decl = &d; break; }

      if (decl) {
        p.declared = true;
        p.manifest = decl->manifest;
        p.pairedBy = absl::StrCat("profile ", decl->manifest, " launch_surface ", decl->entry);
        p.declaration = decl->manifest;
        auto declaredBuilder = findBuilder(decl->module, decl->builder);
        // A surface naming a SignatureBuilder restatement (`attention_dense_signature`), or a
        // symbol that is no builder: the copy states the ABI the kernel declares, so it pairs
        // with the manifest's builder (its `b.param` list) when that one is found.
        if ((!declaredBuilder || declaredBuilder->builder->style == PyBuilder::Style::SignatureBuilder) &&
            !decl->manifestBuilder.empty()) {
          std::optional<BuilderRef> own;
          for (const std::string& mod : {decl->module, decl->sourceModule})
            if (!own && !mod.empty()) own = findBuilder(mod, decl->manifestBuilder);
          if (own && own->builder->style == PyBuilder::Style::Params) declaredBuilder = own;
        }
        if (!named) {
          if (declaredBuilder) p.builder = declaredBuilder;
          else p.note = absl::StrCat("declared builder ", decl->builder, " not found in ", decl->module);
        } else {
          // The declared builder first, then the builder whose names match in the surface's
          // module and the manifest's source module, then the closest related one.
          std::vector<BuilderRef> cands;
          if (declaredBuilder) cands.push_back(*declaredBuilder);
          for (const std::string& mod : {decl->module, decl->sourceModule})
            if (auto it = byModule.find(mod); it != byModule.end())
              for (const auto& b : it->second)
                if (!declaredBuilder || b.key() != declaredBuilder->key()) cands.push_back(b);
          auto [exact, closest] = bestByNames(cands, list);
          if (declaredBuilder && related(nameMatch(*declaredBuilder->builder, list), list)) p.builder = declaredBuilder;
          else if (exact) p.builder = exact;
          else if (closest) p.builder = closest;
          else p.note = absl::StrCat("shares too few names with ", decl->builder, " (or any builder of ",
                                     decl->module, ") to compare");
        }
      } else if (packIt != packDecls.end() && pairThroughPack(packIt->second, findBuilder, p, missing)) {
        // Paired through a KDP or generator config naming this pack (PackDeclarations.h): the
        // pack's entry point. Where the profile's entries name this file with one other builder
        // (the entry point dispatches: gfx950_conv_fwd's build_gfx950_conv_fwd returns
        // build_implicit_gemm_conv's kernel), that one is the more specific declaration.
        auto fromProfile = profileBuilderOfFile(path);
        if (fromProfile && fromProfile->first.key() != p.builder->key() &&
            (!named || related(nameMatch(*fromProfile->first.builder, list), list)))
          pairByProfileFile(p, *fromProfile);
      } else if (named) {
        // A file the profile's entries name, with one builder: that builder, when the names relate.
        auto fromProfile = profileBuilderOfFile(path);
        if (fromProfile && related(nameMatch(*fromProfile->first.builder, list), list)) {
          pairByProfileFile(p, *fromProfile);
        } else {
          // A Python copy (attention_dense_signature) restates a builder of its own module; else
          // builders whose module the copy's file is named after come first (many kernels
          // share argument names): Gfx950AttentionDenseNative.cpp <-> attention_dense.py.
          std::vector<BuilderRef> affine;
          bool ownModule = false;
          if (auto own = byModule.find(path); own != byModule.end() && f->kind == FileKind::Python) {
            affine = own->second;
            ownModule = true;
          }
          if (affine.empty()) affine = affineTo(path);
          auto [exact, closest] = bestByNames(affine, list);
          if (!exact && !closest) std::tie(exact, closest) = bestByNames(all, list);
          if (exact) p.builder = exact;
          else if (closest) {
            p.builder = closest;
            // A Python copy restates its own module's builder: no other builder was in question.
            if (!ownModule) p.note = absl::StrCat("matches no builder; compared with the closest, ", closest->builder->name);
          } else if (!missing.empty()) {
            p.note = absl::StrJoin(missing, "; ");  // a declaration names a builder the tree lacks
            out.push_back(std::move(p));
            continue;
          } else {  // not a copy of any known builder
            leave(std::move(p), "pairs with no builder: no profile, KDP or generator config names this file, and no builder shares its argument names");
            continue;
          }
          p.pairedBy = ownModule ? "argument names (a copy in the builder's own module)" : "argument names";
        }
      } else {
        if (!missing.empty()) p.note = absl::StrJoin(missing, "; ");
        pendingByFileName.push_back(std::move(p));
        continue;
      }
      if (p.builder && (named || !p.declaration.empty())) {
        builderOfFile.emplace(path, p.builder->key());
        builderByKey.emplace(p.builder->key(), *p.builder);
        declarationOfFile.emplace(path, p.declaration);
      }
      if (p.builder && p.declared) {
        builderOfFile.emplace(path, p.builder->key());
        builderByKey.emplace(p.builder->key(), *p.builder);
      }
      out.push_back(std::move(p));
    }
  }

  // Unnamed lists and launch calls outside any manifest: pair through the file name
  // (Test<Name>Signature.cpp <-> <Name>Native.cpp), or with the builder the same file's named
  // lists paired with.
  std::map<std::string, std::string> keyByNativeStem;  // "Gfx950FooNative" -> the key of its file's builder
  std::map<std::string, std::string> fileByNativeStem;
  for (const auto& [file, key] : builderOfFile)  // the first file wins
    if (keyByNativeStem.emplace(stem(file), key).second) fileByNativeStem.emplace(stem(file), file);
  for (auto& p : pendingByFileName) {
    std::optional<BuilderRef> b;
    // A launch in a file the profile's entries name goes with their one builder first: the
    // declaration says so, the file's other lists only suggest it.
    if (auto named = p.copy.list->form == CppArgList::Form::Launch ? profileBuilderOfFile(p.copy.path) : std::nullopt) {
      pairByProfileFile(p, *named);
      b = p.builder;
    }
    if (auto it = builderOfFile.find(p.copy.path); !b && it != builderOfFile.end()) {
      b = builderByKey.at(it->second);
      p.pairedBy = "the builder of the file's other lists";
      p.declaration = declarationOfFile[p.copy.path];
    }
    if (!b) {
      std::string s = stem(p.copy.path);
      std::string name = s;
      if (name.starts_with("Test")) name = name.substr(4);
      for (const char* suffix : {"Signature", "Geometry", "Matchers", "Packs", "Native"})
        if (name.ends_with(suffix) && name.size() > std::strlen(suffix)) {
          name = name.substr(0, name.size() - std::strlen(suffix));
          break;
        }
      if (auto it = keyByNativeStem.find(name + "Native"); it != keyByNativeStem.end()) {
        b = builderByKey.at(it->second);
        p.declaration = declarationOfFile[fileByNativeStem.at(name + "Native")];
      }
      if (b) {
        p.note = absl::StrCat("paired through the file name with ", name, "Native.cpp");
        p.pairedBy = absl::StrCat("file name convention (", name, "Native.cpp)");
      }
    }
    // A launch call no manifest declares, in a file named after a module of its arch
    // (Gfx942AttentionDenseNative.cpp <-> kernels/gfx942/attention_dense.py): that module's one
    // public b.param builder.
    if (!b && p.copy.list->form == CppArgList::Form::Launch) {
      const std::string arch = archFromPath(p.copy.path);
      std::vector<size_t> hits;
      for (size_t i : arch.empty() ? std::vector<size_t>{} : affinity.matching(squashedFileName(p.copy.path))) {
        const PyBuilder& pb = *all[i].builder;
        if (pb.style != PyBuilder::Style::Params || pb.name.starts_with("_") || pb.name.find('.') != std::string::npos)
          continue;
        if (allArchs[i] == arch) hits.push_back(i);
      }
      if (hits.size() == 1) {
        b = all[hits[0]];
        p.note = absl::StrCat("paired through the file name with ", b->path, ":", b->builder->name);
        p.pairedBy = absl::StrCat("file name convention (", b->path, ")");
      }
    }
    if (!b) {
      if (!p.note.empty()) out.push_back(std::move(p));  // a declaration names a builder the tree lacks
      else
        leave(std::move(p), absl::StrCat("pairs with no builder: no profile, KDP or generator config names this file, its "
                                         "file has no list that paired, and no <Name>Native.cpp nor module of its arch "
                                         "matches its file name"));
      continue;
    }
    p.builder = b;
    out.push_back(std::move(p));
  }
  // The shipped variants of each pair's builder (they decide conditional arguments, R2.2).
  for (auto& p : out)
    if (p.builder)
      p.shipped = shippedFor(shipped, p.builder->path, p.builder->builder->name,
                             p.builder->builder->style == PyBuilder::Style::SignatureBuilder);
  return out;
}

}  // namespace impact
