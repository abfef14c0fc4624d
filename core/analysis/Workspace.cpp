#include "analysis/Workspace.h"

#include "analysis/CrossModule.h"
#include "contracts/AotProducers.h"
#include "contracts/CatalogBindings.h"

#include <algorithm>

#include "contracts/PairingReuse.h"
#include "judge/Archs.h"
#include "judge/Judge.h"
#include "python/ModuleGraph.h"

namespace impact {

const FileRef* AnalysisState::headFind(const std::string& path) const {
  if (auto it = headOverrides.find(path); it != headOverrides.end())
    return it->second.id.empty() ? nullptr : &it->second;
  return disk ? disk->find(path) : nullptr;
}

absl::StatusOr<std::string> AnalysisState::headContent(const std::string& path) const {
  const FileRef* f = headFind(path);
  if (!f) return absl::NotFoundError(path + ": not in the working tree");
  if (f->data) return *f->data;
  if (auto it = notRead.find(path); it != notRead.end()) return absl::FailedPreconditionError(it->second);
  return disk->read(path);
}

Workspace::Workspace(Layout layout, std::shared_ptr<ExtractCache> cache)
    : layout_(std::move(layout)), cache_(cache ? std::move(cache) : std::make_shared<ExtractCache>()) {}

void Workspace::setLayout(Layout layout) {
  layout_ = std::move(layout);
  baseDerived_.reset();
  headDerived_.reset();
  headFacts_ = TreeFacts{};
  memo_.valid = false;
  pairsValid_ = false;
  dirty_ = true;
}

void Workspace::setBase(std::shared_ptr<const Snapshot> base) {
  base_ = std::move(base);
  baseDerived_ = Derived::of(std::make_shared<const TreeFacts>(collectFacts(*base_, layout_, *cache_)), layout_);
  memo_.valid = false;
  dirty_ = true;
}

void Workspace::setDisk(std::shared_ptr<const Snapshot> disk) {
  disk_ = std::move(disk);
  diskChanges_.clear();
  diskNotRead_.clear();
  headFacts_ = collectFacts(*disk_, layout_, *cache_);
  for (const auto& [path, _] : buffers_) refreshHeadFile(path);
  memo_.valid = false;
  dirty_ = true;
  pendingPaths_.push_back("*");
}

std::string Workspace::unreadable() const {
  if (baseDerived_ && baseDerived_->facts && !baseDerived_->facts->unreadable.empty())
    return baseDerived_->facts->unreadable.begin()->second;
  if (!headFacts_.unreadable.empty()) return headFacts_.unreadable.begin()->second;
  return "";
}

const FileRef* Workspace::headRef(const std::string& path) const {
  if (auto it = buffers_.find(path); it != buffers_.end()) return &it->second.ref;
  if (auto it = diskChanges_.find(path); it != diskChanges_.end())
    return it->second.id.empty() ? nullptr : &it->second;
  return disk_ ? disk_->find(path) : nullptr;
}

void Workspace::refreshHeadFile(const std::string& path) {
  refreshHeadFacts(path);
  if (classify(path) != FileKind::Python && classify(path) != FileKind::Cpp) return;
  // A builder whose list goes on in a helper module: followed again with this file's new text
  // (it may be the builder's module, the helper's, or neither; the check is on facts in memory).
  headFacts_.unfollowed.erase(path);
  TreeReader read = [&](const std::string& p) -> std::optional<std::string> {
    const FileRef* ref = headRef(p);
    if (!ref) return std::nullopt;
    if (ref->data) return *ref->data;
    if (diskNotRead_.count(p)) return std::nullopt;
    auto content = disk_->read(p);
    if (!content.ok()) return std::nullopt;
    return std::move(*content);
  };
  TreeIds ids = [&](const std::string& p) {
    const FileRef* ref = headRef(p);
    return ref ? ref->id : std::string();
  };
  // Another file its following reads differently (a pack whose header this is) is a change too:
  // its pairs and rows are made again from its new facts.
  std::vector<std::string> followedAgain;
  followModules(headFacts_, read, ids, &followedAgain);
  for (std::string& p : followedAgain)
    if (p != path) pendingPaths_.push_back(std::move(p));
  readProducers(headFacts_, layout_, read, ids, &producerRuns_);  // a producer, or a module it reads, may have changed
  readLaunchAbi(headFacts_, read, ids);
}

void Workspace::refreshHeadFacts(const std::string& path) {
  dirty_ = true;
  pendingPaths_.push_back(path);
  memo_.changedKinds.insert(classify(path));
  if (!layout_.analysed(path)) return;
  const FileRef* ref = headRef(path);
  if (!ref) {
    headFacts_.files.erase(path);
    return;
  }
  if (auto it = buffers_.find(path); it != buffers_.end() && it->second.tree) {
    // Parsed already (incrementally): extract from the tree unless cached.
    if (auto hit = cache_->find(path, ref->id)) {
      headFacts_.files[path] = hit;
    } else if (std::string why = it->second.checks.reason(classify(path), *ref->data); !why.empty()) {
      headFacts_.files[path] = cache_->get(path, ref->id, [&]() -> absl::StatusOr<std::string> { return *ref->data; });
    } else {
      headFacts_.files[path] = cache_->put(path, ref->id, extractParsed(path, *it->second.tree));
    }
    return;
  }
  headFacts_.files[path] = cache_->get(path, ref->id, [&]() -> absl::StatusOr<std::string> {
    if (ref->data) return *ref->data;
    if (auto it = diskNotRead_.find(path); it != diskNotRead_.end()) return absl::FailedPreconditionError(it->second);
    return disk_->read(path);
  });
}

void Workspace::diskFileNotRead(const std::string& path, std::string why) {
  diskNotRead_[path] = std::move(why);
  diskChanges_[path] = FileRef{kNotReadId, nullptr};
  if (!buffers_.count(path)) refreshHeadFile(path);
}

void Workspace::updateDiskFile(const std::string& path, std::optional<std::string> content) {
  diskNotRead_.erase(path);
  FileRef ref;
  if (content) {
    ref.id = blobId(*content);
    ref.data = std::make_shared<const std::string>(std::move(*content));
  }
  const FileRef* old = disk_ ? disk_->find(path) : nullptr;
  if (old && old->id == ref.id) diskChanges_.erase(path);  // back to the snapshot's content
  else if (!old && ref.id.empty()) diskChanges_.erase(path);
  else diskChanges_[path] = std::move(ref);
  if (!buffers_.count(path)) refreshHeadFile(path);
}

void Workspace::setBuffer(const std::string& path, std::string content, const std::vector<TSInputEdit>& edits) {
  Buffer& b = buffers_[path];
  if (b.ref.data && *b.ref.data == content) return;
  FileKind kind = classify(path);
  // One range edit on a known buffer: the text checks look at the changed bytes only.
  if (b.ref.data && edits.size() == 1)
    b.checks.update(*b.ref.data, content, edits[0].start_byte, edits[0].old_end_byte, edits[0].new_end_byte);
  else
    b.checks = TextChecks::of(content);
  std::unique_ptr<SyntaxTree> tree;
  if ((kind == FileKind::Python || kind == FileKind::Cpp) && b.checks.reason(kind, content).empty()) {
    if (b.tree && !edits.empty()) tree = b.tree->reparse(content, edits);
    else tree = SyntaxTree::parse(kind == FileKind::Python ? Lang::Python : Lang::Cpp, content);
  }
  b.ref.id = blobId(content);
  b.ref.data = std::make_shared<const std::string>(std::move(content));
  b.tree = std::move(tree);
  refreshHeadFile(path);
}

void Workspace::closeBuffer(const std::string& path) {
  if (buffers_.erase(path)) refreshHeadFile(path);
}

namespace {

// Paths none of which the module graph or the arch index read (C++ sources, unanalysed files).
bool onlyCppOrOther(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    if (p == "*") return false;
    FileKind k = classify(p);
    if (k != FileKind::Cpp && k != FileKind::Other) return false;
  }
  return true;
}

std::shared_ptr<Derived> graphOnly(const TreeFacts& facts, const Layout& layout) {
  auto d = std::make_shared<Derived>();
  d->facts = std::make_shared<const TreeFacts>(facts);
  d->layout = layout;
  d->graph = std::make_unique<ModuleGraph>(*d->facts, d->layout);
  d->archs = std::make_unique<ArchIndex>(*d->facts, d->layout, *d->graph);
  return d;
}

}  // namespace

