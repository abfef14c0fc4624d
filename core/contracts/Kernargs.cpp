#include "contracts/Kernargs.h"

#include "contracts/CatalogPairing.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <map>
#include <cstring>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact {

std::string kindSize(const KernelArg& a) {
  if (a.kind.empty() && a.size == 0) return "?";
  return absl::StrCat(a.kind.empty() ? "?" : a.kind, "/", a.size ? std::to_string(a.size) : "?");
}

namespace {

std::vector<KernelArg> unconditional(const std::vector<KernelArg>& args) {
  std::vector<KernelArg> out;
  for (const auto& a : args)
    if (!a.conditional) out.push_back(a);
  return out;
}

bool typeKnown(const KernelArg& a) { return a.resolved && !a.kind.empty() && a.size != 0; }

// Kind and size agree (unknown on either side counts as agreeing: it is reported separately).
bool sameType(const KernelArg& b, const KernelArg& c) {
  if (!typeKnown(b) || !typeKnown(c)) return true;
  return b.kind == c.kind && b.size == c.size;
}

bool sameName(const KernelArg& b, const KernelArg& c) {
  return b.name.empty() || c.name.empty() || b.name == c.name;
}

std::string label(const KernelArg& a) { return a.name.empty() ? std::string("(unnamed)") : a.name; }

struct Diff {
  int distance = 0;
  std::vector<std::string> parts;
  std::vector<std::pair<int, int>> pairs;  // (builder index, copy index) that correspond
  int focusBuilder = -1, focusCopy = -1;    // the first difference on each side
  void focus(int b, int c) {
    if (focusBuilder < 0 && focusCopy < 0) {
      focusBuilder = b;
      focusCopy = c;
    }
  }
};

// Positional comparison of two lists of equal length. A launch call's "names" are its argument
// expressions: never compared (ignoreNames), kinds and sizes are.
Diff positional(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames) {
  Diff d;
  for (size_t i = 0; i < b.size(); ++i) d.pairs.emplace_back(int(i), int(i));
  auto sameName = [&](const KernelArg& x, const KernelArg& y) { return ignoreNames || impact::sameName(x, y); };
  std::vector<size_t> nameDiff;
  for (size_t i = 0; i < b.size(); ++i) {
    if (!sameName(b[i], c[i]) || !sameType(b[i], c[i])) d.focus(int(i), int(i));
    if (!sameName(b[i], c[i])) nameDiff.push_back(i);
    if (!sameType(b[i], c[i])) {
      ++d.distance;
      d.parts.push_back(absl::StrCat("#", i, " ", label(b[i]), ": copy ", kindSize(c[i]), ", builder ",
                                     kindSize(b[i])));
    }
  }
  // Name differences: say "swapped" for a pair that exchanged names.
  std::set<size_t> done;
  for (size_t x : nameDiff) {
    if (done.count(x)) continue;
    for (size_t y : nameDiff) {
      if (y <= x || done.count(y)) continue;
      if (b[x].name == c[y].name && b[y].name == c[x].name) {
        d.parts.push_back(absl::StrCat(b[x].name, " and ", b[y].name, " swapped: copy has ", c[x].name,
                                       " at #", x, " and ", c[y].name, " at #", y));
        done.insert(x);
        done.insert(y);
        d.distance += 2;
        break;
      }
    }
    if (!done.count(x)) {
      d.parts.push_back(absl::StrCat("#", x, ": copy names ", c[x].name, ", builder ", b[x].name));
      done.insert(x);
      ++d.distance;
    }
  }
  return d;
}

// Alignment of lists of different length (longest common subsequence on name, or on type for
// unnamed copies), then what is missing from or extra in the copy.
Diff aligned(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames) {
  Diff d;
  d.parts.push_back(absl::StrCat("copy has ", c.size(), " arguments, builder has ", b.size()));
  d.distance = 2 * static_cast<int>(b.size() > c.size() ? b.size() - c.size() : c.size() - b.size());
  bool named = !ignoreNames && std::any_of(c.begin(), c.end(), [](const KernelArg& a) { return !a.name.empty(); });
  auto eq = [&](const KernelArg& x, const KernelArg& y) {
    return named ? (x.name == y.name) : (sameType(x, y));
  };
  size_t n = b.size(), m = c.size();
  std::vector<std::vector<int>> L(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      L[i][j] = eq(b[i], c[j]) ? L[i + 1][j + 1] + 1 : std::max(L[i + 1][j], L[i][j + 1]);
  std::vector<std::string> missing, extra, typeDiffs;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && eq(b[i], c[j])) {
      d.pairs.emplace_back(int(i), int(j));
      if (!sameType(b[i], c[j])) {
        d.focus(int(i), int(j));
        typeDiffs.push_back(absl::StrCat("#", i, " ", label(b[i]), ": copy ", kindSize(c[j]), ", builder ",
                                         kindSize(b[i])));
      }
      ++i, ++j;
    } else if (i < n && (j == m || L[i + 1][j] >= L[i][j + 1])) {
      d.focus(int(i), j < m ? int(j) : (m ? int(m) - 1 : -1));
      missing.push_back(absl::StrCat(label(b[i]), " (", kindSize(b[i]), ") at #", i));
      ++i;
    } else {
      d.focus(i < n ? int(i) : (n ? int(n) - 1 : -1), int(j));
      extra.push_back(absl::StrCat(label(c[j]), " (", kindSize(c[j]), ") at #", j));
      ++j;
    }
  }
  if (!missing.empty()) d.parts.push_back("missing " + absl::StrJoin(missing, ", "));
  if (!extra.empty()) d.parts.push_back("extra " + absl::StrJoin(extra, ", "));
  for (auto& t : typeDiffs) d.parts.push_back(t);
  d.distance += static_cast<int>(typeDiffs.size());
  return d;
}

