// The facts extracted from one file: a pure function of (path, content).
// Every later stage (contracts, judgement, report, the language server) reads only these.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/CppSymbols.h"
#include "model/Guard.h"
#include "model/PythonModule.h"

namespace impact {

// 0-based line and column (bytes), as tree-sitter reports them. Reports print line + 1.
struct SourceRange {
  uint32_t line = 0, col = 0, endLine = 0, endCol = 0;
  bool operator==(const SourceRange&) const = default;
};

// One of the IR types (or names) a builder's argument has under a condition (`I64 if spec.large
// else I32`; `"seqlen_q" if spec.varlen else "seqlen"`).
struct TypeChoice {
  Guard when;
  std::string kind, typeClass;
  uint32_t size = 0;
  std::string name;  // "" : the argument's own name (only its type is chosen)
  bool operator==(const TypeChoice&) const = default;
};

// One kernel argument as one copy states it.
struct KernelArg {
  std::string name;       // empty when the copy states no name (unnamed test pins)
  std::string kind;       // "global_buffer" | "by_value" | ... ; empty when unknown
  uint32_t size = 0;      // bytes; 0 when unknown
  int64_t offset = -1;    // the offset a C++ copy states; -1 when none (never compared)
  std::string typeText;   // the source text of the type (Python) or size expression (C++)
  bool resolved = true;   // false: kind/size could not be determined; see unresolvedReason
  std::string unresolvedReason;
  bool conditional = false;
  std::string condition;  // the condition it depends on, aliases resolved (e.g. "spec.use_sinks")
  SourceRange range;      // the b.param call, the KernelArgument element, the add(...) call
  // The scalar type class where the side states it (SPEC R2.1, docs/contracts.md "Type
  // identity"): by_value "f32" "f16" "bf16" "f64" "fp8e4m3" "bf8e5m2", integers "iN" (signedness
  // not stated: rocKE's I32, a SignatureBuilder "i32"), "sN" (signed: int32_t) or "uN"
  // (unsigned: uint32_t), "i1" (bool); a pointer: its element's class. "" when not stated
  // (never compared). Compared by sameTypeClass, core/contracts/kernargs/ArgListDiff.cpp.
  std::string typeClass;
  // A name-keyed copy (CppArgList::Form::NameKeyed): the copy checks that every launch carries
  // this name (its required-set check). typeText then holds the ROCKE_ARG_* kind it checks.
  bool required = false;
  Guard guard;            // `condition` as structure (Python copies and builders); empty for a C++
                          // copy's condition, which is then compared by its text
  // A builder's argument whose type is chosen by a condition the extractor cannot decide: each
  // type with its condition (kind and size stay unknown, `resolved` false). A variant's spec picks
  // one where the comparison knows the specs (core/contracts/kernargs/CopyComparison.cpp).
  std::vector<TypeChoice> choices;
  // A launch value (CppArgList::Form::Launch) that designates an object, read from its syntax:
  // the names of the designator, outermost first, through casts, parentheses, `&`/`*` and
  // `this->` (`o.ptr` -> {o, ptr}; `static_cast<int32_t>(binding.numSeqs)` -> {binding, numSeqs};
  // `sinkPtr` -> {sinkPtr}). Empty for a value that designates nothing by name (a literal, a
  // call, arithmetic, a subscript) and on every other form. Which builder argument a value names
  // is decided from these (core/contracts/kernargs/LaunchValues).
  std::vector<std::string> valueNames;
  bool operator==(const KernelArg&) const = default;
};

// One argument list a Python builder can declare.
struct PyAbi {
  std::string origin;     // the function whose body declares it
  std::string guard;      // "" for the builder's own body; else the early-return condition
  std::vector<KernelArg> args;
  // A helper given the builder (`emit_param_block(b, ...)`) declares the arguments after `args`:
  // the list is known only up to that call. tailHelper: the helper as called ("" when the list is
  // complete); tailModule: the module it is imported from, as a path relative to rocke/library
  // ("kernels/common/_conv_implicit_gemm_common.py"; "" when it is not imported).
  std::string tailHelper, tailModule;
  // When this list is the one declared: the early-return guard (as `guard`, structured) for a
  // returned list; for the own body, that no early return before it was taken
  // (`not spec.persistent` when `if spec.persistent: return other(spec)` comes first).
  Guard when;
  // The helper's call as written (`emit_param_block(b, conv_fwd_problem_block(is_3d=p.is_3d))`):
  // a change to it may change what the helper declares.
  std::string tailCall;
  bool operator==(const PyAbi&) const = default;
};

// A list that is wholly another module's function's, not yet followed: a path of a dispatching
// entry point that returns `other.build_x(...)` (the function is both its origin and its open end).
inline bool isDispatch(const PyAbi& a) { return a.args.empty() && !a.tailModule.empty() && a.origin == a.tailHelper; }
// Every list is such a list: an entry point that builds nothing itself (not yet followed).
inline bool dispatchesOnly(const std::vector<PyAbi>& abis) {
  for (const PyAbi& a : abis)
    if (!isDispatch(a)) return false;
  return !abis.empty();
}

// A hook of a builder (issue 16, form 3): `extra_context = extra_params(b) if extra_params is not
// None else None` between two groups of b.param calls.
struct PyHook {
  std::string name;      // the parameter called with the IRBuilder ("extra_params")
  std::string function;  // the function declaring and calling it ("_build_implicit_gemm_conv_impl")
  std::string after;     // the argument declared just before the call ("D"); "" before the first
  // (What a call of the builder passes for it is evaluated where the builder is called: an entry
  // passing a function has that function's declarations in its list, one passing None none.)
  bool operator==(const PyHook&) const = default;
};

struct PyBuilder {
  enum class Style { Params, SignatureBuilder };
  std::string name;       // function name ("build_x"); "Class.method" for methods
  Style style = Style::Params;
  SourceRange range;      // the def's name
  SourceRange bodyRange;  // the whole def
  std::vector<PyAbi> abis;  // abis[0]: own body; then one per early `return other(spec)`
  uint64_t fingerprint = 0;  // code fingerprint of the def (and of same-module early-return targets)
  // Parameters the builder (or a body it returns early to) calls with its IRBuilder
  // (`extra_params(b)`): hooks that can insert arguments between the b.param calls. `abis` holds
  // the b.param calls alone (what a call passing no hook declares); rows say when there is one.
  std::vector<PyHook> hooks;
  // Non-empty: the builder's arguments could not be read, and why (a limit, recursion): its lists
  // are not an empty ABI and are never compared as one (issue 26).
  std::string notRead;
  // The other modules of the tree its lists were read through (paths; set when the tree is
  // followed, core/analysis/CrossModule, never per file): a change there changes the lists.
  std::vector<std::string> readThrough;
  bool operator==(const PyBuilder&) const = default;
};

struct CppArgList {
  // NameKeyed: a check of a recipe's launch plan by argument name (core/extract/cpp/
  // NameKeyedChecks.cpp): the names it accepts, each with the kind and size it checks, and which
  // are required; its order states nothing (compared in contracts/kernargs/NameKeyedComparison).
  // Names: an array of string literals naming arguments in order (no kind, no size), kept in
  // FileFacts::nameArrays, not in `lists` (compared with a Python names list:
  // contracts/kernargs/NameLists).
  enum class Form { Static, Lambda, Launch, NameKeyed, Names };
  Form form = Form::Static;
  std::string symbol;     // enclosing function as written ("attentionDenseKernelSignature",
                          // "Pack::signature"); "" at namespace scope
  std::string variable;   // the declared/assigned variable, if any
  bool named = false;     // true when any element has a non-empty name
  SourceRange range;      // the braced list, the lambda's function, or the launch call
  std::vector<KernelArg> args;  // Launch: name = argument expression text; kind/size as the
                                // file states them (core/extract/cpp/ArgumentKinds), else unresolved
  uint64_t fingerprint = 0;     // code fingerprint of the enclosing function (or the list)
  // Descriptor copies (packed UKD `signature`, catalog `args_signature`): the builder the
  // descriptor names (source relative to rocke/library), tried first when pairing, and the
  // variant's spec (JSON scalars as text: "true", "8", "bf16"), which picks the builder's list.
  struct BuilderHint {
    std::string source, builder;
    bool operator==(const BuilderHint&) const = default;
  };
  std::optional<BuilderHint> builderHint;
  std::map<std::string, std::string> spec;
  // An entry of a real AOT catalog (`rocke/aot_catalog/<arch>/<family>/family.json`, DOMAIN.md
  // §6): it names no builder; it pairs through the folder's arch and family and its `symbol`
  // (core/contracts/CatalogPairing). `grid`/`block`: the entry's geometry as canonical JSON.
  struct CatalogEntry {
    std::string arch, family, symbol;
    std::string opKind;       // the catalog's `op_kind` (its adapter's opKind())
    bool persistent = false;  // `_persist<N>` in the symbol
    std::string grid, block;
    SourceRange geometry;  // the entry's `grid` value (`block` when it has no grid)
    bool operator==(const CatalogEntry&) const = default;
  };
  std::optional<CatalogEntry> catalog;
  // Launch: what passes the arguments after `args` when the call site does not show them, e.g.
  // "the trailing parameter pack values... (from a std::variant)"; "" when `args` is the list.
  std::string openTail;
  // The list is open before its end (a macro or an `#if` arm not read, issue 36 item 3), not at a
  // trailing block that stands for the builder's own open end: only the prefix is compared.
  bool openBefore = false;
  // The list starts with arguments it cannot read (issue 36: `auto v = tensorArguments();` of a
  // function whose list is not read, then appended to), and why: `args` are those after them, of
  // an unknown count before. "" when `args` start the list.
  std::string openStart;
  // NameKeyed: the message the check fails with for a name it does not accept, by where such a
  // name lands ("pointer", "scalar"): "unknown SDPA scalar argument".
  std::map<std::string, std::string> rejects;
  // The headers of the tree its file was read with (their macros or aliases make the list:
  // CrossModule's followHeaders): a change of one alone is a change of the copy.
  std::vector<std::string> readThrough;
  bool operator==(const CppArgList&) const = default;
};

// launch_surface entry of a *.profile.yaml (DOMAIN.md §5)
struct SurfaceEntry {
  std::string name;           // grid, block, kernargs, ...
  std::string pythonPath;     // relative to rocke/library, as written
  std::string pythonSymbol;   // "" for a path-only locator
  std::string cppPath;        // repository-relative
  std::string cppSymbol;      // "" when the mirror is the bare file
  std::vector<std::string> kmdFields;
  std::string guard;
  std::string testPath;       // "" for none
  uint32_t line = 0;          // 0-based line of the entry in the manifest
  // python_source written as prose, not a locator (pythonPath and pythonSymbol then empty): the
  // Python files and code names it mentions, resolved by the judge (extract/ProseLocator.h).
  bool pythonProse = false;
  std::vector<std::string> proseFiles, proseSymbols;
  // Further mirror symbols the cpp_mirror names after the first ("… and kernelMatches").
  std::vector<std::string> cppMoreSymbols;
  bool operator==(const SurfaceEntry&) const = default;
};

struct KmdField {
  std::string name, type;
  std::optional<std::string> defaultValue;
  bool operator==(const KmdField&) const = default;
};

struct Manifest {
  std::string arch, slug, providerRoot, source, builder;
  std::vector<KmdField> kmdFields;
  std::vector<SurfaceEntry> surfaces;
  bool operator==(const Manifest&) const = default;
};

// A rocke launch of a descriptor: kernel_source {source, builder}
struct DescriptorLaunch {
  std::string source;   // relative to rocke/library
  std::string builder;
  std::vector<std::string> arch;  // the UKD's own arch array (narrows the KDP's); empty: the KDP's
  std::string ukdName;  // the UKD's name (else its id; else its JSON pointer), "/<index or key>" added for
                        // a companion launch of a multi-launch UKD — the emitter's variant name
  std::string spec;     // kernel_source.spec as canonical JSON (keys sorted); "{}" when absent
  std::map<std::string, std::string> specFields;  // its scalar fields as text ("true", "8", "bf16",
                                                  // "null"), as a shipped variant's guards read them
  bool operator==(const DescriptorLaunch&) const = default;
};

struct DescriptorFacts {
  std::string type;     // "kdp" | "ukd" | "kmd" | "ued" | "umd" | "udd" | "uhd" | ""
  std::string id, name;
  std::string dispatch;  // a KDP's `dispatch`: the id of the UDD naming its pack's dispatch symbol
  std::vector<std::string> arch;          // top-level arch array
  std::vector<DescriptorLaunch> launches; // rocke launches of every UKD (inline ones included)
  // kernel_source kind `rocke_builder` (the loader's legacy spelling, never packed nor built):
  // it still names its builder, so pairing reads it; the emitter and the shipped closure do not.
  std::vector<DescriptorLaunch> legacyLaunches;
  std::vector<std::string> ukdArchs;      // union of the UKDs' own arch arrays (narrowing)
  size_t ukdCount = 0;
  // Launches the emitter cannot build: "<UKD name>: <why>" (no kernel_source, a non-string
  // source or builder, a spec that is not an object). hip/hsaco launches are not listed.
  std::vector<std::string> notInspected;
  // A generic-target table (generic_targets.json): generic name -> ordered member archs.
  std::map<std::string, std::vector<std::string>> genericTargets;
  bool operator==(const DescriptorFacts&) const = default;
};

// A module-level Python function with no required parameter whose body builds and returns a
// list of `(name, kind)` tuples or of names, run by the builder evaluator with its default
// arguments (core/extract/python/NameLists.cpp): the ordered names an ABI module states as data
// (`conv_abi.py:conv_arg_names`). When the body uses anything the evaluator does not read,
// `evaluated` is false and `reason` says what ("not evaluable: ..."), never a guess.
struct PyNameList {
  std::string function;
  SourceRange range;                 // the def's name
  bool evaluated = false;
  std::string reason;                // why it is not evaluated
  std::vector<std::string> names;
  std::vector<std::string> kinds;    // the tuples' second strings; empty for a list of strings
  std::vector<SourceRange> sites;    // where each name is written (a literal or an f-string)
  bool operator==(const PyNameList&) const = default;
};

// A generator config (`projects/hipdnn/tools/IngestorGenerator/configs/<slug>.yaml`, key `packs:`;
// core/extract/GeneratorConfig.cpp): which builder each pack's kernels are built from, for which
// engine, and the specs of the variants it generates.
struct GeneratorVariant {
  std::string name;                         // the kernel's name (a variant group's template filled in)
  std::map<std::string, std::string> spec;  // scalars as text, as CppArgList::spec ("true", "8", "bf16")
  bool operator==(const GeneratorVariant&) const = default;
};

// One kernel source a pack names (`kernel_defaults`, a `kernels:` entry's `kernel_source`, a
// variant group's own `source` + `builder`), with the variants built from it.
struct GeneratorSource {
  std::string pack;             // packs[].name
  std::string engine;           // the engine the pack serves: its own `engine`, else the config's
  std::string kind;             // the kernel source kind ("rocke"; "" when not stated)
  std::string source, builder;  // source relative to rocke/library
  std::string where;            // "packs[0].kernel_defaults", "packs[1].kernels[3].kernel_source", ...
  uint32_t line = 0;            // 0-based line of that declaration
  std::vector<std::string> arch;
  std::vector<GeneratorVariant> variants;
  std::string incomplete;       // "" when every variant it generates is listed; else why not
  // A rocKE builder: a source and a builder, of kind rocke (or the legacy rocke_builder, or unstated).
  bool namesBuilder() const {
    return !source.empty() && !builder.empty() && (kind.empty() || kind == "rocke" || kind == "rocke_builder");
  }
  bool operator==(const GeneratorSource&) const = default;
};

struct GeneratorConfig {
  std::string engine;                   // engine.name
  std::vector<GeneratorSource> sources;
  std::vector<std::string> problems;    // parts not read: "packs[2] is not a mapping"
  bool operator==(const GeneratorConfig&) const = default;
};

enum class FileKind { Python, Cpp, Manifest, Descriptor, GeneratorConfig, Other };

// What a file states that looks like a copy and is not compared, with why (accounting, issue 26
// item 3): a list a test case builds as its own value while the file pins the ABI elsewhere.
struct SetAside {
  SourceRange range;
  std::string what;  // "KernelArgument list `transposed` in Suite.Case"
  std::string why;
  bool operator==(const SetAside&) const = default;
};

// A C++ function that binds kernel arguments by name into an AOT catalog engine's
// `catalog::LaunchBindings` (DOMAIN.md §6; extract/cpp/CatalogBindings): an adapter's
// `buildBindings`, a test building them by hand. A name-keyed copy of the catalog's
// `args_signature`: LaunchAbi looks each entry's argument names up in these maps.
struct NameBinding {
  std::string name;       // "X", "eps"
  std::string map;        // "pointerUids" | "pointerValues" | "scalars"
  std::string valueType;  // scalars: the ScalarValue alternative ("float", "int64_t", "uint64_t"); "" unknown
  std::string why;        // valueType unknown: why
  SourceRange range;      // the binding's call
  bool operator==(const NameBinding&) const = default;
};

struct BindingSet {
  std::string function;  // "RmsNormAdapter::buildBindings", "makeCandidate", "Suite.Test"
  std::string variable;  // the LaunchBindings object ("bindings", "pc.bindings")
  SourceRange range;     // its first binding
  std::vector<NameBinding> bindings;
  bool operator==(const BindingSet&) const = default;
};

struct FileFacts {
  std::string path;
  FileKind kind = FileKind::Other;
  bool ok = true;             // false: the file could not be read/parsed; see error
  std::string error;          // "line 12: syntax error near 'def'" / "invalid UTF-8" / ...
  uint64_t fingerprint = 0;   // content with comments and whitespace removed (code) or the
                              // canonical value (JSON/YAML): equal fingerprints = inert edit
  std::vector<PyBuilder> builders;
  std::vector<CppArgList> lists;
  std::optional<Manifest> manifest;
  std::optional<DescriptorFacts> descriptor;
  std::optional<GeneratorConfig> generator;  // generator configs
  PyModuleFacts module;      // Python files
  CppSymbolFacts symbols;    // C++ files
  std::vector<PyNameList> nameLists;    // Python files: evaluated names lists
  // C++ files: arrays of string literals (`constexpr std::array<std::string_view, 39> NAMES{...}`,
  // `const char* NAMES[]`), CppArgList::Form::Names: names only, in order (extract/cpp/NamesArrays).
  std::vector<CppArgList> nameArrays;
  std::vector<SetAside> setAside;       // C++ files: lists read and deliberately not copies
  std::vector<BindingSet> bindingSets;  // C++ files: name-keyed LaunchBindings (AOT catalog engine)
  // C++ files: each class's `opKind()` (an AOT catalog adapter: "RmsNormAdapter" -> "rmsnorm").
  std::map<std::string, std::string> opKinds;
  bool operator==(const FileFacts&) const = default;
};

}  // namespace impact
