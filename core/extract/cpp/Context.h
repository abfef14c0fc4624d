// What every C++ extractor shares: small null-safe node helpers, the scopes and functions of a
// file by byte range, its named constants, its types (KaTypes: which are KernelArgument) and
// its KernelArgument elements (the first pass, collect()).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "extract/cpp/KaTypes.h"
#include "model/Facts.h"
#include "parse/QuerySet.h"
#include "parse/Syntax.h"

namespace impact::cpp {

constexpr int kMaxEvalDepth = 48;      // constant chains, nested casts, parentheses
constexpr int kMaxStmtDepth = 256;     // statement nesting followed by the lambda-idiom walk
constexpr int kMaxAscend = 8;          // nested braces between a list and its position
constexpr size_t kMaxUnroll = 4096;    // calls emitted per lambda (loops over literal lists)

// Small node helpers (null-safe: tree-sitter's C API dereferences null nodes).
bool isNull(TSNode n);
std::vector<TSNode> items(TSNode n);  // named children that are not comments
TSNode parentOf(TSNode n);
bool sameNode(TSNode a, TSNode b);
std::string trim(std::string_view s);
std::string collapse(std::string_view s);  // whitespace runs collapsed to one space, trimmed
std::string noSpace(std::string_view s);
std::string lastComponent(std::string_view s);  // last `::` component of a qualified name
TSNode innermostIdentifier(TSNode n);           // the identifier a declarator declares
bool hasConstQualifier(const SyntaxTree& tree, TSNode decl);

// Scopes and functions, by byte range.
struct Span {
  uint32_t start = 0, end = 0;
  bool contains(TSNode n) const { return ts_node_start_byte(n) >= start && ts_node_end_byte(n) <= end; }
};

struct Scope {
  Span span;
  std::string name;  // namespace or class name ("" for an anonymous namespace)
};

struct Function {
  Span span;
  TSNode node;
};

// Where a name is used: the namespaces/classes around it and the function it is in.
struct Site {
  std::vector<std::string> scope;
  int function = -1;  // index into Ctx::functions, -1 at namespace scope
};

struct Constant {
  Site site;
  std::string qualified;  // "a::b::NAME" (scope components joined)
  TSNode value;
  TSNode id{};            // the declared identifier
};

struct Ctx {
  const SyntaxTree& tree;
  std::vector<Scope> scopes;
  std::vector<Function> functions;
  std::unordered_map<std::string, std::vector<Constant>> constants;  // by unqualified name
  std::shared_ptr<KaTypes> typesHeld;
  KaTypes& types;  // whether a type, declaration, value or function is KernelArgument-typed (KaTypes.h)
  std::set<std::pair<uint32_t, uint32_t>> kaElements;  // byte ranges of KernelArgument{...}
  QueryMatches matches;  // every core/queries/cpp_*.scm over the whole file: one cursor pass
  // Invocations of the file's macros left as written (Macros.h) where they build KernelArguments,
  // by 0-based line: the macro's name and "not read: macro X (line N): why". A walk reaching one
  // stops knowing the list there.
  std::map<uint32_t, std::pair<std::string, std::string>> unexpanded;

  // `shared`: the file's types already made for this tree (by the macro expansion), else new ones.
  explicit Ctx(const SyntaxTree& t, std::shared_ptr<KaTypes> shared = nullptr)
      : tree(t),
        typesHeld(shared && &shared->tree() == &t ? std::move(shared) : std::make_shared<KaTypes>(t)),
        types(*typesHeld) {}

  std::string_view text(TSNode n) const { return tree.text(n); }
  int functionOf(TSNode n) const;
  Site siteOf(TSNode n) const;
  bool isKaElement(TSNode n) const {
    return is(n, "compound_literal_expression") &&
           kaElements.count({ts_node_start_byte(n), ts_node_end_byte(n)}) > 0;
  }
};

// Pass 1: the file's query matches (one walk of the C++ shapes, QuerySet), scopes,
// functions, KernelArgument-typed variables, KernelArgument{...} elements, constants.
void collect(Ctx& c);

// Function names.
TSNode functionDeclarator(TSNode def);
bool isTestCase(const Ctx& c, TSNode def);            // a gtest TEST(...)/TEST_F(...) body
std::string functionName(const Ctx& c, TSNode def);       // "Class::method", "Suite.Test" for gtest
std::string_view functionHead(const Ctx& c, TSNode def);  // the text before the body
std::string declaredName(const Ctx& c, TSNode declarator);
std::string calleeName(const Ctx& c, TSNode call);

}  // namespace impact::cpp
