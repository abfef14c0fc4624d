// The kernargs contract (SPEC R2.1–R2.3): which copy of an argument list pairs with which
// builder, and how a copy compares with the builder's argument lists.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/ShippedVariants.h"
#include "model/Facts.h"
#include "model/Layout.h"

namespace impact {

struct BuilderRef {
  std::string path;  // the Python module
  const PyBuilder* builder = nullptr;
  std::string key() const { return path + "|" + builder->name; }
};

struct CopyRef {
  std::string path;  // the C++ file
  const CppArgList* list = nullptr;
  std::string key;   // stable across revisions: path, form, symbol, variable, ordinal
};

struct KernargsPair {
  CopyRef copy;
  std::optional<BuilderRef> builder;  // empty: the copy could not be paired (see note)
  bool declared = false;              // paired through a manifest kernargs surface
  std::string manifest;               // that manifest's path
  std::string note;                   // why unpaired, or how it was paired when not by name
  // Which declaration paired it (SPEC R2.3), in the order pairing tries them:
  //   "profile <path> launch_surface <entry>", "KDP <path> kernel_source" (a descriptor copy's own
  //   launch, or a pack the KDP names), "catalog <path> folder and symbol",
  //   "generator config <path> pack <engine>", "argument names", "file name convention (...)".
  std::string pairedBy;
  std::string declaration;            // the declaring file of pairedBy ("" for names and file names)
  std::vector<std::string> declaredArchs;  // the archs that declaration ships the pack for
  // The builder's shipped variants, where a declaration states them (ShippedVariants.h): they
  // decide a copy that lacks conditional arguments (SPEC R2.2). Null: not known.
  std::shared_ptr<const ShippedSet> shipped;
  // A copy the pairing restated (an AOT catalog entry with its producer's spec, CatalogPairing.h):
  // `copy.list` points here.
  std::shared_ptr<const CppArgList> ownList;
  // A builder the pairing restated (the builder of an AOT catalog entry with the conditional
  // arguments its producer's spec decides, decided): `builder->builder` points here.
  std::shared_ptr<const PyBuilder> ownBuilder;
  // An AOT catalog entry whose family's producer builds no kernel of its symbol: its `.co` is not
  // written, and the catalog engine fails to load the family (a mismatch, KernargRows.cpp).
  bool unbuilt = false;
};

// Pairs every copy in the tree with its builder (R2.3). Copies that pair with nothing and
// are not declared in a manifest are left out of the result; `unpaired`, when given, gets them,
// each with a note saying why (the accounting of impact check and the report's coverage line).
std::vector<KernargsPair> pairKernargs(const TreeFacts& facts, const Layout& layout,
                                       std::vector<KernargsPair>* unpaired = nullptr);

struct Comparison {
  enum class Outcome { Agree, AgreeWithoutConditional, Disagree };
  Outcome outcome = Outcome::Disagree;
  const PyAbi* abi = nullptr;       // the builder's list the copy was compared with
  std::string message;              // what differs; empty when they agree
  std::vector<std::string> unresolved;  // builder arguments whose type could not be resolved
  int distance = 0;
  // Which copy argument stands for which argument of `abi` (indices into abi->args and
  // copy.args); and the first difference on each side (-1: none on that side).
  std::vector<std::pair<int, int>> pairs;
  int focusBuilder = -1, focusCopy = -1;
  // The part of the lists that could not be compared, said in the row: "arguments after #6 are
  // declared by emit_param_block (…)", "the trailing parameter pack values... (from a std::variant)".
  std::vector<std::string> notCompared;
  // Agree because the conditional arguments the copy lacks are off for every shipped variant:
  // says so ("copy leaves out ... : the guard is off for every shipped variant (12, from ...)").
  std::string shippedNote;
};

// The builder list a copy agreed with at the merge base (stable pairing, issue 36 item 4): its
// function and early-return guard, and whether the copy's code is as it was then.
struct ListAtBase {
  std::string origin, guard;
  bool copyUnchanged = false;
};

// Compares a copy with every argument list of the builder and keeps the closest (R2.1, R2.2).
// `shipped`: the builder's shipped variants, where known; they decide a copy that lacks
// conditional arguments (kernargs/ShippedDecision.h). A descriptor copy's own spec is its variant.
// `atBase`: the list the copy agreed with at the merge base. While the builder still has it, a
// mismatch with it stands against another list that agrees only through an open end (or, the
// copy unchanged, against any other list): the copy is judged against the list it matched.
Comparison compareCopy(const PyBuilder& builder, const CppArgList& copy, const ShippedSet* shipped = nullptr,
                       const ListAtBase* atBase = nullptr);

// compareCopy on a pair (its builder, copy and shipped variants); the pair must have a builder.
Comparison comparePair(const KernargsPair& pair, const ListAtBase* atBase = nullptr);

// "by_value/4", "global_buffer/8", "?" for unknown.
std::string kindSize(const KernelArg& a);

}  // namespace impact
