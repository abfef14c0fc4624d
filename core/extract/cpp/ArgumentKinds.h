// The kind and size of a launch-call argument, from what the file states (DOMAIN.md §3):
// `.ptr` members, `nullptr` and `void*` locals are pointers (global_buffer/8); float literals
// (`1.0F`) and float fields/locals are by_value/4; `static_cast<int32_t>(…)` is by_value/4,
// `static_cast<int64_t>(…)` by_value/8; a local, parameter or struct field named by the
// argument has its declared type (an `auto` local: its initializer's, through calls of the
// file's own functions and methods, `std::array` and C array elements and fields reached through
// accessors: ExpressionTypes.cpp; a declaration typed `decltype(E)`, or a reference/cv-stripping
// trait of it such as `std::decay_t<decltype(E)>`: E's). Each also gets its type class (`float` f32, `int32_t` s32,
// `uint32_t` u32, `1.0F` f32). Nothing is guessed: an
// argument whose kind the file does not state comes back unresolved, with the reason.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "extract/cpp/Context.h"

namespace impact::cpp {

struct InferredKind {
  std::string kind;      // "global_buffer" | "by_value" | "" when not stated
  uint32_t size = 0;
  std::string typeText;  // what it was read from: "float", "void*", ".ptr member", "1.0F"
  std::string why;       // when not stated: the reason
  std::string cls;       // the type class (Facts.h KernelArg::typeClass); "" when not stated
  bool known() const { return !kind.empty() && size != 0; }
};

// The declared type of an expression, as written in the file (ExpressionTypes.cpp): normalised
// (no const, no std::, no reference), a pointer with a trailing `*`, a C array with `[]`:
// "float", "array<int32_t, 3>", "PreparedConvFwd", "int32_t[]". Empty with `why` when the file
// does not state it.
struct TypeRef {
  std::string text;
  std::string why;
  bool known() const { return !text.empty(); }
};

// kind/size of a C++ type as written ("const float", "void*", "int64_t"), `pointer` when the
// declarator adds a `*`. Unknown type names come back not known.
InferredKind kindOfType(std::string_view typeText, bool pointer);

// The expression a declared type names by `decltype` (`decltype(E)`, `std::decay_t<decltype(E)>`,
// `std::remove_cvref_t<...>` and the other reference/cv-stripping traits of one): E; else null.
TSNode decltypeOperand(const Ctx& c, TSNode typeNode, int depth);

// The typed declarations a launch argument can name: the fields of every struct/class of the
// file (read once per file that has a launch call) and the locals and parameters of the
// functions that hold a launch call (read per function, on demand: the query runs over that
// function only, not the whole file). Namespace-scope names come from the file's constants.
class DeclaredTypes {
 public:
  explicit DeclaredTypes(const Ctx& c);
  // Reads the locals and parameters of function `function` (once); call before infer().
  void prepare(int function);
  // The kind of an argument expression written inside function `function` (-1: none).
  InferredKind infer(TSNode expr, int function) const;

 private:
  struct Decl {
    std::string name;
    std::string type;  // the declared type text
    bool pointer = false;
    bool field = false;  // a struct/class member
    int function = -1;   // the function it is local to (parameters included); -1 otherwise
    TSNode value{};      // the initializer, when any
    std::string suffix;  // the declarator's `*` and `[]`, outermost first ("*", "[]", "*[]")
    std::string owner;   // a field's class (its unqualified name)
    // A type stated as the type of an expression (`decltype(q.ptr)`, `std::decay_t<decltype(x)>`):
    // that expression, read in the function the declaration sits in (`site`); null otherwise.
    TSNode typeOf{};
    int site = -1;
  };
  // A function or method of the file and its return type (ExpressionTypes.cpp).
  struct FnDecl {
    std::string name;   // unqualified
    std::string owner;  // the class of a method ("" for a free function)
    std::string ret;    // the return type as typeOf writes it
  };
  InferredKind infer(TSNode expr, int function, int depth) const;
  InferredKind ofDecl(const Decl& d, int depth) const;
  void read(TSNode root, bool fieldsOnly);
  // ExpressionTypes.cpp: the declared type of an expression, and what it needs.
  TypeRef typeOf(TSNode expr, int function, int depth) const;
  TypeRef typeOfDecl(const Decl& d, int depth) const;
  TypeRef fieldType(TSNode fieldExpr, int function, int depth) const;
  TypeRef callType(TSNode call, int function, int depth) const;
  const Decl* local(const std::string& name, int function) const;
  std::string whereDeclared() const;
  void readFunctions();
  const Ctx& c_;
  std::vector<Decl> decls_;
  std::vector<FnDecl> fns_;
  std::set<std::string> classes_;        // the classes and structs this file defines
  std::vector<std::string> includes_;    // its includes, quoted ones first
  std::set<int> prepared_;
  std::set<uint32_t> seen_;  // start bytes of declarators already read
};

}  // namespace impact::cpp
