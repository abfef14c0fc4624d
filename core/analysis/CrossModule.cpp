#include "analysis/CrossModule.h"

#include <algorithm>
#include <map>
#include <memory>

#include "extract/Extract.h"
#include "extract/python/DeclEval.h"
#include "extract/python/Nodes.h"
#include "parse/Syntax.h"

namespace impact {

namespace {

constexpr std::string_view kLibrary = "rocke/library/";

bool hasOpenTail(const FileFacts& f) {
  for (const PyBuilder& b : f.builders)
    for (const PyAbi& a : b.abis)
      if (!a.tailModule.empty()) return true;
  return false;
}

// A C++ file with copies and includes: the macros of the tree's headers it includes may make its
// lists (issue 36 item 3).
bool readsHeaders(const FileFacts& f) {
  return f.kind == FileKind::Cpp && !f.symbols.includes.empty() &&
         (!f.lists.empty() || !f.nameArrays.empty() || !f.setAside.empty());
}

bool mayFollow(const FileFacts& f) { return hasOpenTail(f) || readsHeaders(f); }

// `a/b/../c` -> `a/c`; "" when it climbs out of the tree.
std::string normalPath(const std::string& p) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string::npos) j = p.size();
    std::string part = p.substr(i, j - i);
    if (part == "..") {
      if (parts.empty()) return "";
      parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out;
  for (const auto& x : parts) out += (out.empty() ? "" : "/") + x;
  return out;
}

// Where `#include "written"` of `includer` is looked for in the tree, in order: beside the
// includer, then `<folder>/include/written` and `<folder>/written` for each folder above it.
std::vector<std::string> includeCandidates(const std::string& includer, const std::string& written) {
  std::vector<std::string> out;
  auto add = [&](const std::string& p) {
    std::string n = normalPath(p);
    if (!n.empty() && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  std::string dir = includer.substr(0, includer.rfind('/') == std::string::npos ? 0 : includer.rfind('/'));
  add(dir.empty() ? written : dir + "/" + written);
  for (;;) {
    add(dir.empty() ? "include/" + written : dir + "/include/" + written);
    add(dir.empty() ? written : dir + "/" + written);
    if (dir.empty()) break;
    size_t slash = dir.rfind('/');
    dir = slash == std::string::npos ? "" : dir.substr(0, slash);
  }
  return out;
}

// The C++ file extracted again with the macros of the tree's headers it includes (read from the
// same snapshot through `read`, never from the machine's disk); null when no include is a file of
// the tree or nothing changes.
std::shared_ptr<const FileFacts> followHeaders(const std::string& path, const FileFacts& orig, const TreeReader& read) {
  std::map<std::string, std::optional<std::string>> seen;
  auto find = [&](const std::string& includer, const std::string& written) -> std::optional<cpp::HeaderText> {
    for (const std::string& c : includeCandidates(includer.empty() ? path : includer, written)) {
      auto it = seen.find(c);
      if (it == seen.end()) it = seen.emplace(c, read(c)).first;
      if (it->second) return cpp::HeaderText{c, *it->second};
    }
    return std::nullopt;
  };
  auto own = read(path);
  if (!own) return nullptr;
  cpp::HeaderReader headers = find;
  // Headers of the tree (its quoted includes: a system header is never looked for) that define no
  // name the file uses read it as it reads alone: no second parse.
  if (!cpp::usesHeaderMacros(*own, headers)) return nullptr;
  auto tree = SyntaxTree::parse(Lang::Cpp, std::move(*own));
  FileFacts f = extractParsed(path, *tree, &headers);
  // A list the headers leave as the file alone reads it does not read them: a header's change is
  // no change of it (the pack's launch beside an X-macro list of a header).
  for (CppArgList& l : f.lists) {
    CppArgList alone = l;
    alone.readThrough.clear();
    if (std::find(orig.lists.begin(), orig.lists.end(), alone) != orig.lists.end()) l.readThrough.clear();
  }
  if (f == orig) return nullptr;
  return std::make_shared<FileFacts>(std::move(f));
}

bool declaresAny(const std::vector<PyAbi>& abis) {
  for (const PyAbi& a : abis)
    if (!a.args.empty()) return true;
  return false;
}


// Whether a list read through the tree may replace the list as extracted: each must extend what
// was known before the helper (closed, or open again further on, at a helper of a module not in
// the tree met after the followed one) or stay as it was (a dispatch's target not in the tree);
// one must move.
bool extendsWhatWasKnown(const std::vector<PyAbi>& was, const std::vector<PyAbi>& now) {
  if (now.size() != was.size()) return false;
  bool moved = false;
  for (size_t i = 0; i < now.size(); ++i) {
    const PyAbi &w = was[i], &n = now[i];
    bool further = n.tailHelper.empty() || n.tailCall != w.tailCall || n.args.size() > w.args.size();
    moved = moved || further;
    if (!(further || n == w) || n.origin != w.origin || n.args.size() < w.args.size()) return false;
    for (size_t k = 0; k < w.args.size(); ++k)
      if (n.args[k].name != w.args[k].name) return false;
  }
  return moved;
}

// The file's facts with its builders followed through the tree; null when nothing changes.
std::shared_ptr<const FileFacts> followFile(const std::string& path, const FileFacts& orig, const TreeReader& read) {
  size_t at = path.find(kLibrary);
  if (at == std::string::npos) return nullptr;
  std::string root = path.substr(0, at + kLibrary.size());
  std::string dotted = pyextract::dottedOfPath(path.substr(root.size()));
  // Only a builder with an open end at a module of the tree can be followed: which are they? (An
  // open end at a module not in the tree stays named as such.) An entry point that only
  // dispatches to functions of modules the tree does not hold is not a builder the tree shows:
  // it returns what they return (the accounting names them when a declaration names it).
  std::vector<bool> follow, drop;
  for (const PyBuilder& b : orig.builders) {
    bool present = false;
    for (const PyAbi& a : b.abis) {
      if (a.tailModule.empty()) continue;
      std::string p = pyextract::helperPathInTree(path, a.tailModule);
      present = present || (!p.empty() && read(p));
    }
    follow.push_back(present);
    drop.push_back(!present && dispatchesOnly(b.abis));
  }
  bool changed = std::find(drop.begin(), drop.end(), true) != drop.end();
  if (std::find(follow.begin(), follow.end(), true) == follow.end() && !changed) return nullptr;
  auto own = read(path);
  if (!own) return nullptr;
  auto tree = SyntaxTree::parse(Lang::Python, *own);
  std::map<std::string, std::unique_ptr<SyntaxTree>> loaded;
  pyextract::ModuleLoader loader = [&](const std::string& d) -> const SyntaxTree* {
    auto& slot = loaded[d];
    if (!slot && loaded.size() <= 64) {
      if (auto text = read(root + pyextract::modulePathOf(d))) slot = SyntaxTree::parse(Lang::Python, std::move(*text));
    }
    return slot.get();
  };
  pyextract::DeclEval eval(*tree, loader, dotted);
  auto next = std::make_shared<FileFacts>(orig);
  for (size_t bi = 0; bi < next->builders.size(); ++bi) {
    PyBuilder& b = next->builders[bi];
    if (!follow[bi]) continue;
    pyextract::DeclResult r = eval.run(b.name);
    if (!r.stopped.empty()) continue;
    // A dispatch followed to functions that declare nothing (the tree's `naming.short`) built no
    // kernel: not a builder.
    if (dispatchesOnly(b.abis) && !declaresAny(r.abis)) {
      drop[bi] = changed = true;
      continue;
    }
    if (!extendsWhatWasKnown(b.abis, r.abis)) continue;
    b.abis = std::move(r.abis);
    b.readThrough.clear();
    for (const auto& [d, loadedTree] : loaded)
      if (loadedTree) b.readThrough.push_back(root + pyextract::modulePathOf(d));
    changed = true;
  }
  if (!changed) return nullptr;
  std::vector<PyBuilder> kept;
  for (size_t bi = 0; bi < next->builders.size(); ++bi)
    if (!drop[bi]) kept.push_back(std::move(next->builders[bi]));
  next->builders = std::move(kept);
  return next;
}

// What identifies a path's content now: its id in the tree's listing, else a hash of what `read`
// gives ("-" when the tree has no such file).
std::string contentKey(const std::string& path, const std::optional<std::string>* text, const TreeReader& read,
                       const TreeIds& ids) {
  if (std::string id = ids ? ids(path) : std::string(); !id.empty()) return id;
  std::optional<std::string> own;
  if (!text) own = read(path), text = &own;
  return *text ? "#" + std::to_string(std::hash<std::string>{}(**text)) : "-";
}

}  // namespace

void followModules(TreeFacts& facts, const TreeReader& read, const TreeIds& ids, std::vector<std::string>* changed) {
  std::vector<std::string> paths;
  for (const auto& [path, f] : facts.unfollowed) paths.push_back(path);
  for (const auto& [path, f] : facts.files)
    if (f && !facts.unfollowed.count(path) && mayFollow(*f)) paths.push_back(path);
  for (const std::string& path : paths) {
    auto fit = facts.files.find(path);
    if (fit == facts.files.end()) {
      facts.unfollowed.erase(path);
      facts.followed.erase(path);
      continue;
    }
    auto orig = facts.unfollowed.count(path) ? facts.unfollowed[path] : fit->second;
    if (!orig || !mayFollow(*orig)) {  // the file changed since: nothing to follow now
      facts.unfollowed.erase(path);
      facts.followed.erase(path);
      continue;
    }
    // The last following of these facts stands while every file it read reads the same.
    std::shared_ptr<const FileFacts> result;
    auto memo = facts.followed.find(path);
    bool same = memo != facts.followed.end() && memo->second.from == orig;
    if (same)
      for (const auto& [p, key] : memo->second.reads) same = same && contentKey(p, nullptr, read, ids) == key;
    if (same) {
      result = memo->second.result;
    } else {
      std::vector<std::pair<std::string, std::string>> reads;
      TreeReader recording = [&](const std::string& p) {
        auto text = read(p);
        reads.emplace_back(p, contentKey(p, &text, read, ids));
        return text;
      };
      result = orig->kind == FileKind::Cpp ? followHeaders(path, *orig, recording) : followFile(path, *orig, recording);
      facts.followed[path] = TreeFacts::Followed{orig, std::move(reads), result};
    }
    auto& slot = fit->second;
    if (changed && slot != (result ? result : orig)) changed->push_back(path);
    if (!result) {
      slot = orig;
      facts.unfollowed.erase(path);
      continue;
    }
    facts.unfollowed[path] = orig;
    slot = result;
  }
}

}  // namespace impact
