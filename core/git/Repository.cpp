// Every git read of impactd, over libgit2 1.5. Nothing is checked out or written.
//
// Thread safety: libgit2 objects must not be used from several threads at once, so every
// libgit2 call on the repository handle runs under Impl::mu. Disk reads of working-tree files
// happen outside the lock.
#include "git/Repository.h"

#include <fcntl.h>
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <mutex>
#include <set>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "git/Libgit2.h"
#include "io/DiskRead.h"
#include "git/TreeWalk.h"

namespace impact {

using namespace gitlib;

namespace {

// Reads a working-tree file as git sees it: a symlink is its target's text (what git stores
// for a link), a regular file its content through the guarded read (io/DiskRead.h: no FIFO or
// device, O_NONBLOCK, the size limit). NotFound: gone since the status; another error: present
// but not read, and why.
absl::StatusOr<std::string> readWorktreeFile(const std::string& fullPath) {
  struct stat st;
  if (::lstat(fullPath.c_str(), &st) != 0) return absl::NotFoundError("no such file");
  if (S_ISLNK(st.st_mode)) {
    std::string buf(st.st_size > 0 ? static_cast<size_t>(st.st_size) + 1 : 256, '\0');
    for (;;) {
      ssize_t n = ::readlink(fullPath.c_str(), buf.data(), buf.size());
      if (n < 0) return absl::NotFoundError("no such file");
      if (static_cast<size_t>(n) < buf.size()) {
        buf.resize(static_cast<size_t>(n));
        return buf;
      }
      buf.resize(buf.size() * 2);
    }
  }
  return readRegularFile(fullPath);
}

}  // namespace

// ---- Impl ------------------------------------------------------------------------------------

struct Repository::Impl {
  RepoPtr repo;
  mutable std::mutex mu;  // guards every use of repo
  // An in-memory object store laid over the repository's (highest priority, so every write
  // goes to it): content merges of the merged view write their blobs here, never to disk.
  mutable bool memoryOdb = false;

  // Caller holds mu.
  bool ensureMemoryOdbLocked() const {
    if (memoryOdb) return true;
    git_odb* rawOdb = nullptr;
    if (git_repository_odb(&rawOdb, repo.get()) != 0) return false;
    OdbPtr odb(rawOdb);
    git_odb_backend* mempack = nullptr;
    if (git_mempack_new(&mempack) != 0) return false;
    if (git_odb_add_backend(odb.get(), mempack, 999) != 0) {
      mempack->free(mempack);
      return false;
    }
    memoryOdb = true;  // the object database owns the backend now
    return true;
  }

  // The tree of a commit id (or any revision); caller holds mu.
  bool treeLocked(const std::string& rev, TreePtr& out, std::string* commitHex = nullptr) const {
    git_oid oid;
    if (!resolveLocked(rev, &oid)) return false;
    git_commit* rawCommit = nullptr;
    if (git_commit_lookup(&rawCommit, repo.get(), &oid) != 0) return false;
    CommitPtr commit(rawCommit);
    git_tree* rawTree = nullptr;
    if (git_commit_tree(&rawTree, commit.get()) != 0) return false;
    out.reset(rawTree);
    if (commitHex) *commitHex = oidHex(&oid);
    return true;
  }

  // Resolves any revision to a commit id; caller holds mu. Returns false when it does not.
  bool resolveLocked(const std::string& rev, git_oid* out) const {
    if (rev.empty()) return false;
    git_object* raw = nullptr;
    if (git_revparse_single(&raw, repo.get(), rev.c_str()) != 0) return false;
    ObjectPtr obj(raw);
    git_object* peeledRaw = nullptr;
    if (git_object_peel(&peeledRaw, obj.get(), GIT_OBJECT_COMMIT) != 0) return false;
    ObjectPtr peeled(peeledRaw);
    git_oid_cpy(out, git_object_id(peeled.get()));
    return true;
  }

};

namespace {

class RepoBlobReader : public BlobReader {
 public:
  explicit RepoBlobReader(std::shared_ptr<const Repository::Impl> impl) : impl_(std::move(impl)) {}

