#include "contracts/Kernargs.h"

#include "contracts/CatalogPairing.h"
#include "contracts/DeclaredSurfaces.h"
#include "contracts/kernargs/NameKeyedPairing.h"
#include "contracts/kernargs/PackDeclarations.h"
#include "contracts/kernargs/PairingBuilders.h"

#include <cstring>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

// Pairing each copy with its builder: by declaration (a profile's launch_surface entry, a
// descriptor's or catalog's own, a KDP's or generator config's pack), by argument names, by the
// file (its other lists, its name). The builders are looked up through PairingBuilders.h.

namespace impact {
using namespace kernargs_detail;

namespace {
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
bool pairThroughPack(const std::vector<PackDeclaration>& decls, const Builders& builders, KernargsPair& p,
                     std::vector<std::string>& missing) {
  const CppArgList& list = *p.copy.list;
  const bool named = list.named && list.form != CppArgList::Form::Launch;
  for (const PackDeclaration& d : decls) {
    std::vector<BuilderRef> cands;
    for (const auto& [module, name] : d.builders) {
      if (auto b = builders.find(module, name)) cands.push_back(*b);
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
    } else if (list.openTail.empty() && list.openStart.empty()) {
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

// What the tree declares of its copies' builders, read once per pairing.
struct Declarations {
  std::map<std::string, std::vector<Declared>> surfaces;          // by C++ file (declaredByFile)
  std::map<std::string, std::vector<PackDeclaration>> packs;      // by C++ pack file (PackDeclarations.h)
  // For every surface entry, the builder its python_source names, by the C++ file its cpp_mirror
  // names (a launch no entry declares pairs with the single builder they name): (manifest,
  // "module|symbol").
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> namedWithFile;
};

Declarations declarationsOf(const TreeFacts& facts, const Layout& layout) {
  Declarations d;
  d.surfaces = declaredByFile(facts, layout);
  d.packs = packDeclarations(facts, layout);
  for (const auto& [path, f] : facts.files) {
    if (!f->manifest) continue;
    const Manifest& m = *f->manifest;
    Layout l = layout;
    if (!m.providerRoot.empty()) l.libraryRoot = m.providerRoot + "/rocke/library";
    for (const auto& s : m.surfaces)
      if (!s.cppPath.empty() && !s.pythonSymbol.empty())
        d.namedWithFile[s.cppPath].emplace_back(path, absl::StrCat(l.libraryPath(s.pythonPath), "|", s.pythonSymbol));
  }
  return d;
}

// A builder the profile's entries name for a file, with the profile (manifest) naming it.
using ProfileBuilder = std::pair<BuilderRef, std::string>;

// The one b.param builder the profile entries naming `file` as their cpp_mirror name (the gfx950
// conv profile names the Native for kernelFits, workspaceBytes, score and the builder
// build_implicit_gemm_conv for pointer_nonalias and workspace), with the profile; none when
// they name none or several.
std::optional<ProfileBuilder> profileBuilderOfFile(const Declarations& decls, const Builders& builders,
                                                   const std::string& file) {
  std::map<std::string, ProfileBuilder> found;  // by builder key: builder, manifest
  if (auto it = decls.namedWithFile.find(file); it != decls.namedWithFile.end())
    for (const auto& [manifest, located] : it->second) {
      auto bar = located.find('|');
      auto fb = builders.find(located.substr(0, bar), located.substr(bar + 1));
      if (fb && fb->builder->style == PyBuilder::Style::Params) found.emplace(fb->key(), std::pair{*fb, manifest});
    }
  if (found.size() != 1) return std::nullopt;
  return found.begin()->second;
}

// Pairs `p` with the one builder the profile's entries name for its file. A launch's row says
// so in its message (it has no names of its own to pair by).
void pairByProfileFile(KernargsPair& p, const ProfileBuilder& named) {
  const auto& [fb, manifest] = named;
  p.builder = fb;
  p.pairedBy = absl::StrCat("profile ", manifest, " launch_surface entries naming this file");
  p.declaration = manifest;
  p.note = p.copy.list->form != CppArgList::Form::Launch
               ? ""
               : absl::StrCat("paired through ", manifest.substr(manifest.rfind('/') + 1),
                              ", whose entries name this file and one builder, ", fb.path, ":", fb.builder->name);
}

// Where the first pass puts a copy.
struct Placement {
  enum Kind {
    Kept,      // a result, by a declaration of its own (not its file's builder for the file's other lists)
    Paired,    // a result; its builder may be its file's (FilePairings::record)
    Unpaired,  // pairs with nothing: `why`
    Pending,   // paired through its file, after every file's lists (pairThroughFiles)
  } kind;
  std::string why;
};

// A name-keyed check of a recipe's launch plan: by the names it accepts, order-free; among
// the builders its pack's declarations name first.
Placement pairNameKeyedCheck(const std::vector<PackDeclaration>* packs, const Builders& builders, KernargsPair& p) {
  std::vector<std::string> missing;  // not said: the names pair it then
  if (!packs || !pairThroughPack(*packs, builders, p, missing)) {
    pairNameKeyed(builders.all(), p);
    p.pairedBy = "argument names (a name-keyed check)";
  }
  if (p.builder) return {Placement::Kept, ""};
  return {Placement::Unpaired,
          "pairs with no builder: no declaration names this pack, and no builder declares the names it checks"};
}

// A real catalog entry names no builder: its folder and symbol do (CatalogPairing).
void pairCatalogEntry(const TreeFacts& facts, const Layout& layout, const std::string& path, KernargsPair& p) {
  const CppArgList& list = *p.copy.list;
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
}

// A descriptor copy that names its builder pairs with it first. True when that decided it
// (paired, or a copy without names whose builder is not found: said so); false leaves a named
// copy to the other declarations and its names.
bool pairByDescriptorBuilder(const TreeFacts& facts, const Layout& layout, const Builders& builders,
                             const std::string& path, bool named, KernargsPair& p) {
  const auto& h = *p.copy.list->builderHint;
  std::optional<BuilderRef> hb;
  if (!h.source.empty()) hb = builders.find(layout.libraryPath(h.source), h.builder);
  if (!hb) {
    std::string arch = archFromPath(path);
    for (const auto& b : builders.all())
      if (b.builder->name == h.builder && (!hb || (!arch.empty() && archFromPath(b.path) == arch))) hb = b;
  }
  if (hb) {
    p.builder = hb;
    const FileFacts* df = facts.find(path);
    p.pairedBy = absl::StrCat(df && df->descriptor && df->descriptor->type == "kdp" ? "KDP " : "descriptor ", path,
                              " kernel_source");
    p.declaration = path;
    return true;
  }
  if (named) return false;
  p.note = absl::StrCat("builder ", h.builder, " named by the descriptor not found",
                        h.source.empty() ? "" : " in " + layout.libraryPath(h.source));
  return true;
}

// A copy a profile's launch_surface entry declares.
void pairDeclared(const Declared& decl, const Builders& builders, bool named, KernargsPair& p) {
  const CppArgList& list = *p.copy.list;
  p.declared = true;
  p.manifest = decl.manifest;
  p.pairedBy = absl::StrCat("profile ", decl.manifest, " launch_surface ", decl.entry);
  p.declaration = decl.manifest;
  auto declaredBuilder = builders.find(decl.module, decl.builder);
  // A surface naming a SignatureBuilder restatement (`attention_dense_signature`), or a
  // symbol that is no builder: the copy states the ABI the kernel declares, so it pairs
  // with the manifest's builder (its `b.param` list) when that one is found.
  if ((!declaredBuilder || declaredBuilder->builder->style == PyBuilder::Style::SignatureBuilder) &&
      !decl.manifestBuilder.empty()) {
    std::optional<BuilderRef> own;
    for (const std::string& mod : {decl.module, decl.sourceModule})
      if (!own && !mod.empty()) own = builders.find(mod, decl.manifestBuilder);
    if (own && own->builder->style == PyBuilder::Style::Params) declaredBuilder = own;
  }
  if (!named) {
    if (declaredBuilder) p.builder = declaredBuilder;
    else p.note = absl::StrCat("declared builder ", decl.builder, " not found in ", decl.module);
    return;
  }
  // The declared builder first, then the builder whose names match in the surface's
  // module and the manifest's source module, then the closest related one.
  std::vector<BuilderRef> cands;
  if (declaredBuilder) cands.push_back(*declaredBuilder);
  for (const std::string& mod : {decl.module, decl.sourceModule})
    if (const auto* ofModule = builders.ofModule(mod))
      for (const auto& b : *ofModule)
        if (!declaredBuilder || b.key() != declaredBuilder->key()) cands.push_back(b);
  auto [exact, closest] = bestByNames(cands, list);
  if (declaredBuilder && namesRelate(*declaredBuilder->builder, list)) p.builder = declaredBuilder;
  else if (exact) p.builder = exact;
  else if (closest) p.builder = closest;
  else p.note = absl::StrCat("shares too few names with ", decl.builder, " (or any builder of ",
                             decl.module, ") to compare");
}

// A named copy no declaration pairs: a file the profile's entries name, with one builder, pairs
// with that builder when the names relate; else by its argument names. `missing`: the builders a
// pack declaration names that the tree lacks (said when nothing pairs it).
Placement pairByNames(const Declarations& decls, Builders& builders, const std::string& path, const FileFacts& f,
                      const std::vector<std::string>& missing, KernargsPair& p) {
  const CppArgList& list = *p.copy.list;
  auto fromProfile = profileBuilderOfFile(decls, builders, path);
  if (fromProfile && namesRelate(*fromProfile->first.builder, list)) {
    pairByProfileFile(p, *fromProfile);
    return {Placement::Paired, ""};
  }
  // A Python copy (attention_dense_signature) restates a builder of its own module; else
  // builders whose module the copy's file is named after come first (many kernels
  // share argument names): Gfx950AttentionDenseNative.cpp <-> attention_dense.py.
  std::vector<BuilderRef> affine;
  bool ownModule = false;
  if (const auto* own = builders.ofModule(path); own && f.kind == FileKind::Python) {
    affine = *own;
    ownModule = true;
  }
  if (affine.empty()) affine = builders.affineTo(path);
  auto [exact, closest] = bestByNames(affine, list);
  if (!exact && !closest) std::tie(exact, closest) = bestByNames(builders.all(), list);
  if (exact) {
    p.builder = exact;
  } else if (closest) {
    p.builder = closest;
    // A Python copy restates its own module's builder: no other builder was in question.
    if (!ownModule) p.note = absl::StrCat("matches no builder; compared with the closest, ", closest->builder->name);
  } else if (!missing.empty()) {
    p.note = absl::StrJoin(missing, "; ");  // a declaration names a builder the tree lacks
    return {Placement::Kept, ""};
  } else {  // not a copy of any known builder
    return {Placement::Unpaired,
            "pairs with no builder: no profile, KDP or generator config names this file, and no builder shares its "
            "argument names"};
  }
  p.pairedBy = ownModule ? "argument names (a copy in the builder's own module)" : "argument names";
  return {Placement::Paired, ""};
}

// The first pass over one copy, in the order pairing tries the declarations (Kernargs.h's
// pairedBy): its own kind's (a name-keyed check, a catalog entry, a descriptor copy naming its
// builder), a profile's launch_surface entry, a KDP's or generator config's pack, its names.
Placement placeCopy(const TreeFacts& facts, const Layout& layout, Builders& builders, const Declarations& decls,
                    const std::string& path, const FileFacts& f, KernargsPair& p) {
  const CppArgList& list = *p.copy.list;
  const bool named = list.named && list.form != CppArgList::Form::Launch;
  const auto packIt = decls.packs.find(path);
  const std::vector<PackDeclaration>* packs = packIt == decls.packs.end() ? nullptr : &packIt->second;
  if (list.form == CppArgList::Form::NameKeyed) return pairNameKeyedCheck(packs, builders, p);
  if (list.catalog && !list.builderHint) {
    pairCatalogEntry(facts, layout, path, p);
    return {Placement::Kept, ""};
  }
  if (list.builderHint && pairByDescriptorBuilder(facts, layout, builders, path, named, p))
    return {Placement::Kept, ""};

  const Declared* decl = nullptr;
  if (auto it = decls.surfaces.find(path); it != decls.surfaces.end())
    for (const auto& d : it->second)
      if (symbolMatches(d.symbol, list.symbol)) { decl = &d; break; }
  std::vector<std::string> missing;  // builders a pack declaration names that the tree lacks
  if (decl) {
    pairDeclared(*decl, builders, named, p);
  } else if (packs && pairThroughPack(*packs, builders, p, missing)) {
    // Paired through a KDP or generator config naming this pack (PackDeclarations.h): the
    // pack's entry point. Where the profile's entries name this file with one other builder
    // (the entry point dispatches: gfx950_conv_fwd's build_gfx950_conv_fwd returns
    // build_implicit_gemm_conv's kernel), that one is the more specific declaration.
    auto fromProfile = profileBuilderOfFile(decls, builders, path);
    if (fromProfile && fromProfile->first.key() != p.builder->key() &&
        (!named || namesRelate(*fromProfile->first.builder, list)))
      pairByProfileFile(p, *fromProfile);
  } else if (named) {
    return pairByNames(decls, builders, path, f, missing, p);
  } else {
    if (!missing.empty()) p.note = absl::StrJoin(missing, "; ");
    return {Placement::Pending, ""};
  }
  return {Placement::Paired, ""};
}

// What the first pass learned of each file: the builder its named lists (or a declared or
// pack-declared copy) paired with first, and the declaring file of that pairing ("" by names);
// a copy paired through the file (a pin through its pack's name) depends on it too.
struct FilePairings {
  std::map<std::string, std::string> builderOfFile;  // C++ file -> builder key
  std::map<std::string, BuilderRef> builderByKey;
  std::map<std::string, std::string> declarationOfFile;

  void record(const std::string& path, const KernargsPair& p, bool named) {
    if (p.builder && (named || !p.declaration.empty())) {
      builderOfFile.emplace(path, p.builder->key());
      builderByKey.emplace(p.builder->key(), *p.builder);
      declarationOfFile.emplace(path, p.declaration);
    }
    if (p.builder && p.declared) {
      builderOfFile.emplace(path, p.builder->key());
      builderByKey.emplace(p.builder->key(), *p.builder);
    }
  }
  std::string declarationOf(const std::string& file) const {
    auto it = declarationOfFile.find(file);
    return it == declarationOfFile.end() ? "" : it->second;
  }
};

// The builders of the files whose stem is "<Name>Native", by that stem (the first file wins).
struct NativeStems {
  std::map<std::string, std::string> keyByStem;  // "Gfx950FooNative" -> the key of its file's builder
  std::map<std::string, std::string> fileByStem;
  explicit NativeStems(const FilePairings& files) {
    for (const auto& [file, key] : files.builderOfFile)
      if (keyByStem.emplace(stem(file), key).second) fileByStem.emplace(stem(file), file);
  }
};

// Test<Name>Signature.cpp (or <Name>Geometry, Matchers, Packs) <-> <Name>Native.cpp: the builder
// <Name>Native.cpp's lists paired with.
std::optional<BuilderRef> pairByNativeFileName(const FilePairings& files, const NativeStems& stems, KernargsPair& p) {
  std::string name = stem(p.copy.path);
  if (name.starts_with("Test")) name = name.substr(4);
  for (const char* suffix : {"Signature", "Geometry", "Matchers", "Packs", "Native"})
    if (name.ends_with(suffix) && name.size() > std::strlen(suffix)) {
      name = name.substr(0, name.size() - std::strlen(suffix));
      break;
    }
  auto it = stems.keyByStem.find(name + "Native");
  if (it == stems.keyByStem.end()) return std::nullopt;
  p.declaration = files.declarationOf(stems.fileByStem.at(name + "Native"));
  p.note = absl::StrCat("paired through the file name with ", name, "Native.cpp");
  p.pairedBy = absl::StrCat("file name convention (", name, "Native.cpp)");
  return files.builderByKey.at(it->second);
}

// The second pass: unnamed lists and launch calls outside any manifest pair through their file —
// a launch with the one builder the profile's entries name for it, else the builder the same
// file's named lists paired with, else through the file name (<Name>Native.cpp's builder; for a
// launch, the one builder of a module of its arch the file is named after). Paired ones go to
// `out`, the others to `unpaired` (with why) unless a declaration named a builder the tree lacks.
void pairThroughFiles(std::vector<KernargsPair>& pending, const Declarations& decls, const Builders& builders,
                      const FilePairings& files, std::vector<KernargsPair>& out, std::vector<KernargsPair>* unpaired) {
  const NativeStems stems(files);
  for (auto& p : pending) {
    const bool launch = p.copy.list->form == CppArgList::Form::Launch;
    std::optional<BuilderRef> b;
    // A launch in a file the profile's entries name goes with their one builder first: the
    // declaration says so, the file's other lists only suggest it.
    if (auto named = launch ? profileBuilderOfFile(decls, builders, p.copy.path) : std::nullopt) {
      pairByProfileFile(p, *named);
      b = p.builder;
    }
    if (auto it = files.builderOfFile.find(p.copy.path); !b && it != files.builderOfFile.end()) {
      b = files.builderByKey.at(it->second);
      p.pairedBy = "the builder of the file's other lists";
      p.declaration = files.declarationOf(p.copy.path);
    }
    if (!b) b = pairByNativeFileName(files, stems, p);
    // A launch call no manifest declares, in a file named after a module of its arch
    // (Gfx942AttentionDenseNative.cpp <-> kernels/gfx942/attention_dense.py): that module's one
    // public b.param builder.
    if (!b && launch) {
      b = builders.ofArchModule(p.copy.path);
      if (b) {
        p.note = absl::StrCat("paired through the file name with ", b->path, ":", b->builder->name);
        p.pairedBy = absl::StrCat("file name convention (", b->path, ")");
      }
    }
    if (!b) {
      if (!p.note.empty()) out.push_back(std::move(p));  // a declaration names a builder the tree lacks
      else if (unpaired) {
        p.note = "pairs with no builder: no profile, KDP or generator config names this file, its file has no list "
                 "that paired, and no <Name>Native.cpp nor module of its arch matches its file name";
        unpaired->push_back(std::move(p));
      }
      continue;
    }
    p.builder = b;
    out.push_back(std::move(p));
  }
}

}  // namespace

std::vector<KernargsPair> pairKernargs(const TreeFacts& facts, const Layout& layout, std::vector<KernargsPair>* unpaired) {
  Builders builders(facts);
  const Declarations decls = declarationsOf(facts, layout);
  const ShippedIndex shipped = shippedVariants(facts, layout);

  std::vector<KernargsPair> out, pending;
  FilePairings files;
  for (const auto& [path, f] : facts.files) {
    std::map<std::string, int> ordinals;
    for (const auto& list : f->lists) {
      KernargsPair p;
      std::string base = absl::StrCat(path, "|", formName(list.form), "|", list.symbol, "|", list.variable);
      p.copy = {path, &list, absl::StrCat(base, "|", ordinals[base]++)};
      Placement placed = placeCopy(facts, layout, builders, decls, path, *f, p);
      switch (placed.kind) {
        case Placement::Paired:
          files.record(path, p, list.named && list.form != CppArgList::Form::Launch);
          out.push_back(std::move(p));
          break;
        case Placement::Kept:
          out.push_back(std::move(p));
          break;
        case Placement::Unpaired:
          // What pairs with nothing is said, never dropped (accounting): `unpaired`, with why.
          if (unpaired) {
            if (p.note.empty()) p.note = std::move(placed.why);
            unpaired->push_back(std::move(p));
          }
          break;
        case Placement::Pending:
          pending.push_back(std::move(p));
          break;
      }
    }
  }
  pairThroughFiles(pending, decls, builders, files, out, unpaired);
  // The shipped variants of each pair's builder (they decide conditional arguments, R2.2).
  for (auto& p : out)
    if (p.builder)
      p.shipped = shippedFor(shipped, p.builder->path, p.builder->builder->name,
                             p.builder->builder->style == PyBuilder::Style::SignatureBuilder);
  return out;
}

}  // namespace impact
