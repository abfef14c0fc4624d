#include "git/TreeWalk.h"

#include "absl/strings/str_cat.h"
#include "git/Libgit2.h"

namespace impact::gitlib {

int changedBetween(git_repository* repo, const git_tree* a, const git_tree* b, const std::string& prefix,
                   std::set<std::string>& changed) {
  auto subtree = [&](const git_tree_entry* e, TreePtr& out) {
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, repo, git_tree_entry_id(e)) != 0) return false;
    out.reset(raw);
    return true;
  };
  // Entries of `side` whose name the other side lacks or holds differently.
  auto visit = [&](const git_tree* side, const git_tree* other, bool first) -> int {
    if (!side) return 0;
    for (size_t i = 0, n = git_tree_entrycount(side); i < n; ++i) {
      const git_tree_entry* e = git_tree_entry_byindex(side, i);
      const char* name = git_tree_entry_name(e);
      const git_tree_entry* o = other ? git_tree_entry_byname(other, name) : nullptr;
      git_object_t t = git_tree_entry_type(e), ot = o ? git_tree_entry_type(o) : GIT_OBJECT_INVALID;
      if (o && t == ot && (t == GIT_OBJECT_BLOB || t == GIT_OBJECT_TREE) &&
          git_oid_equal(git_tree_entry_id(e), git_tree_entry_id(o)))
        continue;  // the same file or folder
      if (!first && o && ot == t) continue;  // both trees or both blobs: seen from the first side
      if (t == GIT_OBJECT_BLOB) changed.insert(absl::StrCat(prefix, name));
      if (t != GIT_OBJECT_TREE) continue;
      TreePtr sub, otherSub;
      if (!subtree(e, sub)) return -1;
      if (ot == GIT_OBJECT_TREE && !subtree(o, otherSub)) return -1;
      std::string folder = absl::StrCat(prefix, name, "/");
      int rc = first ? changedBetween(repo, sub.get(), otherSub.get(), folder, changed)
                     : changedBetween(repo, otherSub.get(), sub.get(), folder, changed);
      if (rc != 0) return rc;
    }
    return 0;
  };
  if (int rc = visit(a, b, true); rc != 0) return rc;
  return visit(b, a, false);
}

int listTreeFrom(git_repository* repo, const git_tree* knownTree, const git_tree* tree, const std::string& prefix,
               const std::map<std::string, FileRef>& knownFiles, std::map<std::string, FileRef>& files,
               const FolderScope& scope) {
  for (size_t i = 0, n = git_tree_entrycount(tree); i < n; ++i) {
    const git_tree_entry* e = git_tree_entry_byindex(tree, i);
    const char* name = git_tree_entry_name(e);
    git_object_t type = git_tree_entry_type(e);
    if (type == GIT_OBJECT_BLOB) {
      files.emplace_hint(files.end(), absl::StrCat(prefix, name), FileRef{oidHex(git_tree_entry_id(e)), nullptr});
      continue;
    }
    if (type != GIT_OBJECT_TREE) continue;
    std::string folder = absl::StrCat(prefix, name, "/");
    if (scope && !scope(folder)) continue;
    const git_tree_entry* was = knownTree ? git_tree_entry_byname(knownTree, name) : nullptr;
    if (was && git_tree_entry_type(was) == GIT_OBJECT_TREE && git_oid_equal(git_tree_entry_id(was), git_tree_entry_id(e))) {
      // The same folder: its files, a range of knownFiles ('0' follows '/').
      std::string after = folder;
      after.back() = '0';
      for (auto it = knownFiles.lower_bound(folder), stop = knownFiles.lower_bound(after); it != stop; ++it)
        files.emplace_hint(files.end(), it->first, it->second);
      continue;
    }
    git_tree* rawSub = nullptr;
    if (git_tree_lookup(&rawSub, repo, git_tree_entry_id(e)) != 0) return -1;
    TreePtr sub(rawSub);
    TreePtr knownSub;
    if (was && git_tree_entry_type(was) == GIT_OBJECT_TREE) {
      git_tree* rawKnown = nullptr;
      if (git_tree_lookup(&rawKnown, repo, git_tree_entry_id(was)) != 0) return -1;
      knownSub.reset(rawKnown);
    }
    if (int rc = listTreeFrom(repo, knownSub.get(), sub.get(), folder, knownFiles, files, scope); rc != 0) return rc;
  }
  return 0;
}

int listTree(git_tree* tree, std::map<std::string, FileRef>& files, const FolderScope& scope) {
  struct Walk {
    std::map<std::string, FileRef>* files;
    const FolderScope* scope;
    std::string path;
  } walk{&files, &scope, {}};
  return git_tree_walk(
      tree, GIT_TREEWALK_PRE,
      [](const char* root, const git_tree_entry* entry, void* payload) -> int {
        auto* w = static_cast<Walk*>(payload);
        git_object_t type = git_tree_entry_type(entry);
        if (type == GIT_OBJECT_TREE) {
          if (!*w->scope) return 0;
          w->path.assign(root).append(git_tree_entry_name(entry)).push_back('/');
          return (*w->scope)(w->path) ? 0 : 1;  // 1: skip the folder
        }
        if (type != GIT_OBJECT_BLOB) return 0;
        w->path.assign(root).append(git_tree_entry_name(entry));
        // A pre-order walk of a git tree lists paths in byte order (a folder sorts as its
        // name with '/'), so each path goes at the end of the map.
        w->files->emplace_hint(w->files->end(), w->path, FileRef{oidHex(git_tree_entry_id(entry)), nullptr});
        return 0;
      },
      &walk);
}

}  // namespace impact::gitlib