  absl::StatusOr<std::string> readBlob(const std::string& id) const override {
    git_oid oid;
    if (id.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, id.c_str()) != 0)
      return absl::NotFoundError(absl::StrCat("unreadable object ", id));
    std::lock_guard<std::mutex> lock(impl_->mu);
    git_blob* raw = nullptr;
    if (git_blob_lookup(&raw, impl_->repo.get(), &oid) != 0)
      return absl::NotFoundError(absl::StrCat("unreadable object ", id, errorSuffix()));
    BlobPtr blob(raw);
    const char* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
    git_object_size_t size = git_blob_rawsize(blob.get());
    return std::string(data ? data : "", data ? static_cast<size_t>(size) : 0);
  }

  absl::StatusOr<std::set<std::string>> changedBetween(const std::string& treeA,
                                                      const std::string& treeB) const override {
    std::lock_guard<std::mutex> lock(impl_->mu);
    TreePtr a, b;
    for (auto [id, out] : {std::pair{&treeA, &a}, std::pair{&treeB, &b}}) {
      git_oid oid;
      git_tree* raw = nullptr;
      if (id->size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, id->c_str()) != 0 ||
          git_tree_lookup(&raw, impl_->repo.get(), &oid) != 0)
        return absl::NotFoundError(absl::StrCat("unreadable tree ", *id, errorSuffix()));
      out->reset(raw);
    }
    std::set<std::string> changed;
    if (gitlib::changedBetween(impl_->repo.get(), a.get(), b.get(), "", changed) != 0)
      return absl::InternalError(absl::StrCat("cannot compare trees ", treeA, " and ", treeB, errorSuffix()));
    return changed;
  }

  std::optional<std::string> blobIdAt(const std::string& treeId, const std::string& path) const override {
    git_oid oid;
    if (treeId.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, treeId.c_str()) != 0) return std::nullopt;
    std::lock_guard<std::mutex> lock(impl_->mu);
    git_tree* raw = nullptr;
    if (git_tree_lookup(&raw, impl_->repo.get(), &oid) != 0) return std::nullopt;
    TreePtr tree(raw);
    git_tree_entry* rawEntry = nullptr;
    if (git_tree_entry_bypath(&rawEntry, tree.get(), path.c_str()) != 0) return std::nullopt;
    std::unique_ptr<git_tree_entry, void (*)(git_tree_entry*)> entry(rawEntry, git_tree_entry_free);
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) return std::nullopt;
    return oidHex(git_tree_entry_id(entry.get()));
  }

 private:
  std::shared_ptr<const Repository::Impl> impl_;
};

}  // namespace

// ---- Repository ------------------------------------------------------------------------------

Repository::~Repository() = default;

absl::StatusOr<std::shared_ptr<Repository>> Repository::open(const std::string& dir) {
  ensureLibgit2();
  const std::string notRepo = absl::StrCat("not a git repository: ", dir);
  if (dir.empty()) return absl::NotFoundError(notRepo);
  git_repository* raw = nullptr;
  int rc = git_repository_open_ext(&raw, dir.c_str(), 0, nullptr);
  if (rc != 0) {
    if (raw) git_repository_free(raw);
    if (rc == GIT_ENOTFOUND) return absl::NotFoundError(notRepo);
    return absl::NotFoundError(absl::StrCat(notRepo, errorSuffix()));
  }
  auto impl = std::make_shared<Impl>();
  impl->repo.reset(raw);
  return std::shared_ptr<Repository>(new Repository(std::move(impl)));
}

