// The kind and size of a launch-call argument, from what the file states (DOMAIN.md §3):
// `.ptr` members, `nullptr` and `void*` locals are pointers (global_buffer/8); float literals
// (`1.0F`) and float fields/locals are by_value/4; `static_cast<int32_t>(…)` is by_value/4,
// `static_cast<int64_t>(…)` by_value/8; a local, parameter or struct field named by the
// argument has its declared type (an `auto` local: its initializer's). Nothing is guessed: an
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
  bool known() const { return !kind.empty() && size != 0; }
};

// kind/size of a C++ type as written ("const float", "void*", "int64_t"), `pointer` when the
// declarator adds a `*`. Unknown type names come back not known.
InferredKind kindOfType(std::string_view typeText, bool pointer);

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
  };
  InferredKind infer(TSNode expr, int function, int depth) const;
  InferredKind ofDecl(const Decl& d, int depth) const;
  void read(TSNode root, bool fieldsOnly);
  const Ctx& c_;
  std::vector<Decl> decls_;
  std::set<int> prepared_;
  std::set<uint32_t> seen_;  // start bytes of declarators already read
};

}  // namespace impact::cpp