Diff diffLists(const std::vector<KernelArg>& b, const std::vector<KernelArg>& c, bool ignoreNames) {
  return b.size() == c.size() ? positional(b, c, ignoreNames) : aligned(b, c, ignoreNames);
}

std::string joinDiff(const Diff& d) {
  if (d.parts.empty()) return "";
  std::string s = d.parts[0];
  for (size_t i = 1; i < d.parts.size(); ++i) s += (i == 1 && d.parts[0].starts_with("copy has") ? ": " : "; ") + d.parts[i];
  return s;
}

std::vector<std::string> names(const std::vector<KernelArg>& args) {
  std::vector<std::string> out;
  for (const auto& a : args)
    if (!a.name.empty()) out.push_back(a.name);
  return out;
}

// How many of the copy's names the builder's closest list shares; and whether one list
// (or the list without its conditional arguments) has exactly the copy's names in order.
struct NameMatch {
  size_t common = 0;
  bool exact = false;
};

NameMatch nameMatch(const PyBuilder& b, const CppArgList& copy) {
  NameMatch best;
  std::vector<std::string> cn = names(copy.args);
  std::set<std::string> cs(cn.begin(), cn.end());
  for (const auto& abi : b.abis) {
    std::vector<std::string> full = names(abi.args), unc = names(unconditional(abi.args));
    if (!cn.empty() && (cn == full || cn == unc)) best.exact = true;
    size_t common = 0;
    for (const auto& x : std::set<std::string>(full.begin(), full.end())) common += cs.count(x);
    best.common = std::max(best.common, common);
  }
  return best;
}

bool related(const NameMatch& m, const CppArgList& copy) {
  size_t own = names(copy.args).size();
  return m.exact || (m.common >= 2 && 2 * m.common >= own);
}

// The first builder whose names the copy matches exactly, and the related one sharing the most.
std::pair<std::optional<BuilderRef>, std::optional<BuilderRef>> bestByNames(const std::vector<BuilderRef>& cands,
                                                                            const CppArgList& list) {
  std::optional<BuilderRef> exact, closest;
  size_t bestCommon = 0;
  for (const auto& b : cands) {
    NameMatch nm = nameMatch(*b.builder, list);
    if (nm.exact && !exact) exact = b;
    if (related(nm, list) && nm.common > bestCommon) {
      bestCommon = nm.common;
      closest = b;
    }
  }
  return {exact, closest};
}

