#include "contracts/kernargs/LaunchValues.h"

#include <cctype>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact::kernargs_detail {

namespace {
bool lvAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool lvDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool lvLower(char c) { return std::islower(static_cast<unsigned char>(c)) != 0; }
bool lvUpper(char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; }
bool lvPointer(const KernelArg& a) { return a.kind == "global_buffer"; }

std::string lvSlotName(const std::vector<KernelArg>& args, size_t i) {
  return i < args.size() && !args[i].name.empty() ? args[i].name + "'s slot" : absl::StrCat("slot #", i);
}
}  // namespace

std::vector<std::string> identifierWords(std::string_view id) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(std::move(cur));
    cur.clear();
  };
  for (size_t i = 0; i < id.size(); ++i) {
    char ch = id[i];
    if (!lvAlnum(ch)) {
      flush();
      continue;
    }
    if (!cur.empty()) {
      char prev = id[i - 1];
      bool boundary = lvDigit(ch) != lvDigit(prev) || (lvLower(prev) && lvUpper(ch)) ||
                      (lvUpper(prev) && lvUpper(ch) && i + 1 < id.size() && lvLower(id[i + 1]));
      if (boundary) flush();
    }
    cur += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  flush();
  return out;
}

std::string nameKey(std::string_view id) {
  std::vector<std::string> w = identifierWords(id);
  while (!w.empty() && (w.back() == "ptr" || w.back() == "pointer")) w.pop_back();
  return absl::StrJoin(w, "");
}

std::string valueKey(const KernelArg& value) {
  for (auto it = value.valueNames.rbegin(); it != value.valueNames.rend(); ++it)
    if (std::string k = nameKey(*it); !k.empty()) return k;
  return "";
}

bool valueNames(const KernelArg& value, const KernelArg& arg) {
  std::string vk = valueKey(value), ak = nameKey(arg.name);
  if (vk.empty() || ak.empty()) return false;
  if (vk == ak) return true;
  return vk.size() == 1 && lvPointer(value) && lvPointer(arg) && ak[0] == vk[0];
}

int namedArgument(const KernelArg& value, const std::vector<KernelArg>& args) {
  std::string vk = valueKey(value);
  if (vk.empty()) return -1;
  int exact = -1, exactCount = 0, abbrev = -1, abbrevCount = 0;
  for (size_t j = 0; j < args.size(); ++j) {
    std::string ak = nameKey(args[j].name);
    if (ak.empty()) continue;
    if (ak == vk) exact = int(j), ++exactCount;
    else if (valueNames(value, args[j])) abbrev = int(j), ++abbrevCount;
  }
  if (exactCount) return exactCount == 1 ? exact : -1;
  return abbrevCount == 1 ? abbrev : -1;
}

void addValueEvidence(Diff& d, const std::vector<KernelArg>& b, const std::vector<KernelArg>& c) {
  if (b.size() != c.size()) return;
  std::vector<int> copyAt(b.size(), -1);
  for (auto [i, k] : d.pairs)
    if (i >= 0 && size_t(i) < b.size()) copyAt[i] = k;
  struct Misplaced {
    int slot, builder, named;  // copy index, the builder argument of its slot, the one it names
  };
  std::vector<Misplaced> found;
  for (auto [i, k] : d.pairs) {
    if (i < 0 || k < 0 || size_t(i) >= b.size() || size_t(k) >= c.size()) continue;
    int j = namedArgument(c[k], b);
    if (j < 0 || j == i || valueNames(c[k], b[i])) continue;
    int own = copyAt[j];  // the named argument's own slot also gets a value of its name: a reuse
    if (own >= 0 && size_t(own) < c.size() && valueNames(c[own], b[j])) continue;
    found.push_back({k, i, j});
  }
  std::vector<bool> done(found.size(), false);
  for (size_t x = 0; x < found.size(); ++x) {
    if (done[x]) continue;
    const Misplaced& e = found[x];
    d.focus(e.builder, e.slot);
    done[x] = true;
    size_t y = x + 1;
    while (y < found.size() && (done[y] || found[y].builder != e.named || found[y].named != e.builder)) ++y;
    if (y < found.size()) {
      const Misplaced& f = found[y];
      done[y] = true;
      d.distance += 2;
      d.parts.push_back(absl::StrCat("values of ", b[e.builder].name, " and ", b[f.builder].name,
                                     " swapped: the launch passes ", c[e.slot].name, " at #", e.slot, " (",
                                     lvSlotName(b, e.builder), ") and ", c[f.slot].name, " at #", f.slot, " (",
                                     lvSlotName(b, f.builder), ")"));
      continue;
    }
    d.distance += 1;
    d.parts.push_back(absl::StrCat("the launch passes ", c[e.slot].name, " at #", e.slot, " (", lvSlotName(b, e.builder),
                                   "), a value named for ", b[e.named].name, " (#", e.named, ")"));
  }
}