absl::StatusOr<std::string> Repository::resolve(const std::string& rev) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  git_oid oid;
  if (!impl_->resolveLocked(rev, &oid)) {
    if (rev == "HEAD" && git_repository_head_unborn(impl_->repo.get()) == 1) {
      git_reference* head = nullptr;
      std::string branch = "HEAD";
      if (git_reference_lookup(&head, impl_->repo.get(), "HEAD") == 0) {
        if (const char* target = git_reference_symbolic_target(head)) branch = target;
        git_reference_free(head);
      }
      if (branch.starts_with("refs/heads/")) branch = branch.substr(11);
      return absl::NotFoundError(
          absl::StrCat("HEAD is on the unborn branch '", branch, "' (no commit yet): commit first"));
    }
    return absl::NotFoundError(absl::StrCat("unknown revision '", rev, "'"));
  }
  return oidHex(&oid);
}

absl::StatusOr<std::string> Repository::mergeBase(const std::string& a, const std::string& b) const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  git_oid oa, ob;
  if (!impl_->resolveLocked(a, &oa))
    return absl::NotFoundError(absl::StrCat("unknown revision '", a, "'"));
  if (!impl_->resolveLocked(b, &ob))
    return absl::NotFoundError(absl::StrCat("unknown revision '", b, "'"));
  git_oid base;
  int rc = git_merge_base(&base, impl_->repo.get(), &oa, &ob);
  if (rc == 0) return oidHex(&base);
  std::string detail = errorSuffix();
  bool shallow = git_repository_is_shallow(impl_->repo.get()) == 1;
  // In a shallow clone a walk that runs into a missing parent fails too: that is the same
  // situation (the base is not in the local history), said so.
  if (rc == GIT_ENOTFOUND || shallow) {
    std::string msg = absl::StrCat("no merge base between ", shortId(oidHex(&oa)), " and ",
                                   shortId(oidHex(&ob)));
    if (shallow)
      absl::StrAppend(&msg, " (the clone is shallow: fetch more history with `git fetch --unshallow`)");
    return absl::NotFoundError(msg);
  }
  return absl::InternalError(absl::StrCat("no merge base between ", shortId(oidHex(&oa)), " and ",
                                          shortId(oidHex(&ob)), detail));
}

absl::StatusOr<Snapshot> Repository::commitSnapshot(const std::string& commitId, const FolderScope& scope) const {
  Snapshot snap;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    git_oid oid;
    if (!impl_->resolveLocked(commitId, &oid))
      return absl::NotFoundError(absl::StrCat("unknown revision '", commitId, "'"));
    git_commit* rawCommit = nullptr;
    if (git_commit_lookup(&rawCommit, impl_->repo.get(), &oid) != 0)
      return absl::NotFoundError(absl::StrCat("unreadable commit ", oidHex(&oid), errorSuffix()));
    CommitPtr commit(rawCommit);
    git_tree* rawTree = nullptr;
    if (git_commit_tree(&rawTree, commit.get()) != 0)
      return absl::NotFoundError(
          absl::StrCat("unreadable tree of commit ", oidHex(&oid), errorSuffix()));
    TreePtr tree(rawTree);
    if (listTree(tree.get(), snap.files, scope) != 0)
      return absl::InternalError(
          absl::StrCat("cannot list the tree of commit ", oidHex(&oid), errorSuffix()));
    snap.scoped = static_cast<bool>(scope);
    snap.label = absl::StrCat("commit ", shortId(oidHex(&oid)));
    snap.treeId = oidHex(git_tree_id(tree.get()));
  }
  snap.blobs = std::make_shared<RepoBlobReader>(impl_);
  return snap;
}

