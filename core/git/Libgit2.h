// libgit2 set-up, RAII handles and small helpers shared by the git layer (core/git only).
#pragma once

#include <git2.h>

#include <memory>
#include <string>

namespace impact::gitlib {

// git_libgit2_init once per process (objects are not re-hashed on every read, as git does not).
void ensureLibgit2();
// How many times libgit2 asked mbedTLS to load its CA certificates and was answered "none"
// (Libgit2.cpp: impact never opens a TLS connection; the bundle costs 30 ms per start).
int caBundleLoadsSkipped();

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const {
    if (p) Free(p);
  }
};
template <typename T, void (*Free)(T*)>
using Ptr = std::unique_ptr<T, Deleter<T, Free>>;

using RepoPtr = Ptr<git_repository, git_repository_free>;
using ObjectPtr = Ptr<git_object, git_object_free>;
using CommitPtr = Ptr<git_commit, git_commit_free>;
using TreePtr = Ptr<git_tree, git_tree_free>;
using BlobPtr = Ptr<git_blob, git_blob_free>;
using ReferencePtr = Ptr<git_reference, git_reference_free>;
using DiffPtr = Ptr<git_diff, git_diff_free>;
using IndexPtr = Ptr<git_index, git_index_free>;
using ConflictIterPtr = Ptr<git_index_conflict_iterator, git_index_conflict_iterator_free>;
using OdbPtr = Ptr<git_odb, git_odb_free>;

// The libgit2 message of the last failing call on this thread ("" when none).
std::string lastError();
// ": <libgit2 message>" or "".
std::string errorSuffix();
// 40 lower-case hex digits.
std::string oidHex(const git_oid* oid);
std::string shortId(const std::string& id);

}  // namespace impact::gitlib
