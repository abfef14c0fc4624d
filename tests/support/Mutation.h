// Source-text mutations of a Python kernel builder's argument declarations, for the mutation
// harness (tests/e2e/RealMutationTest.cpp): the declarations are found from the extractor's
// facts (`impact facts`: each argument's declaring-call line), the statements around them from
// the text (balanced parentheses), and each mutation is a text edit of the real file read from
// ../shared/real-data at test time. Nothing of the real code is kept in this repository.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/FixtureRepo.h"

namespace impact::testing {

// A read-only ../shared/real-data/<sub> folder copied into a fresh repository and committed
// (the untouched tree); `ok()` is false when the folder is absent.
class SharedTreeRepo : public FixtureRepo {
 public:
  explicit SharedTreeRepo(const std::string& sub);
  bool ok() const { return ok_; }
  std::string untouched;  // the commit of the untouched tree
  std::string empty;      // an empty root commit
  std::string all;        // the untouched tree as one commit on top of `empty`

 private:
  bool ok_ = false;
};

// One report row: status, contract, python side, copy side (line numbers dropped), and the
// whole line.
struct ReportRow {
  std::string status, contract, python, copy, line;
};
std::vector<ReportRow> parseRows(const std::string& reportText);
// "path:123 fn" -> "path fn".
std::string dropLine(std::string side);

// A builder (file + function, as the report's python side names it) and every copy the report
// pairs with it on the untouched tree (copy sides, lines dropped).
struct BuilderPairs {
  std::string file;  // repository-relative path of the builder module
  std::string function;
  std::set<std::string> copies;
  std::map<std::string, std::string> untouchedRow;  // copy -> its whole row on the untouched tree
};
// Builders and their copies from the "kernargs" rows of a report of the whole tree.
std::vector<BuilderPairs> pairsFromReport(const std::string& reportText);

// One declaring statement in the builder's source.
struct Decl {
  std::string name;   // the argument's name
  std::string kind;   // global_buffer / by_value / ...
  std::string klass;  // i32 / f32 / ... ("" for pointers)
  std::string type;   // the type expression as written ("I32", "PtrType(...)")
  size_t begin = 0;   // offset of the statement's first character (its line's start)
  size_t end = 0;     // offset just past the statement's last line (its newline)
  std::string indent;
  std::string receiver;  // the builder object the call is made on ("b")
};

// The unconditional argument list of `function` in the facts JSON of its module (the abi whose
// guard is empty; arguments without a guard), located in `source`. Empty when not found; `why`
// says why.
std::vector<Decl> locateDecls(const std::string& factsJson, const std::string& function, const std::string& source,
                              std::string& why);

struct Mutation {
  std::string label;   // "append I32", "retype scale F32->I32", ...
  std::string source;  // the mutated module text ("" when not applicable)
  std::string note;    // why not applicable
};
// The four mutations of issue 26 item 6: append an unconditional I32 after the declarations, one
// scalar's type changed at equal size (I32<->F32), two adjacent declarations swapped (at a
// pointer/scalar boundary when there is one), the last unconditional declaration dropped; and a
// fifth, two adjacent declarations of the same kind swapped (two pointers: the real break
// issue 26 names), when the tree has such a pair.
std::vector<Mutation> mutationsOf(const std::string& source, const std::vector<Decl>& decls);

}  // namespace impact::testing

namespace impact::testing {

// An equivalent rewrite of a builder's declarations (issue 26 item 6, metamorphic): the
// contiguous run of unconditional `v = b.param("name", TYPE, kw=...)` statements that starts at
// the first declaration, rewritten into another Python form that declares the same arguments in
// the same order. `check` is a self-contained Python program that runs the original run and the
// rewritten one against a recording stand-in (IRBuilder/PtrType/I32/F32 stubs that record each
// param call) and prints "same" when both record the same calls, and the variables bound to them.
struct Rewrite {
  std::string label;
  std::string source;  // the rewritten module ("" when not applicable)
  std::string check;   // the Python check program
  // A second module the rewrite adds (the declarations moved to a helper of another module of the
  // tree): its path under `rocke/library/` and its text; "" for a rewrite within the module.
  std::string modulePath, moduleSource;
};
std::vector<Rewrite> rewritesOf(const std::string& source, const std::vector<Decl>& decls);

}  // namespace impact::testing