absl::StatusOr<Snapshot> Repository::commitSnapshotFrom(const Snapshot& known, const std::string& commitId,
                                                        const FolderScope& scope) const {
  if (known.treeId.empty() || known.scoped != static_cast<bool>(scope)) return commitSnapshot(commitId, scope);
  Snapshot snap;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    git_oid oid, knownOid;
    if (!impl_->resolveLocked(commitId, &oid))
      return absl::NotFoundError(absl::StrCat("unknown revision '", commitId, "'"));
    TreePtr tree, knownTree;
    if (!impl_->treeLocked(commitId, tree))
      return absl::NotFoundError(absl::StrCat("unreadable tree of commit ", oidHex(&oid), errorSuffix()));
    git_tree* rawKnown = nullptr;
    if (git_oid_fromstr(&knownOid, known.treeId.c_str()) != 0 ||
        git_tree_lookup(&rawKnown, impl_->repo.get(), &knownOid) != 0)
      return absl::NotFoundError(absl::StrCat("unreadable tree ", known.treeId, errorSuffix()));
    knownTree.reset(rawKnown);
    if (listTreeFrom(impl_->repo.get(), knownTree.get(), tree.get(), "", known.files, snap.files, scope) != 0)
      return absl::InternalError(absl::StrCat("cannot list the tree of commit ", oidHex(&oid), errorSuffix()));
    snap.label = absl::StrCat("commit ", shortId(oidHex(&oid)));
    snap.treeId = oidHex(git_tree_id(tree.get()));
    snap.scoped = static_cast<bool>(scope);
  }
  snap.blobs = std::make_shared<RepoBlobReader>(impl_);
  return snap;
}

absl::StatusOr<Snapshot> Repository::workdirSnapshot() const {
  Snapshot snap;
  snap.label = "working tree";
  std::string root;
  std::vector<std::string> removed;  // paths gone from the working tree
  std::vector<std::string> changed;  // paths whose working-tree content is read from disk
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    git_repository* repo = impl_->repo.get();
    const char* wd = git_repository_workdir(repo);
    if (!wd) return absl::FailedPreconditionError("no working tree: the repository is bare");
    root = wd;

    // HEAD's tree; an unborn HEAD is the empty tree (nullptr for the diff).
    TreePtr headTree;
    int unborn = git_repository_head_unborn(repo);
    if (unborn < 0)
      return absl::InternalError(absl::StrCat("cannot read HEAD", errorSuffix()));
    if (unborn == 0) {
      git_reference* rawRef = nullptr;
      if (git_repository_head(&rawRef, repo) != 0)
        return absl::InternalError(absl::StrCat("cannot read HEAD", errorSuffix()));
      ReferencePtr head(rawRef);
      git_object* rawTree = nullptr;
      if (git_reference_peel(&rawTree, head.get(), GIT_OBJECT_TREE) != 0)
        return absl::InternalError(absl::StrCat("cannot read HEAD's tree", errorSuffix()));
      headTree.reset(reinterpret_cast<git_tree*>(rawTree));
      if (listTree(headTree.get(), snap.files, {}) != 0)
        return absl::InternalError(absl::StrCat("cannot list HEAD's tree", errorSuffix()));
    }

    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
    opts.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
                 GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_SKIP_BINARY_CHECK;
    opts.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
    git_diff* rawDiff = nullptr;
    if (git_diff_tree_to_workdir_with_index(&rawDiff, repo, headTree.get(), &opts) != 0)
      return absl::InternalError(
          absl::StrCat("cannot compare the working tree with HEAD", errorSuffix()));
    DiffPtr diff(rawDiff);
    git_index* rawIndex = nullptr;
    if (git_repository_index(&rawIndex, repo) != 0)
      return absl::InternalError(absl::StrCat("cannot read the index", errorSuffix()));
    std::unique_ptr<git_index, void (*)(git_index*)> index(rawIndex, git_index_free);

    size_t n = git_diff_num_deltas(diff.get());
    for (size_t i = 0; i < n; ++i) {
      const git_diff_delta* d = git_diff_get_delta(diff.get(), i);
      if (!d) continue;
      const char* oldPath = d->old_file.path ? d->old_file.path : "";
      const char* newPath = d->new_file.path ? d->new_file.path : oldPath;
      switch (d->status) {
        case GIT_DELTA_DELETED: {
          // Outside a sparse checkout (skip-worktree in the index): absent on disk, not
          // deleted; the index's blob is the file's content.
          if (const git_index_entry* e = index ? git_index_get_bypath(index.get(), oldPath, 0) : nullptr;
              e && (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE)) {
            snap.files[oldPath] = FileRef{oidHex(&e->id), nullptr};
            break;
          }
          // Deleted from the index but still on disk (`git rm --cached`): libgit2 folds the
          // untracked file into the deletion. Unless ignored, it is an untracked file.
          removed.emplace_back(oldPath);
          struct stat st;
          int ignored = 0;
          if (::lstat((root + oldPath).c_str(), &st) == 0 &&
              (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
              git_ignore_path_is_ignored(&ignored, repo, oldPath) == 0 && !ignored)
            changed.emplace_back(oldPath);
          break;
        }
        case GIT_DELTA_RENAMED:
          removed.emplace_back(oldPath);
          changed.emplace_back(newPath);
          break;
        case GIT_DELTA_MODIFIED:
          // Only the mode changed (same content id on both sides): keep the tree's blob.
          if ((d->old_file.flags & GIT_DIFF_FLAG_VALID_ID) &&
              (d->new_file.flags & GIT_DIFF_FLAG_VALID_ID) &&
              git_oid_equal(&d->old_file.id, &d->new_file.id) && snap.find(newPath))
            break;
          changed.emplace_back(newPath);
          break;
        case GIT_DELTA_ADDED:
        case GIT_DELTA_UNTRACKED:
        case GIT_DELTA_TYPECHANGE:
        case GIT_DELTA_COPIED:
        case GIT_DELTA_CONFLICTED:
          changed.emplace_back(newPath);
          break;
        case GIT_DELTA_UNREADABLE:
          removed.emplace_back(newPath);
          break;
        default:  // UNMODIFIED, IGNORED
          break;
      }
    }
  }

  // Removals first, so that a path both deleted (from the index) and present (untracked) in
  // the working tree ends up with its working-tree content.
  for (const std::string& p : removed) snap.remove(p);
  for (const std::string& p : changed) {
    if (p.empty() || p.back() == '/') continue;  // an untracked nested repository
    auto content = readWorktreeFile(root + p);
    if (content.ok()) {
      snap.overlay(p, std::move(*content));
    } else if (absl::IsNotFound(content.status())) {
      snap.remove(p);  // gone since the status: not silently the committed content
    } else {
      snap.files[p] = FileRef{kNotReadId, nullptr};  // present, not read: its facts say why
      snap.notRead[p] = std::string(content.status().message());
    }
  }
  snap.blobs = std::make_shared<RepoBlobReader>(impl_);
  return snap;
}