MovedValues movedValues(const PyAbi& baseAbi, const PyAbi& headAbi, const CppArgList& baseCopy,
                        const CppArgList& headCopy) {
  MovedValues out;
  const auto& was = baseCopy.args;
  const auto& now = headCopy.args;
  if (was.size() != now.size() || baseAbi.origin != headAbi.origin || baseAbi.guard != headAbi.guard ||
      baseAbi.args.size() != headAbi.args.size() ||
      baseAbi.tailHelper != headAbi.tailHelper || baseCopy.openTail != headCopy.openTail)
    return out;
  for (size_t i = 0; i < baseAbi.args.size(); ++i) {
    const KernelArg &x = baseAbi.args[i], &y = headAbi.args[i];
    if (x.name != y.name || x.kind != y.kind || x.size != y.size || x.conditional != y.conditional) return out;
  }
  std::map<std::string, int> wasCount, nowCount;
  std::map<std::string, size_t> wasAt;
  for (size_t i = 0; i < was.size(); ++i) ++wasCount[was[i].name], wasAt[was[i].name] = i;
  for (const auto& v : now) ++nowCount[v.name];
  const std::vector<KernelArg>& slots = headAbi.args;
  struct Move {
    size_t from, to;
  };
  std::vector<Move> moves;
  for (size_t k = 0; k < now.size(); ++k) {
    const KernelArg& v = now[k];
    if (v.valueNames.empty() || nowCount[v.name] != 1 || wasCount[v.name] != 1) continue;
    size_t from = wasAt[v.name];
    if (from == k) continue;
    if (namedArgument(v, slots) == int(k)) continue;  // moved to where its name belongs: a fix
    moves.push_back({from, k});
  }
  std::vector<std::string> parts;
  std::vector<bool> done(moves.size(), false);
  for (size_t x = 0; x < moves.size(); ++x) {
    if (done[x]) continue;
    const Move& m = moves[x];
    done[x] = true;
    if (out.focusCopy < 0) out.focusCopy = int(m.to), out.focusBuilder = m.to < slots.size() ? int(m.to) : -1;
    size_t y = x + 1;
    while (y < moves.size() && (done[y] || moves[y].from != m.to || moves[y].to != m.from)) ++y;
    if (y < moves.size()) {
      done[y] = true;
      std::string a = m.to < slots.size() ? slots[m.to].name : absl::StrCat("#", m.to);
      std::string b = m.from < slots.size() ? slots[m.from].name : absl::StrCat("#", m.from);
      parts.push_back(absl::StrCat("values of ", a, " and ", b, " swapped since the base: the launch passes ",
                                   now[m.to].name, " at #", m.to, " (", lvSlotName(slots, m.to), ") and ",
                                   now[m.from].name, " at #", m.from, " (", lvSlotName(slots, m.from), ")"));
      continue;
    }
    parts.push_back(absl::StrCat(now[m.to].name, " moved from #", m.from, " (", lvSlotName(slots, m.from), ") to #", m.to,
                                 " (", lvSlotName(slots, m.to), ") since the base"));
  }
  if (!parts.empty()) out.message = absl::StrJoin(parts, "; ") + "; the builder's list is as it was";
  return out;
}

}  // namespace impact::kernargs_detail