// Lower-case letters and digits only.
std::string squash(std::string_view s) {
  std::string out;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// What a builder's module and name look like inside a file name ("attentiondense").
struct AffinityTokens {
  std::string module, name;
};

AffinityTokens affinityTokens(const BuilderRef& b) {
  auto ms = b.path.rfind('/');
  std::string module = b.path.substr(ms == std::string::npos ? 0 : ms + 1);
  if (module.ends_with(".py")) module.resize(module.size() - 3);
  AffinityTokens t{squash(module), squash(b.builder->name)};
  if (t.name.rfind("build", 0) == 0) t.name = t.name.substr(5);
  return t;
}

std::string squashedFileName(const std::string& path) {
  auto slash = path.rfind('/');
  return squash(path.substr(slash == std::string::npos ? 0 : slash + 1));
}

// The copy's file (squashed name) is named after the builder's module (or the builder itself).
bool fileAffinity(const std::string& file, const AffinityTokens& t) {
  // "op1" must not claim Gfx950Op12Native.cpp: a match ending in a digit may not run into more.
  auto within = [&](const std::string& token) {
    if (token.size() < 3) return false;
    for (size_t at = file.find(token); at != std::string::npos; at = file.find(token, at + 1)) {
      size_t end = at + token.size();
      bool runsOn = end < file.size() && std::isdigit(static_cast<unsigned char>(file[end])) &&
                    std::isdigit(static_cast<unsigned char>(token.back()));
      if (!runsOn) return true;
    }
    return false;
  };
  return within(t.module) || within(t.name);
}

std::string formName(CppArgList::Form f) {
  switch (f) {
    case CppArgList::Form::Static: return "static";
    case CppArgList::Form::Lambda: return "lambda";
    case CppArgList::Form::Launch: return "launch";
  }
  return "";
}

struct Declared {
  std::string manifest;
  std::string module, builder, sourceModule, symbol;
  bool test = false;
  std::string manifestBuilder;  // the manifest's own `builder:` (in sourceModule)
};

bool symbolMatches(const std::string& want, const std::string& have) {
  if (want.empty()) return true;
  if (want == have) return true;
  auto tail = [](const std::string& s) {
    auto p = s.rfind("::");
    return p == std::string::npos ? s : s.substr(p + 2);
  };
  return tail(want) == tail(have) && (want.find("::") == std::string::npos || have.find("::") == std::string::npos);
}

std::string stem(const std::string& path) {
  auto slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  auto dot = base.find('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

}  // namespace

namespace {
// Indices of the unconditional arguments.
std::vector<int> unconditionalIndex(const std::vector<KernelArg>& args) {
  std::vector<int> out;
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].conditional) out.push_back(int(i));
  return out;
}

// Takes a diff's correspondence (in the lists it compared) back to the full lists.
void adopt(Comparison& c, const Diff& d, const std::vector<int>* bIdx, const std::vector<int>* cIdx) {
  auto mapB = [&](int i) { return i < 0 || !bIdx ? i : (size_t(i) < bIdx->size() ? (*bIdx)[i] : -1); };
  auto mapC = [&](int i) { return i < 0 || !cIdx ? i : (size_t(i) < cIdx->size() ? (*cIdx)[i] : -1); };
  c.pairs.clear();
  for (auto [b, k] : d.pairs) c.pairs.emplace_back(mapB(b), mapC(k));
  c.focusBuilder = mapB(d.focusBuilder);
  c.focusCopy = mapC(d.focusCopy);
}
}  // namespace

