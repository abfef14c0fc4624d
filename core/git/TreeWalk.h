// Listing and comparing git trees (core/git only; the caller holds the repository's lock).
#pragma once

#include <git2.h>

#include <map>
#include <set>
#include <string>

#include "git/Snapshot.h"

namespace impact::gitlib {

// Every blob of a tree (files, executables and symlinks; submodule commits skipped), in the
// folders `scope` keeps (all when it is null), by path. Returns libgit2's error code (0: done).
int listTree(git_tree* tree, std::map<std::string, FileRef>& files, const FolderScope& scope);

// listTree of `tree`, given `knownFiles` = listTree of `knownTree` with the same scope: a folder
// whose tree id is the same in both is copied from knownFiles, not walked.
int listTreeFrom(git_repository* repo, const git_tree* knownTree, const git_tree* tree, const std::string& prefix,
                 const std::map<std::string, FileRef>& knownFiles, std::map<std::string, FileRef>& files,
                 const FolderScope& scope);

// Adds to `changed` every blob path that differs between trees a and b (either may be null: an
// absent folder), below `prefix`; a folder with the same tree id on both sides is skipped.
int changedBetween(git_repository* repo, const git_tree* a, const git_tree* b, const std::string& prefix,
                   std::set<std::string>& changed);

}  // namespace impact::gitlib