absl::StatusOr<MergedTree> Repository::mergedSnapshot(const std::string& headCommit,
                                                      const std::string& targetTipCommit,
                                                      const std::string& mergeBaseCommit) const {
  MergedTree out;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    git_repository* repo = impl_->repo.get();
    TreePtr ancestor, ours, theirs;
    std::string headHex, tipHex;
    auto treeOf = [&](const std::string& rev, TreePtr& tree, std::string* hex) -> absl::Status {
      git_oid probe;
      if (!impl_->resolveLocked(rev, &probe))
        return absl::NotFoundError(absl::StrCat("unknown revision '", rev, "'"));
      if (!impl_->treeLocked(rev, tree, hex))
        return absl::NotFoundError(absl::StrCat("unreadable tree of commit ", oidHex(&probe), errorSuffix()));
      return absl::OkStatus();
    };
    if (auto st = treeOf(mergeBaseCommit, ancestor, nullptr); !st.ok()) return st;
    if (auto st = treeOf(targetTipCommit, ours, &tipHex); !st.ok()) return st;
    if (auto st = treeOf(headCommit, theirs, &headHex); !st.ok()) return st;
    if (!impl_->ensureMemoryOdbLocked())
      return absl::InternalError(absl::StrCat("cannot merge in memory", errorSuffix()));

    git_merge_options opts;
    git_merge_options_init(&opts, GIT_MERGE_OPTIONS_VERSION);
    opts.flags = GIT_MERGE_FIND_RENAMES;
    git_index* rawIndex = nullptr;
    if (git_merge_trees(&rawIndex, repo, ancestor.get(), ours.get(), theirs.get(), &opts) != 0)
      return absl::InternalError(absl::StrCat("cannot merge ", shortId(headHex), " into ",
                                              shortId(tipHex), errorSuffix()));
    IndexPtr index(rawIndex);

    auto isFile = [](const git_index_entry* e) {
      return e && e->path && (e->mode & 0170000) != GIT_FILEMODE_COMMIT;  // submodules skipped
    };
    size_t n = git_index_entrycount(index.get());
    for (size_t i = 0; i < n; ++i) {
      const git_index_entry* e = git_index_get_byindex(index.get(), i);
      if (!isFile(e) || GIT_INDEX_ENTRY_STAGE(e) != 0) continue;
      out.snap.files[e->path] = FileRef{oidHex(&e->id), nullptr};
    }
    if (git_index_has_conflicts(index.get())) {
      git_index_conflict_iterator* rawIter = nullptr;
      if (git_index_conflict_iterator_new(&rawIter, index.get()) != 0)
        return absl::InternalError(absl::StrCat("cannot list merge conflicts", errorSuffix()));
      ConflictIterPtr iter(rawIter);
      const git_index_entry *anc = nullptr, *our = nullptr, *their = nullptr;
      int rc;
      while ((rc = git_index_conflict_next(&anc, &our, &their, iter.get())) == 0) {
        const git_index_entry* any = their ? their : our ? our : anc;
        if (!any || !any->path) continue;
        out.conflicted.emplace_back(any->path);
        if (isFile(their)) out.snap.files[their->path] = FileRef{oidHex(&their->id), nullptr};
        // A rename conflict may name the path differently on our side: list it too.
        if (our && our->path && std::string(our->path) != any->path) out.conflicted.emplace_back(our->path);
      }
      if (rc != GIT_ITEROVER)
        return absl::InternalError(absl::StrCat("cannot list merge conflicts", errorSuffix()));
    }
    std::sort(out.conflicted.begin(), out.conflicted.end());
    out.conflicted.erase(std::unique(out.conflicted.begin(), out.conflicted.end()), out.conflicted.end());
    out.snap.label = absl::StrCat("merged ", shortId(headHex), " into ", shortId(tipHex));
  }
  out.snap.blobs = std::make_shared<RepoBlobReader>(impl_);
  return out;
}

