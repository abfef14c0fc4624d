#pragma once
// Launch values as evidence (issue 36 item 4). A launch call states expressions, not names, so
// its kinds and sizes are compared and its names never were; but a value that designates an
// object by name says which argument it is meant for. Two kinds of evidence:
//  - a value whose name is another argument's (`o.ptr` in the slot the builder calls V) while
//    that argument's own slot does not get a value of its name: a mismatch naming both;
//  - two named values that traded places between the merge base and the head while the builder's
//    list stayed as it was: a mismatch ("values of V and O swapped").
// Names come from the value's syntax (KernelArg::valueNames, read by the C++ extractor), matched
// through one normalisation (nameKey); nothing is decided from the expression's text.

#include <string>
#include <string_view>
#include <vector>

#include "contracts/kernargs/ArgListDiff.h"
#include "model/Facts.h"

namespace impact::kernargs_detail {

// The words of an identifier, lower-case: split at `_` and other non-alphanumerics, at a
// lower-to-upper step, before the last capital of a capital run that a lower-case letter follows,
// and between letters and digits ("cuSeqLensQ" -> cu seq lens q; "LSEPtr" -> lse ptr;
// "qq_bias_stride_0" -> qq bias stride 0).
std::vector<std::string> identifierWords(std::string_view id);

// The key a name is matched by: its words without trailing "ptr"/"pointer" words, joined. So
// `o_ptr`, `oPtr`, `O` and `o` are all "o"; `block_tables_ptr` and `blockTables` "blocktables";
// `seqlen_q` and `seqlenQ` "seqlenq".
std::string nameKey(std::string_view id);

// The key of a launch value: the last of its designated names whose key is not empty (`o.ptr`
// -> "o", `static_cast<int32_t>(binding.numSeqs)` -> "numseqs", `sinkPtr` -> "sink"); "" when the
// value designates nothing by name.
std::string valueKey(const KernelArg& value);

// Whether the value's name is the argument's: the same key, or, for a pointer value whose key is
// one letter and a pointer argument, the argument's key begins with that letter (`q.ptr` for
// query_ptr, as the real packs abbreviate tensors).
bool valueNames(const KernelArg& value, const KernelArg& arg);

// The one argument of `args` (index) the value names: the only one of the same key; else the
// only one its one-letter abbreviation names. -1: none, or more than one (never guessed).
int namedArgument(const KernelArg& value, const std::vector<KernelArg>& args);

// The launch values of `c` (paired one to one with `b` by `d.pairs`; lists of equal length only)
// that name another argument of `b` whose own slot does not get a value naming it, added to `d`
// as differences: "values of output_ptr and value_cache_ptr swapped: the launch passes v.ptr at #0
// (output_ptr's slot) and o.ptr at #3 (value_cache_ptr's slot)", or "the launch passes o.ptr at #3
// (value_cache_ptr's slot), a value named for output_ptr (#0)".
void addValueEvidence(Diff& d, const std::vector<KernelArg>& b, const std::vector<KernelArg>& c);

// Named launch values that moved to another slot between the base and the head, the builder's
// list (each slot's name, kind and size, and its open end) as it was: each value's expression
// unique in both launches, the launches equally long, the value not named for its new slot (a
// move that puts a value where its name belongs is a fix). `message` is "" when none moved.
struct MovedValues {
  std::string message;
  int focusBuilder = -1, focusCopy = -1;
};
MovedValues movedValues(const PyAbi& baseAbi, const PyAbi& headAbi, const CppArgList& baseCopy,
                        const CppArgList& headCopy);

}  // namespace impact::kernargs_detail
