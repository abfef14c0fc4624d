// The file's own macros, expanded before its lists are read (issue 36 item 3): object-like and
// function-like `#define`s found in the C++ syntax tree (`preproc_def`, `preproc_function_def`),
// their invocations found in the same tree, each replaced by its expansion in a text buffer the
// extractors re-parse. The X-macro list (`#define ARGS(X) X(...) X(...)` then `ARGS(ENTRY)`, with
// `#define ENTRY(kind, size, name) KernelArgument{kind, size, 0, name},`) reads as the list it
// expands to.
//
// Lines are kept: an expansion is written on its invocation's first line, the invocation's line
// breaks follow it, then spaces up to the invocation's end column, so every line of the file keeps
// its number and every column after a multi-line invocation its column. `mapBack` turns a
// position inside an expansion into the invocation's, and shifts a column after a one-line
// invocation back.
//
// Modelled: parameters, `__VA_ARGS__`, arguments expanded before substitution, `#` (a string of
// the argument's spelling), `##` (two tokens pasted into one), rescanning. Not modelled, each a
// `failure` that names the macro: a macro defined more than once, a self-reference, a parameter
// called as a macro with a name that is no macro read, `__VA_OPT__`, a paste that makes no single
// token, a wrong argument count, an unclosed invocation, and the limits below.
//
// Headers of the tree (Preprocess.cpp): with a HeaderReader, each `#include "x"` the reader finds
// in the analysed tree (never on the machine's disk) is read in turn, its definitions in force
// after the include (nested includes to kMaxIncludeDepth; a header read once; a cycle stops). A
// header the reader does not find leaves its macros unknown; what needs them fails naming them.
//
// `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` arms: an arm whose condition is known from the macros
// read (`defined`, integer arithmetic, macros expanded; an include guard) is decided, the other
// arms blanked (lines kept). An arm that cannot be decided (a name defined by no file read: the
// build may define it) keeps its text, its directives blanked, and is listed in `undecided`: a
// whole list inside it is read as its own copy; a list with elements inside it is open from the
// first such element (`extractCpp`). A definition under an undecided arm is in force only under
// that same arm.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extract/cpp/KaTypes.h"
#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::cpp {

constexpr int kMaxMacroDepth = 32;            // nested expansions of one invocation
constexpr size_t kMaxMacroTokens = 20000;     // tokens one invocation expands to
constexpr size_t kMaxMacroSteps = 200000;     // macro replacements of one invocation
constexpr size_t kMaxMacroOutput = 4u << 20;  // bytes of the expanded file
constexpr size_t kMaxMacroSites = 4096;       // invocations expanded per file
constexpr int kMaxIncludeDepth = 8;           // nested #include of the tree's headers
constexpr size_t kMaxHeaders = 64;            // headers read per file

// A header of the analysed tree: its path in the tree and its text (from the snapshot analysed:
// a git object or the working tree).
struct HeaderText {
  std::string path, text;
};
// The header `written` (as in `#include "written"`) included from `includer` (a path of the tree,
// "" for the file itself), or nullopt when the tree has none.
using HeaderReader = std::function<std::optional<HeaderText>(const std::string& includer, const std::string& written)>;

// An `#if` arm of the file that could not be decided (0-based lines).
struct UndecidedArm {
  uint32_t line = 0;                   // its directive
  uint32_t firstLine = 0, lastLine = 0;  // the lines of its text
  std::string why;                     // "not read: `#ifdef X` (line 4) is not decided: X is defined in no file read …"
};

struct MacroSite {
  std::string macro;        // the macro invoked
  SourceRange range;        // the invocation in the file (0-based lines and byte columns)
  uint32_t expCol = 0;      // where its expansion starts and ends on line range.line of `text`
  uint32_t expEndCol = 0;
  std::string failure;      // why it was left as written; "" when expanded
  // Whether a failed invocation builds KernelArguments (a macro it reaches names the type or an
  // alias of it, or the declaration or function around it is KernelArgument-typed: KaTypes): a
  // copy impactd could not read. Set on failed sites only.
  bool kernelArgument = false;
  // Whether, placed in no list, it is a copy of its own "not read": every macro invocation; a call
  // of a name no file read defines only as an element of a braced list (a statement calling
  // `throwPluginError(...)` of a header not read is no copy).
  bool standalone = true;
};

struct MacroExpansion {
  std::unique_ptr<SyntaxTree> tree;  // the re-parsed expansion; null when no invocation was expanded
  std::vector<MacroSite> sites;      // every invocation of a macro of the file, in source order
  std::vector<UndecidedArm> undecided;     // the file's `#if` arms not decided
  std::vector<std::string> headersRead;    // tree paths of the headers read
  std::vector<std::string> headersMissing; // includes (as written) the reader did not find
  std::vector<KaAlias> headerAliases;      // aliases of KernelArgument the headers read declare
  // The file's types (KaTypes of `tree`'s input, seeded with headerAliases): reused by the
  // extractors when nothing was expanded (the same tree), so a file is walked for them once.
  std::shared_ptr<KaTypes> types;
  // Positions of `tree` back to the file's.
  void mapBack(SourceRange& r) const;
};

// Expands the file's macros (and its tree headers' with `headers`). Never throws on bad input:
// what it cannot expand is a site's failure.
MacroExpansion expandMacros(const SyntaxTree& tree, const HeaderReader* headers = nullptr);

// Whether reading the file with its headers can read it differently from reading it alone: some
// name a header of the tree defines or undefines (`#define`, `#undef`, in any header it includes, transitively; at most
// 64 headers) is used in the file. Reading with the headers costs a second parse of the file, so
// a keystroke in a pack whose headers define nothing it uses skips it (CrossModule).
bool usesHeaderMacros(std::string_view fileText, const HeaderReader& headers);

}  // namespace impact::cpp
