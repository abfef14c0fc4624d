// Scopes and bindings of the Python extractor: where each name is bound, on which path of
// branches, and the events (b.param calls, SignatureBuilder calls, returns) a function walk
// records with the conditions that enclose them.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "parse/Syntax.h"

namespace impact::pyextract {

using Path = std::vector<uint64_t>;  // ids of the branches enclosing a point

struct Binding {
  enum Kind { Assign, ImportName, ImportModule, Param, Loop, Other };
  Kind kind = Other;
  uint32_t effective = 0;  // holds from this byte on
  uint32_t stmtStart = 0;  // where its right-hand side is evaluated
  Path path;
  TSNode value{};          // Assign: the expression bound to this name
  std::string what;        // ImportName: imported name; ImportModule: module; Loop: iterable; Other
  std::string from;        // ImportName: the module
};

struct Scope {
  bool isModule = true;
  std::string fnName;
  const Scope* parent = nullptr;  // the module scope, for a function scope
  std::unordered_map<std::string, std::vector<Binding>> names;
  std::set<std::pair<uint32_t, std::string>> seen;  // (statement start, name): dedupe unrolled bodies
};

inline bool isPrefix(const Path& a, const Path& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A point of use: byte position and the branch path there.
struct Use {
  uint32_t pos;
  const Path* path;
};

// Bindings that may hold at `u`: the latest one before u and earlier ones until one that

// Bindings that may hold at `u`: the latest one before u and earlier ones until one that
// always holds (its branch path is a prefix of the use's).
std::vector<const Binding*> candidates(const Scope& s, const std::string& name, Use u, bool* anyLocal);

// Events recorded while walking a function

struct Cond {
  TSNode node{};      // the condition expression (null: `text` holds it)
  bool negate = false;
  std::string text;   // for match/case
  Use use{0, nullptr};
  std::shared_ptr<Path> path;  // branch path at the condition
};

struct LoopVar {
  std::string name;
  TSNode elem;
  uint32_t pos;
};

struct Ctx {
  Path path;
  std::vector<Cond> conds;
  std::vector<LoopVar> loops;
};

struct Event {
  enum Type { Param, SigMethod, Return, HelperCall };
  Type type;
  TSNode node;   // the call (Param, SigMethod, HelperCall: `f(b, ...)`) or the return statement
  Ctx ctx;
};


}  // namespace impact::pyextract