std::shared_ptr<const AnalysisState> Workspace::analyse() {
  changedPaths_.clear();
  if (!dirty_ && last_) return last_;
  auto st = std::make_shared<AnalysisState>();
  st->generation = ++generation_;
  st->base = base_;
  st->disk = disk_;
  st->baseDerived = baseDerived_;
  st->headFacts = headFacts_;
  st->headOverrides = diskChanges_;
  st->notRead = diskNotRead_;
  for (const auto& [path, b] : buffers_) st->headOverrides[path] = b.ref;
  if (baseDerived_ && disk_) {
    std::optional<std::vector<KernargsPair>> reused;
    bool whole = std::find(pendingPaths_.begin(), pendingPaths_.end(), "*") != pendingPaths_.end();
    if (pairsValid_ && !whole) reused = reusePairs(pairs_, pairedFacts_, st->headFacts, pendingPaths_);
    if (reused) {
      st->headPairs = std::move(*reused);
    } else {
      st->headPairs = pairKernargs(st->headFacts, layout_);
      ++pairings_;
    }
    pairedFacts_ = st->headFacts;
    pairs_ = st->headPairs;
    pairsValid_ = true;
    const Snapshot* base = base_.get();
    const AnalysisState* s = st.get();
    Revision baseRev{*baseDerived_->facts, [base](const std::string& p) { return base->find(p); }, nullptr,
                     baseDerived_.get()};
    if (!headDerived_ || !onlyCppOrOther(pendingPaths_)) {
      // A new head graph; what the last one resolved carries over while every name still
      // resolves the same (an edit inside a def's body: ModuleGraph::adopt decides).
      auto next = graphOnly(st->headFacts, layout_);
      if (headDerived_ && next->graph->adopt(*headDerived_->graph)) ++headGraphAdoptions_;
      headDerived_ = std::move(next);
      ++headGraphBuilds_;
    }
    Revision headRev{st->headFacts, [s](const std::string& p) { return s->headFind(p); }, &st->headPairs,
                     headDerived_.get()};
    st->rows = judge(baseRev, headRev, layout_, nullptr, &memo_);
    memo_.valid = true;
    memo_.changedKinds.clear();
    st->rollup = rollUp(st->rows);
  }
  changedPaths_ = std::move(pendingPaths_);
  pendingPaths_.clear();
  dirty_ = false;
  last_ = st;
  return st;
}

}  // namespace impact
