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
// `failure` that names the macro: a macro defined more than once (under `#if` arms), a
// self-reference, a parameter called as a macro with a name that is no macro of this file (an
// included header's macros are not read), `__VA_OPT__`, a paste that makes no single token, a
// wrong argument count, an unclosed invocation, and the limits below.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/Facts.h"
#include "parse/Syntax.h"

namespace impact::cpp {

constexpr int kMaxMacroDepth = 32;            // nested expansions of one invocation
constexpr size_t kMaxMacroTokens = 20000;     // tokens one invocation expands to
constexpr size_t kMaxMacroSteps = 200000;     // macro replacements of one invocation
constexpr size_t kMaxMacroOutput = 4u << 20;  // bytes of the expanded file
constexpr size_t kMaxMacroSites = 4096;       // invocations expanded per file

struct MacroSite {
  std::string macro;        // the macro invoked
  SourceRange range;        // the invocation in the file (0-based lines and byte columns)
  uint32_t expCol = 0;      // where its expansion starts and ends on line range.line of `text`
  uint32_t expEndCol = 0;
  std::string failure;      // why it was left as written; "" when expanded
  // Whether the invocation builds KernelArguments (a macro it reaches mentions the type, or the
  // declaration or function around it does): a failed one is a copy impactd could not read.
  bool kernelArgument = false;
};

struct MacroExpansion {
  std::unique_ptr<SyntaxTree> tree;  // the re-parsed expansion; null when no invocation was expanded
  std::vector<MacroSite> sites;      // every invocation of a macro of the file, in source order
  // Positions of `tree` back to the file's.
  void mapBack(SourceRange& r) const;
};

// Expands the file's macros. Never throws on bad input: what it cannot expand is a site's failure.
MacroExpansion expandMacros(const SyntaxTree& tree);

}  // namespace impact::cpp
