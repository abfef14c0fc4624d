// The tree's builders as pairKernargs (CopyPairing.cpp) looks them up: by module and name, by the
// name of a copy's file (the builder's module or its own name appears in it), and by the argument
// names a copy shares with their lists.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "contracts/Kernargs.h"

namespace impact::kernargs_detail {

// Whether a builder's lists relate to a named copy: one of them (or it without its conditional
// arguments) has exactly the copy's names in order, or its closest list shares at least two of
// them and half of the copy's.
bool namesRelate(const PyBuilder& b, const CppArgList& copy);

// Among `cands`: the first builder whose names the copy matches exactly, and the related one
// sharing the most names.
std::pair<std::optional<BuilderRef>, std::optional<BuilderRef>> bestByNames(const std::vector<BuilderRef>& cands,
                                                                            const CppArgList& list);

// What a builder's module and name look like inside a file name ("attentiondense").
struct AffinityTokens {
  std::string module, name;
};

// Which builders a copy's file (squashed name) is named after: the builder's module or its own
// name (tokens of 3 characters or more) appears in the file name. The builders' tokens are in a
// hash map, looked up for every substring of the file name of a token's length (a file name is
// short, the builders many); the builders' indexes come out in order.
class AffinityIndex {
 public:
  AffinityIndex() = default;
  explicit AffinityIndex(const std::vector<AffinityTokens>& tokens);
  std::vector<size_t> matching(const std::string& file) const;

 private:
  absl::flat_hash_map<std::string, std::vector<size_t>> byToken_;
  std::set<size_t> lengths_;
};

// The builders of a tree, in the order of its files.
class Builders {
 public:
  explicit Builders(const TreeFacts& facts);
  const std::vector<BuilderRef>& all() const { return all_; }
  // The builders of `module`; null when it has none.
  const std::vector<BuilderRef>* ofModule(const std::string& module) const;
  // The builder `name` of `module` (or a method `<Class>.name`).
  std::optional<BuilderRef> find(const std::string& module, const std::string& name) const;
  // The builders `path`'s file name is named after (AffinityIndex), asked once per file.
  const std::vector<BuilderRef>& affineTo(const std::string& path);
  // The one public b.param builder of `path`'s arch whose module or name `path`'s file name is
  // named after (Gfx942AttentionDenseNative.cpp <-> kernels/gfx942/attention_dense.py); none when
  // no or several builders are.
  std::optional<BuilderRef> ofArchModule(const std::string& path) const;

 private:
  std::map<std::string, std::vector<BuilderRef>> byModule_;
  std::vector<BuilderRef> all_;
  std::vector<std::string> archs_;  // of each of all_, by its path
  AffinityIndex affinity_;
  std::map<std::string, std::vector<BuilderRef>, std::less<>> affineByFile_;
};

}  // namespace impact::kernargs_detail
