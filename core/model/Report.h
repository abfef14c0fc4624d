// What judgement produces: one row per contract touched by the change, and the rollup.
#pragma once

#include <string>
#include <vector>

#include "model/Facts.h"

namespace impact {

enum class Status { Mismatch, Changed, Inert, Outside };
const char* statusName(Status s);

struct Location {
  std::string path;
  uint32_t line = 0;      // 1-based; 0 when not known
  std::string symbol;
  SourceRange range;      // 0-based, for editors: the builder's name, the copy's list
  SourceRange focus;      // 0-based: the argument the row is about (the first difference); else range
  bool empty() const { return path.empty(); }
};

struct Row {
  std::string contract;   // "kernargs", ...
  Status status = Status::Changed;
  bool preexisting = false;  // the mismatch was already there at the base
  bool inertTouch = false;   // pre-existing, and every file it reads changed only inertly (comments,
                             // whitespace, equal values) or not at all: it asks for no device run
  Location python;        // the builder side
  Location mirror;        // the copy
  std::string message;
  std::vector<std::string> archs;  // device runs that would settle a changed row
  std::string key;        // stable identity of the contract (pairs rows across revisions)
  std::string label;      // "BUILD" | "DEPS" for files left to those lanes; "" otherwise
  std::string view;       // "" (head vs base) | "merged" (found only in head merged into the target tip)
  std::string pairedBy;   // kernargs: which declaration paired the copy with its builder (KernargsPair::pairedBy)
};

struct Rollup {
  std::string verdict;    // "BREAKS" | "NEEDS-DEVICE" | "NONE" | "N/A"
  std::vector<std::string> archs;  // for NEEDS-DEVICE
  std::vector<std::string> lanes;  // "BUILD", "DEPS": labelled rows left to those lanes
  // "Runtime impact: NEEDS-DEVICE gfx950", "Runtime impact: N/A; BUILD, DEPS left to their lanes"
  std::string line() const;
};

struct Report {
  std::string base, head;   // commit ids, or "working tree"
  std::string mergeBase;
  std::vector<Row> rows;
  Rollup rollup;
  std::vector<std::string> notes;
  std::string packTime;     // "Pack-time: CLEAN | NEW n, FIRST-SHIPPED m" (R5); "" without an emit document
  // What the head's accounting counted (contracts/Accounting.h): the coverage line. `known` is
  // false when the report was made without it.
  struct Coverage {
    bool known = false;
    size_t copiesCompared = 0, copiesTotal = 0, buildersRead = 0, buildersTotal = 0;
  } coverage;
};

// SPEC R3.3: BREAKS if any mismatch the change brings; else NEEDS-DEVICE with the archs of the
// changed rows; else NONE when rows exist (touched only inertly); else N/A.
// Rows labelled BUILD or DEPS never ask for a device run: they set `lanes` instead, which the
// verdict line names after the verdict.
// A pre-existing mismatch does not make the change BREAK (it is reported, and noted); one whose
// files changed only inertly (Row::inertTouch) counts as inert: a change that is inert everywhere
// is NONE, whatever was already wrong at the base.
Rollup rollUp(const std::vector<Row>& rows);

}  // namespace impact
