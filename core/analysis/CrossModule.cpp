#include "analysis/CrossModule.h"

#include <algorithm>
#include <map>
#include <memory>

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

}  // namespace

void followModules(TreeFacts& facts, const TreeReader& read) {
  std::vector<std::string> paths;
  for (const auto& [path, f] : facts.unfollowed) paths.push_back(path);
  for (const auto& [path, f] : facts.files)
    if (f && !facts.unfollowed.count(path) && hasOpenTail(*f)) paths.push_back(path);
  for (const std::string& path : paths) {
    auto fit = facts.files.find(path);
    if (fit == facts.files.end()) {
      facts.unfollowed.erase(path);
      continue;
    }
    auto orig = facts.unfollowed.count(path) ? facts.unfollowed[path] : fit->second;
    if (!orig || !hasOpenTail(*orig)) {  // the file changed since: nothing to follow now
      facts.unfollowed.erase(path);
      continue;
    }
    size_t at = path.find(kLibrary);
    if (at == std::string::npos) continue;
    std::string root = path.substr(0, at + kLibrary.size());
    std::string dotted = pyextract::dottedOfPath(path.substr(root.size()));
    // Only a builder whose open end is a module of the tree can be followed: which are they?
    std::vector<bool> follow;
    for (const PyBuilder& b : orig->builders) {
      bool open = false, present = true;
      for (const PyAbi& a : b.abis) {
        if (a.tailModule.empty()) continue;
        std::string p = pyextract::helperPathInTree(path, a.tailModule);
        open = true, present = present && !p.empty() && read(p);
      }
      follow.push_back(open && present);  // a helper not in the tree stays named as such
    }
    if (std::find(follow.begin(), follow.end(), true) == follow.end()) continue;
    auto own = read(path);
    if (!own) continue;
    auto tree = SyntaxTree::parse(Lang::Python, *own);
    std::map<std::string, std::unique_ptr<SyntaxTree>> loaded;
    pyextract::ModuleLoader loader = [&](const std::string& dotted) -> const SyntaxTree* {
      auto& slot = loaded[dotted];
      if (!slot && loaded.size() <= 64) {
        std::string p = root + pyextract::modulePathOf(dotted);
        if (auto text = read(p)) slot = SyntaxTree::parse(Lang::Python, std::move(*text));
      }
      return slot.get();
    };
    pyextract::DeclEval eval(*tree, loader, dotted);
    auto next = std::make_shared<FileFacts>(*orig);
    bool changed = false;
    for (size_t bi = 0; bi < next->builders.size(); ++bi) {
      PyBuilder& b = next->builders[bi];
      if (!follow[bi]) continue;
      pyextract::DeclResult r = eval.run(b.name);
      if (!r.stopped.empty() || r.abis.size() != b.abis.size()) continue;
      // Followed, each list must extend what was known before the helper: closed, or open again
      // further on (at a helper of a module not in the tree, met after the followed one).
      bool extends = true;
      for (size_t i = 0; i < r.abis.size(); ++i) {
        const PyAbi &was = b.abis[i], &now = r.abis[i];
        bool further = now.tailHelper.empty() || now.tailCall != was.tailCall || now.args.size() > was.args.size();
        extends = extends && further && now.origin == was.origin && now.args.size() >= was.args.size();
        for (size_t k = 0; extends && k < was.args.size(); ++k) extends = now.args[k].name == was.args[k].name;
      }
      if (!extends) continue;
      b.abis = std::move(r.abis);
      changed = true;
    }
    if (!changed) continue;
    facts.unfollowed[path] = orig;
    fit->second = std::move(next);
  }
}

}  // namespace impact
