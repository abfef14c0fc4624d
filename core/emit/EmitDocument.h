// The emit document (SPEC R4): what `impact emit` recorded for every shipped rocKE variant at the
// base and the head, and the tree ids it was made for. Written by the emitter (emitter/), read and
// validated here for the fold (core/emit/Fold.h). Pure data and JSON; no process handling.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/status/statusor.h"

namespace impact::emit {

// Bumped whenever a field's meaning changes; a document of another schema is refused.
// 2: a document may be one shard of a run (`shard`); a reader of 1 would take it for a whole run.
inline constexpr int kSchemaVersion = 2;
inline constexpr const char* kSchemaName = "impactd-emit";

struct ArgRecord {
  std::string name, kind, type;  // kind: global_buffer | by_value
  uint32_t size = 0;
  bool operator==(const ArgRecord&) const = default;
};

struct KernelRecord {
  std::string name;
  std::vector<ArgRecord> args;
  std::string irSha256;
  nlohmann::json compile;  // {"isa", "options" (list or "unknown"), "fresh_process"}
  bool operator==(const KernelRecord&) const = default;
};

// One variant built at one revision.
struct VariantSide {
  bool present = false;      // the revision ships the variant
  nlohmann::json spec;       // the spec it was built with
  std::string error;         // the builder or lowering raised (the variant failed)
  std::vector<KernelRecord> kernels;
  bool otherShard = false;   // a shard document: another shard builds it (emit/Shards.h merges)
};

struct Variant {
  std::string name;          // the shipping UKD's name (the first, when several ship it)
  std::string arch;
  VariantSide base, head;
  // Equal arguments, IR and compile inputs, kernel by kernel, built without error at both.
  bool equal() const;
  bool argsEqual() const;
};

struct FamilySide {
  std::string status;                // "ok" | "failed" | "timed_out" | "absent" | "not_run"
                                     // | "other_shard" (a shard document: no chunk of it is here)
  std::string error;
  bool built = false;                // false: taken from the emitter's cache
  std::vector<std::string> closure;  // repository paths of the modules the family imports
};

// A family: one (source module, builder).
struct Family {
  std::string source;   // relative to the library root ("kernels/gfx950/x.py")
  std::string path;     // repository path of the source module
  std::string builder;
  FamilySide base, head;
  std::vector<Variant> variants;
  // An AOT catalog family (issue 39): the producer scripts whose kernels are its variants
  // (optional in the document: absent for a family only descriptors ship).
  std::vector<std::string> producers;
  std::string key() const { return source + ":" + builder; }
};

struct Failure {
  std::string family;   // "source:builder", "" for the run itself
  std::string message;
};

struct NotInspected {
  std::string path;     // the descriptor file
  std::string reason;
};

// The part of a run a document holds when made with `impact emit --shard K/N`: shard `index` (1..N)
// of `count`, built only `families` (keys "source:builder"). Absent: the whole run.
struct Shard {
  int index = 0, count = 0;
  std::vector<std::string> families;  // the families with a chunk in this shard
  std::vector<std::string> chunks;    // "source:builder#c": the chunks this shard builds
  bool operator==(const Shard&) const = default;
};

struct EmitDocument {
  int schema = kSchemaVersion;
  std::string baseTree, headTree;      // tree keys (emit/TreeKey.h)
  std::string baseCommit, headCommit;  // for people; "working tree" for an uncommitted head
  std::string flavor;                  // ROCKE_LLVM_FLAVOR both revisions were lowered with
  std::string driverVersion;
  std::vector<Family> families;
  std::vector<Failure> failures;
  std::vector<NotInspected> notInspected;
  nlohmann::json packTime;             // R5 tables (emit/PackTime.h); null when not probed
  std::optional<Shard> shard;          // set: one shard of a run (emit/Shards.h merges them)
  // The confinement the children ran in ({confined, filesystem, network, layers, limits}, written
  // by the emitter, docs/emitter.md); null in a document of an emitter before it. For people and
  // CI: the fold does not read it.
  nlohmann::json sandbox;
};

nlohmann::json toJson(const EmitDocument& doc);
std::string renderEmitDocument(const EmitDocument& doc);  // pretty JSON, trailing newline

// Errors: "not JSON (byte N: ...)", "schema impactd-emit/2, this impact reads 1",
// "malformed: families[3].variants[0].base.kernels is not a list", ...
absl::StatusOr<EmitDocument> parseEmitDocument(std::string_view text);

}  // namespace impact::emit
