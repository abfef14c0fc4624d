// Local KernelArguments of a function the append reader (LambdaIdiom) walks: `KernelArgument a;`
// (or `a{…}`, `auto a = KernelArgument{…}`, an alias of the type), its fields set one by one
// (`a.kind = "by_value"; a.size = I32; a.offset = offset; a.name = "n";`), then appended
// (`v.push_back(a)`, `v.push_back(std::move(a))`): the element appended is what its fields hold
// there, evaluated with the walk's loop bindings. A use the reader does not follow (the local
// given to a call, assigned whole from something else, a field set under a condition of its
// own) makes the element unknown from there, with why: appended, it is an argument whose type is
// not resolved, at its position, never a dropped one.
#pragma once

#include <map>
#include <string>

#include "extract/cpp/Elements.h"

namespace impact::cpp {

class ElementLocals {
 public:
  struct Local {
    ElementParts parts;
    std::string unknown;  // why its fields are not known ("" when they are)
    size_t conditions = 0;  // conditions around its declaration
  };

  explicit ElementLocals(const Ctx& c) : c_(c) {}

  // A declaration of local elements, noted; true when `decl` was one (handled).
  bool declare(TSNode decl, size_t conditions);
  // `a.kind = …;` (or `a = KernelArgument{…}`, `a = other`) of a local: noted; true when handled.
  // `condition`: the innermost condition around it ("" when none).
  bool assign(TSNode assignment, size_t conditions, const std::string& condition);
  // A call given a local (`fill(a)`, `fill(&a)`) other than the append: it is no longer known.
  void given(TSNode call);
  // The local an append's single argument names (`a`, `std::move(a)`), else null.
  const Local* appended(TSNode arg) const;

 private:
  std::string nameOf(TSNode n) const;
  const Ctx& c_;
  std::map<std::string, Local> locals_;
};

}  // namespace impact::cpp