absl::StatusOr<TextMerge> Repository::mergeText(const std::string& ancestor, const std::string& ours,
                                                const std::string& theirs) {
  ensureLibgit2();
  git_merge_file_input in[3];
  const std::string* sides[3] = {&ancestor, &ours, &theirs};
  for (int i = 0; i < 3; ++i) {
    git_merge_file_input_init(&in[i], GIT_MERGE_FILE_INPUT_VERSION);
    in[i].ptr = sides[i]->data();
    in[i].size = sides[i]->size();
  }
  git_merge_file_result res{};
  if (git_merge_file(&res, &in[0], &in[1], &in[2], nullptr) != 0)
    return absl::InternalError(absl::StrCat("cannot merge file contents", errorSuffix()));
  TextMerge out;
  out.clean = res.automergeable != 0;
  if (out.clean && res.ptr) out.content.assign(res.ptr, res.len);
  git_merge_file_result_free(&res);
  return out;
}

std::string Repository::workdir() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const char* wd = git_repository_workdir(impl_->repo.get());
  return wd ? std::string(wd) : std::string();
}

std::string Repository::gitdir() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  const char* p = git_repository_path(impl_->repo.get());
  return p ? std::string(p) : std::string();
}

bool Repository::isShallow() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return git_repository_is_shallow(impl_->repo.get()) == 1;
}

}  // namespace impact
