// The ONE place that decides whether a C++ type is `KernelArgument` or a container of
// KernelArguments (issue 36 item 3): every extractor of this folder asks it, none reads a type's
// spelling. A type node is resolved through the syntax tree: `KernelArgument` (possibly
// qualified), the file's `using X = …;` and `typedef … X;` (alias templates too, scoped to where
// they are declared), the aliases the tree's headers declare (seeded: `Directives::aliases`), the
// standard sequence containers (`std::vector`, `std::array`, `std::initializer_list`, `std::span`,
// …) and C arrays of either, `decltype(expr)`, and `auto` deduced from the value it is initialised
// with (`KernelArgument{…}`, `std::vector<KernelArgument>{…}`, a call of one of the file's
// functions returning one, a variable declared so, a copy of one).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parse/Syntax.h"

namespace impact::cpp {

enum class KaKind : uint8_t { None, Element, List };

// The declarators of a declaration, field, parameter or typedef (`T a, *b[2] = …;`), by node
// type (the type and the specifiers left out).
std::vector<TSNode> declaratorsOf(TSNode decl);

// An alias a header of the tree declares, resolved in that header: name and kind.
using KaAlias = std::pair<std::string, KaKind>;

class KaTypes {
 public:
  explicit KaTypes(const SyntaxTree& tree) : tree_(tree) {}

  // Aliases declared by the tree's headers the file includes (visible in the whole file).
  void seed(const std::vector<KaAlias>& aliases);
  // One node of a pre-order walk: an alias, a function definition or a declaration is noted
  // (a later node may use what an earlier one declared). `scan` walks a whole tree.
  void visit(TSNode n);
  void scan(TSNode root);
  // The same walk, done when first asked (a file whose macros never need it does not pay it).
  void scanWhenAsked(TSNode root) { pending_ = root; }
  // For a caller about to walk the whole tree anyway (Ctx's collect) and `visit` each node: true
  // when it should (not walked yet), and no other walk will be made.
  bool claimWalk() {
    if (scanned_) return false;
    pending_ = TSNode{};
    scanned_ = true;
    return true;
  }
  const SyntaxTree& tree() const { return tree_; }

  // A type node as written at its place (type_identifier, qualified_identifier, template_type,
  // type_descriptor, placeholder `auto` (None: see ofDeclared), decltype).
  KaKind ofType(TSNode type) const;
  // A declaration's, field's or parameter's declarator: its type (`T x[N]` an array of T, a
  // pointer none), `auto` deduced from its value.
  KaKind ofDeclared(TSNode decl, TSNode declarator) const;
  // What an expression's value is.
  KaKind ofValue(TSNode expr) const;
  // What a function definition returns (a trailing return type, `auto` from its returns).
  KaKind returnOf(TSNode functionDefinition) const;
  // What a function definition or lambda's parameter #i is; None when it has no such parameter.
  KaKind parameterOf(TSNode function, size_t i) const;
  // Whether a function's return type or one of its parameters is KernelArgument-typed.
  bool headTyped(TSNode functionDefinition) const;
  // Whether an identifier token names KernelArgument or an alias of it or of a list of it
  // (anywhere in the file or its headers): what a macro body's tokens are judged by.
  bool namesType(std::string_view identifier) const;
  // The functions of the file named `name` (the last component of a qualified name).
  const std::vector<TSNode>& functionsNamed(std::string_view name) const;
  // Aliases declared at the top level of the file (namespaces included): what a header exports.
  std::vector<KaAlias> exported() const;

 private:
  struct Decl {
    uint32_t at = 0;               // where the declaration starts
    // Where it is visible; found from `node` when first asked (a parent in tree-sitter is a walk
    // down from the root: not paid for every declaration of a file).
    mutable uint32_t scopeStart = 0, scopeEnd = 0;
    mutable bool scoped = false;
    TSNode type{};                 // alias: the aliased type; variable: none
    TSNode declarator{};           // a typedef's declarator other than its name (`Args[4]`)
    TSNode node{};                 // the alias's declaration
    mutable KaKind kind = KaKind::None;  // a seeded alias's kind; a variable's once resolved
    bool seeded = false;
    mutable int state = 0;         // a variable: 0 not resolved yet, 1 resolving, 2 resolved
  };
  // The declaration `name` used at byte `at` refers to: the innermost visible one; `qualified`
  // (`ns::Name`): any declared at namespace or class level before it, too.
  const Decl* find(const std::map<std::string, std::vector<Decl>, std::less<>>& m, std::string_view name,
                   uint32_t at, bool qualified = false) const;
  KaKind ofTypeAt(TSNode type, int depth, bool qualified = false) const;
  KaKind ofValueAt(TSNode expr, int depth) const;
  KaKind returnAt(TSNode fn, int depth) const;
  KaKind ofDeclarator(KaKind base, TSNode declarator) const;
  KaKind ofDeclaredAt(TSNode decl, TSNode declarator, int depth) const;
  void noteAlias(std::string name, TSNode type, TSNode declarator, TSNode at);
  KaKind aliasKind(const Decl& d, int depth) const;
  KaKind variableKind(const Decl& d, int depth) const;

  void ensure() const;
  bool mayAlias() const;  // the file's text holds `using` or `typedef` (else it declares no alias)

  const SyntaxTree& tree_;
  mutable TSNode pending_{};
  bool scanned_ = false;
  mutable int mayAlias_ = -1;
  std::map<std::string, std::vector<Decl>, std::less<>> aliases_;
  // Variables resolved when first asked (a call of a function defined further down resolves);
  // a Decl's cache is mutable.
  mutable std::map<std::string, std::vector<Decl>, std::less<>> variables_;
  mutable std::map<std::string, std::vector<TSNode>, std::less<>> functions_;
  std::vector<TSNode> declarations_;  // functions, declarations, range-fors: indexed when asked
  mutable size_t indexed_ = 0;
  void index() const;
  mutable std::map<uint32_t, KaKind> returns_;  // deduced return kinds, by the function's start
};

}  // namespace impact::cpp
