#include "contracts/kernargs/NameKeyedPairing.h"

#include <set>
#include <tuple>

namespace impact::kernargs_detail {

void pairNameKeyed(const std::vector<BuilderRef>& all, KernargsPair& p) {
  std::set<std::string> accepted;
  for (const auto& a : p.copy.list->args) accepted.insert(a.name);
  if (accepted.empty()) return;
  const std::string arch = archFromPath(p.copy.path);
  // (common, public b.param builder, -left out, same arch): larger is better. A public builder
  // before the private body it returns early to (`_build_attention_dense_persistent`).
  std::tuple<size_t, bool, long, bool> best{0, false, 0, false};
  for (const auto& b : all) {
    std::set<std::string> declared;
    for (const auto& abi : b.builder->abis)
      for (const auto& a : abi.args) declared.insert(a.name);
    size_t common = 0;
    long leftOut = 0;
    for (const auto& n : declared) {
      if (accepted.count(n)) ++common;
      else ++leftOut;
    }
    if (common < 2 || 2 * common < accepted.size()) continue;
    bool params = b.builder->style == PyBuilder::Style::Params && !b.builder->name.starts_with("_");
    std::tuple<size_t, bool, long, bool> score{common, params, -leftOut, !arch.empty() && archFromPath(b.path) == arch};
    if (!p.builder || score > best) {
      best = score;
      p.builder = b;
    }
  }
}

}  // namespace impact::kernargs_detail