namespace {
std::string trimmed(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  while (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = trimmed(s.substr(1, s.size() - 2));
  return s;
}

// An early-return guard ("spec.persistent", "not spec.x and spec.y == 'a'") against a variant's
// spec: 1 true, 0 false, -1 unknown.
int evalGuard(const std::string& guard, const std::map<std::string, std::string>& spec) {
  std::vector<std::string> parts;
  for (size_t from = 0;;) {
    size_t at = guard.find(" and ", from);
    parts.push_back(guard.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + 5;
  }
  bool unknown = false;
  for (std::string c : parts) {
    c = trimmed(c);
    bool neg = false;
    while (c.starts_with("not ")) { neg = !neg; c = trimmed(c.substr(4)); }
    std::string lhs = c, rhs;
    int op = 0;  // 0 truthy, 1 ==, 2 !=
    for (auto [tok, o] : {std::pair{"==", 1}, std::pair{"!=", 2}})
      if (auto at = c.find(tok); at != std::string::npos) {
        lhs = trimmed(c.substr(0, at));
        rhs = trimmed(c.substr(at + 2));
        op = o;
        break;
      }
    if (lhs.starts_with("spec.")) lhs = lhs.substr(5);
    auto it = spec.find(lhs);
    if (it == spec.end() || lhs.find_first_of(".()[] ") != std::string::npos) { unknown = true; continue; }
    bool v;
    if (op == 0) {
      v = !(it->second.empty() || it->second == "false" || it->second == "0" || it->second == "null" ||
            it->second == "0.0");
    } else {
      if (rhs.size() >= 2 && (rhs.front() == '"' || rhs.front() == '\'')) rhs = rhs.substr(1, rhs.size() - 2);
      if (rhs == "True") rhs = "true";
      if (rhs == "False") rhs = "false";
      v = (it->second == rhs) == (op == 1);
    }
    if (neg) v = !v;
    if (!v) return 0;
  }
  return unknown ? -1 : 1;
}

// The builder's lists a copy can state: a variant's spec (descriptor copies) settles the
// early-return guards it names; otherwise every list.
std::vector<const PyAbi*> abisFor(const PyBuilder& builder, const CppArgList& copy) {
  std::vector<const PyAbi*> all;
  for (const auto& a : builder.abis) all.push_back(&a);
  if (copy.spec.empty()) return all;
  bool allFalse = true;
  for (const PyAbi* a : all) {
    if (a->guard.empty()) continue;
    int v = evalGuard(a->guard, copy.spec);
    if (v == 1) return {a};
    if (v != 0) allFalse = false;
  }
  if (!allFalse) return all;
  std::vector<const PyAbi*> own;
  for (const PyAbi* a : all)
    if (a->guard.empty()) own.push_back(a);
  return own.empty() ? all : own;
}
}  // namespace

Comparison compareCopy(const PyBuilder& builder, const CppArgList& copy) {
  Comparison best;
  best.distance = 1 << 30;
  // A launch call states expressions, not names: its kinds and sizes (where the file states
  // them) and its count are compared.
  const bool ignoreNames = copy.form == CppArgList::Form::Launch;
  for (const PyAbi* abiPtr : abisFor(builder, copy)) {
    const PyAbi& abi = *abiPtr;
    Comparison c;
    c.abi = &abi;
    for (const auto& a : abi.args)
      if (!typeKnown(a))
        c.unresolved.push_back(a.name + (a.unresolvedReason.empty() ? "" : ": " + a.unresolvedReason));
    if (ignoreNames)  // a launch argument whose kind the file does not state: said, not guessed
      for (size_t i = 0; i < copy.args.size(); ++i)
        if (!copy.args[i].resolved)
          c.unresolved.push_back(absl::StrCat("launch argument #", i, " ", copy.args[i].name, " (",
                                              copy.args[i].unresolvedReason, ")"));
    Diff full = diffLists(abi.args, copy.args, ignoreNames);
    std::vector<KernelArg> bu = unconditional(abi.args), cu = unconditional(copy.args);
    std::vector<int> bIdx = unconditionalIndex(abi.args), cIdx = unconditionalIndex(copy.args);
    if (full.parts.empty()) {
      c.outcome = Comparison::Outcome::Agree;
      c.distance = 0;
      adopt(c, full, nullptr, nullptr);
    } else {
      Diff unc = diffLists(bu, cu, ignoreNames);
      if (bu.size() != abi.args.size() && unc.parts.empty()) {
        c.outcome = Comparison::Outcome::AgreeWithoutConditional;
        c.distance = 0;
        adopt(c, unc, &bIdx, &cIdx);
        std::vector<std::string> cond;
        for (const auto& a : abi.args)
          if (a.conditional) cond.push_back(absl::StrCat(a.name, " (if ", a.condition, ")"));
        c.message = "copy leaves out the conditional argument" + std::string(cond.size() > 1 ? "s " : " ") +
                    absl::StrJoin(cond, ", ");
      } else {
        // Say what differs against whichever list (with or without the conditional
        // arguments) the copy is closer to.
        bool uncCloser = bu.size() != abi.args.size() &&
                         (unc.distance < full.distance || (cu.size() == bu.size() && copy.args.size() != abi.args.size()));
        const Diff& closer = uncCloser ? unc : full;
        c.outcome = Comparison::Outcome::Disagree;
        c.distance = closer.distance + 1;
        c.message = joinDiff(closer);
        if (uncCloser) adopt(c, unc, &bIdx, &cIdx);
        else adopt(c, full, nullptr, nullptr);
      }
    }
    if (builder.abis.size() > 1 && c.outcome == Comparison::Outcome::Disagree)
      c.message = absl::StrCat(c.message, abi.guard.empty() ? "" : absl::StrCat(" (vs the ", abi.origin, " list, when ", abi.guard, ")"));
    auto rank = [](const Comparison& x) {
      return x.outcome == Comparison::Outcome::Agree ? 0 : x.outcome == Comparison::Outcome::AgreeWithoutConditional ? 1 : 2;
    };
    // Ties go to the builder's own body (the unguarded list).
    bool better = !best.abi || rank(c) < rank(best) ||
                  (rank(c) == rank(best) && (c.distance < best.distance ||
                                             (c.distance == best.distance && abi.guard.empty() && !best.abi->guard.empty())));
    if (better) best = c;
  }
  if (!best.abi) {
    best.outcome = Comparison::Outcome::Disagree;
    best.message = absl::StrCat(builder.name, " declares no argument list");
  }
  return best;
}

std::vector<KernargsPair> pairKernargs(const TreeFacts& facts, const Layout& layout) {
  // Builders by module.
  std::map<std::string, std::vector<BuilderRef>> byModule;
  std::vector<BuilderRef> all;
  for (const auto& [path, f] : facts.files)
    for (const auto& b : f->builders) {
      byModule[path].push_back({path, &b});
      all.push_back({path, &b});
    }
  std::vector<AffinityTokens> allTokens;
  allTokens.reserve(all.size());
  for (const auto& b : all) allTokens.push_back(affinityTokens(b));
  auto findBuilder = [&](const std::string& module, const std::string& name) -> std::optional<BuilderRef> {
    auto it = byModule.find(module);
    if (it == byModule.end()) return std::nullopt;
    for (const auto& b : it->second)
      if (b.builder->name == name || b.builder->name.ends_with("." + name)) return b;
    return std::nullopt;
  };

  // Declared kernargs surfaces by C++ file.
  std::map<std::string, std::vector<Declared>> declared;
  for (const auto& [path, f] : facts.files) {
    if (!f->manifest) continue;
    const Manifest& m = *f->manifest;
    Layout l = layout;
    if (!m.providerRoot.empty()) l.libraryRoot = m.providerRoot + "/rocke/library";
    for (const auto& s : m.surfaces) {
      if (s.name != "kernargs") continue;
      Declared d{path, l.libraryPath(s.pythonPath), s.pythonSymbol.empty() ? m.builder : s.pythonSymbol,
                 m.source.empty() ? "" : l.libraryPath(m.source), s.cppSymbol, false, m.builder};
      if (!s.cppPath.empty()) declared[s.cppPath].push_back(d);
      if (!s.testPath.empty()) {
        d.test = true;
        d.symbol.clear();
        declared[s.testPath].push_back(d);
      }
    }
  }

  std::vector<KernargsPair> out;
  std::map<std::string, std::string> builderOfFile;  // C++ file -> builder key its named lists paired with
  std::map<std::string, BuilderRef> builderByKey;
  std::vector<KernargsPair> pendingByFileName;

  for (const auto& [path, f] : facts.files) {
    std::map<std::string, int> ordinals;
    for (const auto& list : f->lists) {
      KernargsPair p;
      std::string base = absl::StrCat(path, "|", formName(list.form), "|", list.symbol, "|", list.variable);
      p.copy = {path, &list, absl::StrCat(base, "|", ordinals[base]++)};
      const bool named = list.named && list.form != CppArgList::Form::Launch;

      // A real catalog entry names no builder: its folder and symbol do (CatalogPairing).
      if (list.catalog && !list.builderHint) {
        std::string note;
        if (auto cb = catalogBuilder(facts, layout, *list.catalog, note)) p.builder = cb;
        else p.note = note;
        out.push_back(std::move(p));
        continue;
      }

      // A descriptor copy that names its builder pairs with it first.
      if (list.builderHint) {
        const auto& h = *list.builderHint;
        std::optional<BuilderRef> hb;
        if (!h.source.empty()) hb = findBuilder(layout.libraryPath(h.source), h.builder);
        if (!hb) {
          std::string arch = archFromPath(path);
          for (const auto& b : all)
            if (b.builder->name == h.builder && (!hb || (!arch.empty() && archFromPath(b.path) == arch))) hb = b;
        }
        if (hb) {
          p.builder = hb;
          out.push_back(std::move(p));
          continue;
        }
        if (!named) {
          p.note = absl::StrCat("builder ", h.builder, " named by the descriptor not found",
                                h.source.empty() ? "" : " in " + layout.libraryPath(h.source));
          out.push_back(std::move(p));
          continue;
        }
      }

      const Declared* decl = nullptr;
      if (auto it = declared.find(path); it != declared.end())
        for (const auto& d : it->second)
          if (symbolMatches(d.symbol, list.symbol)) { decl = &d; break; }

      if (decl) {
        p.declared = true;
        p.manifest = decl->manifest;
        auto declaredBuilder = findBuilder(decl->module, decl->builder);
        // A surface naming a SignatureBuilder restatement (`attention_dense_signature`), or a
        // symbol that is no builder: the copy states the ABI the kernel declares, so it pairs
        // with the manifest's builder (its `b.param` list) when that one is found.
        if ((!declaredBuilder || declaredBuilder->builder->style == PyBuilder::Style::SignatureBuilder) &&
            !decl->manifestBuilder.empty()) {
          std::optional<BuilderRef> own;
          for (const std::string& mod : {decl->module, decl->sourceModule})
            if (!own && !mod.empty()) own = findBuilder(mod, decl->manifestBuilder);
          if (own && own->builder->style == PyBuilder::Style::Params) declaredBuilder = own;
        }
        if (!named) {
          if (declaredBuilder) p.builder = declaredBuilder;
          else p.note = absl::StrCat("declared builder ", decl->builder, " not found in ", decl->module);
        } else {
          // The declared builder first, then the builder whose names match in the surface's
          // module and the manifest's source module, then the closest related one.
          std::vector<BuilderRef> cands;
          if (declaredBuilder) cands.push_back(*declaredBuilder);
          for (const std::string& mod : {decl->module, decl->sourceModule})
            if (auto it = byModule.find(mod); it != byModule.end())
              for (const auto& b : it->second)
                if (!declaredBuilder || b.key() != declaredBuilder->key()) cands.push_back(b);
          auto [exact, closest] = bestByNames(cands, list);
          if (declaredBuilder && related(nameMatch(*declaredBuilder->builder, list), list)) p.builder = declaredBuilder;
          else if (exact) p.builder = exact;
          else if (closest) p.builder = closest;
          else p.note = absl::StrCat("shares too few names with ", decl->builder, " (or any builder of ",
                                     decl->module, ") to compare");
        }
      } else if (named) {
        // A Python copy (attention_dense_signature) restates a builder of its own module; else
        // builders whose module the copy's file is named after come first (many kernels
        // share argument names): Gfx950AttentionDenseNative.cpp <-> attention_dense.py.
        std::vector<BuilderRef> affine;
        bool ownModule = false;
        if (auto own = byModule.find(path); own != byModule.end() && f->kind == FileKind::Python) {
          affine = own->second;
          ownModule = true;
        }
        const std::string file = squashedFileName(path);
        if (affine.empty())
          for (size_t i = 0; i < all.size(); ++i)
            if (fileAffinity(file, allTokens[i])) affine.push_back(all[i]);
        auto [exact, closest] = bestByNames(affine, list);
        if (!exact && !closest) std::tie(exact, closest) = bestByNames(all, list);
        if (exact) p.builder = exact;
        else if (closest) {
          p.builder = closest;
          // A Python copy restates its own module's builder: no other builder was in question.
          if (!ownModule) p.note = absl::StrCat("matches no builder; compared with the closest, ", closest->builder->name);
        } else continue;  // not a copy of any known builder
      } else {
        pendingByFileName.push_back(std::move(p));
        continue;
      }
      if (p.builder && named) {
        builderOfFile.emplace(path, p.builder->key());
        builderByKey.emplace(p.builder->key(), *p.builder);
      }
      if (p.builder && p.declared) {
        builderOfFile.emplace(path, p.builder->key());
        builderByKey.emplace(p.builder->key(), *p.builder);
      }
      out.push_back(std::move(p));
    }
  }

  // Unnamed lists and launch calls outside any manifest: pair through the file name
  // (Test<Name>Signature.cpp <-> <Name>Native.cpp), or with the builder the same file's named
  // lists paired with.
  for (auto& p : pendingByFileName) {
    std::optional<BuilderRef> b;
    if (auto it = builderOfFile.find(p.copy.path); it != builderOfFile.end()) b = builderByKey.at(it->second);
    if (!b) {
      std::string s = stem(p.copy.path);
      std::string name = s;
      if (name.starts_with("Test")) name = name.substr(4);
      for (const char* suffix : {"Signature", "Geometry", "Matchers", "Packs", "Native"})
        if (name.ends_with(suffix) && name.size() > std::strlen(suffix)) {
          name = name.substr(0, name.size() - std::strlen(suffix));
          break;
        }
      for (const auto& [file, key] : builderOfFile)
        if (stem(file) == name + "Native") { b = builderByKey.at(key); break; }
      if (b) p.note = absl::StrCat("paired through the file name with ", name, "Native.cpp");
    }
    // A launch call no manifest declares, in a file named after a module of its arch
    // (Gfx942AttentionDenseNative.cpp <-> kernels/gfx942/attention_dense.py): that module's one
    // public b.param builder.
    if (!b && p.copy.list->form == CppArgList::Form::Launch) {
      const std::string file = squashedFileName(p.copy.path), arch = archFromPath(p.copy.path);
      std::vector<size_t> hits;
      for (size_t i = 0; i < all.size(); ++i) {
        const PyBuilder& pb = *all[i].builder;
        if (pb.style != PyBuilder::Style::Params || pb.name.starts_with("_") || pb.name.find('.') != std::string::npos)
          continue;
        if (arch.empty() || archFromPath(all[i].path) != arch) continue;
        if (fileAffinity(file, allTokens[i])) hits.push_back(i);
      }
      if (hits.size() == 1) {
        b = all[hits[0]];
        p.note = absl::StrCat("paired through the file name with ", b->path, ":", b->builder->name);
      }
    }
    if (!b) continue;
    p.builder = b;
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace impact
