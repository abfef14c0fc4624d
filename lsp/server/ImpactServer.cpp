#include "server/ImpactServer.h"

#include "git/Refs.h"
#include "server/RunLocations.h"
#include "server/ServerState.h"

namespace impact::server {

ImpactServer::ImpactServer(Callbacks cb, Options opts) : impl_(std::make_unique<Impl>(std::move(cb), std::move(opts))) {}

ImpactServer::~ImpactServer() {
  if (!impl_) return;
  if (!stop(std::chrono::steady_clock::now() + kShutdownWait))
    (void)impl_.release();  // a thread still running reads it: kept, the process ends with _Exit
}

bool ImpactServer::stop(std::chrono::steady_clock::time_point deadline) {
  Impl& I = *impl_;
  // Every stop signal first, so the threads wind down together; then the waits, one deadline.
  {
    std::lock_guard<std::mutex> lock(I.watchMu);
    I.stopping = true;
  }
  I.watchCv.notify_all();
  I.emitter->cancel();
  I.geometry->cancel();
  // The emitter's and the geometry's runs: their cancel flags kill their child groups.
  bool clean = I.emitter->stopUntil(deadline);
  clean = I.geometry->stopUntil(deadline) && clean;
  // The worker: the task it is running may be the one that starts the git watch.
  const bool worker = I.sched.stopUntil(deadline);
  // The git watch is started by a worker's task: looked at only once the worker has ended (a
  // worker left running keeps all of this alive anyway).
  clean = worker && I.gitWatch.joinUntil(deadline) && clean;
  std::lock_guard<std::mutex> lock(I.reportsMu);
  for (auto& t : I.reports) clean = t.joinUntil(deadline) && clean;
  I.reports.clear();
  return clean;
}

void ImpactServer::initialize(const std::string& rootPath, const std::string& target, std::function<void()> done) {
  impl_->sched.post([this, rootPath, target, done = std::move(done)] {
    Impl& I = *impl_;
    I.target = target;
    I.status.starting();
    if (rootPath.empty()) {
      I.status.failed("no workspace root was given; no diagnostics");
      I.message(Severity::Error, "impactd: no workspace root was given; no diagnostics");
      if (done) done();
      return;
    }
    auto repo = Repository::open(rootPath);
    if (!repo.ok()) {
      I.status.failed(std::string(repo.status().message()) + "; no diagnostics");
      I.message(Severity::Error, "impactd: " + std::string(repo.status().message()) + "; no diagnostics");
      if (done) done();
      return;
    }
    I.repo = *repo;
    I.setRoots(rootPath);
    // Where things live: .impactd.yaml at the work tree's root, else the monorepo's layout.
    ReportRequest rr;
    rr.repo = I.root;
    if (auto layout = layoutFor(rr, *I.repo, I.opts.layout); layout.ok()) I.ws.setLayout(*layout);
    else I.message(Severity::Error, "impactd: " + std::string(layout.status().message()) + "; using the default layout");
    // Buffers opened before the repository was known.
    I.refreshFromGit();
    I.startGitWatch();
    if (done) done();
  });
}

void ImpactServer::setTarget(const std::string& target) {
  impl_->sched.post([this, target] {
    if (impl_->target == target) return;
    impl_->target = target;
    impl_->mergeBase.clear();
    impl_->refreshFromGit();
  });
}

void ImpactServer::didOpen(const std::string& path, std::string text, int64_t version) {
  impl_->bumpEpoch(path);
  impl_->sched.post([this, path, text = std::move(text), version]() mutable {
    Impl& I = *impl_;
    std::string r = I.resolvedRel(path);
    if (r.empty()) return;
    auto& doc = I.docs[r];
    if (auto old = I.uriDoc.find(path); old != I.uriDoc.end() && old->second != r) {
      // The name now leads to another file (a symlink moved): it leaves the old document.
      if (auto od = I.docs.find(old->second); od != I.docs.end()) od->second.uris.erase(path);
    }
    I.uriDoc[path] = r;
    auto& u = doc.uris[path];
    ++u.opens;
    u.version = version;
    // The text the client sends is the file's under every name: the latest open wins.
    doc.text = text;
    doc.version = version;
    doc.lines = LineIndex(doc.text);
    I.ws.setBuffer(r, std::move(text));
    // A name under which the client has not seen the file's diagnostics (a second name of an
    // open document, or another name than the work tree's): they are published to it now; the
    // analysis of the text sent follows.
    if (auto pub = I.published.find(r); pub != I.published.end() && (doc.uris.size() > 1 || path != I.absPath(r)) && I.cb.publish)
      I.cb.publish(path, pub->second, version);
    I.scheduleAnalysis();
  });
}

void ImpactServer::didChange(const std::string& path, std::vector<ContentChange> changes, int64_t version) {
  impl_->bumpEpoch(path);
  impl_->sched.post([this, path, changes = std::move(changes), version] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    auto it = I.docs.find(r);
    if (r.empty() || it == I.docs.end()) return;
    auto u = it->second.uris.find(path);
    if (u == it->second.uris.end()) {
      I.log("didChange for " + r + " through a name that is not open; change ignored");
      return;
    }
    std::vector<TSInputEdit> edits;
    if (!applyChanges(it->second.text, it->second.lines, changes, edits)) {
      I.log("didChange for " + r + ": a range is outside the document; change ignored");
      return;
    }
    it->second.version = version;
    u->second.version = version;
    I.ws.setBuffer(r, it->second.text, edits);
    I.scheduleAnalysis();
  });
}

void ImpactServer::didClose(const std::string& path) {
  impl_->bumpEpoch(path);
  impl_->sched.post([this, path] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    auto it = I.docs.find(r);
    if (r.empty() || it == I.docs.end()) return;
    // Closed under this name; the document stays open while another name (or another open of
    // this one) holds it.
    if (auto u = it->second.uris.find(path); u != it->second.uris.end() && --u->second.opens <= 0) {
      it->second.uris.erase(u);
      I.uriDoc.erase(path);
      // This name gets no more diagnostics unless it is the work tree's own: clear what it was
      // shown, and publish the file's again (to its other names, or the work tree's).
      if (path != I.absPath(r) && I.cb.publish) I.cb.publish(path, {}, std::nullopt);
      // The file's diagnostics under the work tree's name, when no name of it is open any more.
      if (it->second.uris.empty() && path != I.absPath(r))
        if (auto pub = I.published.find(r); pub != I.published.end() && I.cb.publish)
          I.cb.publish(I.absPath(r), pub->second, std::nullopt);
    }
    if (!it->second.uris.empty()) return I.scheduleAnalysis();
    I.docs.erase(it);
    I.ws.closeBuffer(r);
    I.scheduleAnalysis();
  });
}

void ImpactServer::didSave(const std::string& path) { filesChanged({path}); }

void ImpactServer::filesChanged(const std::vector<std::string>& paths) {
  impl_->sched.post([this, paths] {
    Impl& I = *impl_;
    bool git = false;
    for (const auto& p : paths) {
      std::string r = I.rel(p);
      if (r.empty()) continue;
      if (r.rfind(".git/", 0) == 0) {
        git = true;
        continue;
      }
      I.diskChanged(r);
    }
    if (git) I.refreshFromGit();
    else I.scheduleAnalysis();
    std::vector<std::string> rels;
    for (const auto& p : paths) rels.push_back(I.rel(p));
    I.emitter->afterSave(rels);
    I.geometry->afterSave(rels);
  });
}

void ImpactServer::gitChanged() {
  impl_->sched.post([this] { impl_->refreshFromGit(); });
}


void ImpactServer::runImpact(RunRequest req, std::function<void(const std::string&)> progress, Cancelled cancelled,
                             std::function<void(std::optional<RunResult>, std::string)> reply) {
  // The target and root are read on the worker, then the report runs on its own thread.
  impl_->sched.post([this, req = std::move(req), progress = std::move(progress), cancelled = std::move(cancelled),
                     reply = std::move(reply)]() mutable {
    Impl& I = *impl_;
    if (!I.repo) return reply(std::nullopt, "no git repository is open");
    ReportRequest rr;
    rr.repo = I.root;
    rr.base = !req.base.empty() ? req.base : (!I.targetId.empty() ? I.targetId : I.target);
    rr.head = req.head;
    rr.targetTip = req.targetTip;
    // The open buffers, unsaved edits included (R1.1): the report sees what the diagnostics see.
    if (rr.head.empty())
      for (const auto& [path, doc] : I.docs) rr.overlay[path] = doc.text;
    // The emitter's result, when one was made for the same trees (left out with a note otherwise).
    if (I.emitter->document() && req.base.empty() && req.head.empty()) {
      rr.emit = I.emitter->document();
      rr.emitIfSameTrees = true;
    }
    // The background geometry differential's result, when it was made for this head (else a note).
    if (I.geometry->document() && req.base.empty() && req.head.empty()) {
      rr.geometry = I.geometry->document();
      rr.geometryIfSameTree = true;
    }
    Layout layout = I.ws.layout();
    std::lock_guard<std::mutex> lock(I.reportsMu);
    std::erase_if(I.reports, [](OwnedThread& t) {
      if (!t.ended()) return false;
      t.join();
      return true;
    });
    I.reports.emplace_back([rr, layout, root = I.root, cacheDir = I.opts.cacheDir, progress = std::move(progress), cancelled = std::move(cancelled),
                    reply = std::move(reply)] {
      progress("reading revisions and extracting facts");
      if (cancelled()) return reply(std::nullopt, "cancelled");
      ExtractCache cache;
      if (!cacheDir.empty()) cache.setStore(std::make_shared<DiskCache>(cacheDir));
      auto rep = runReport(rr, layout, cache);
      if (cancelled()) return reply(std::nullopt, "cancelled");
      if (!rep.ok()) return reply(std::nullopt, std::string(rep.status().message()));
      progress("rendering");
      reply(RunResult{renderText(*rep), renderJson(*rep), rowLocations(*rep, root, rr.overlay)}, "");
    });
  });
}

void ImpactServer::refs(std::function<void(std::optional<RefsResult>, std::string)> reply) {
  impl_->sched.post([this, reply = std::move(reply)] {
    Impl& I = *impl_;
    if (!I.repo) return reply(std::nullopt, "no git repository is open");
    auto names = listRefNames(I.root);
    if (!names.ok()) return reply(std::nullopt, std::string(names.status().message()));
    reply(RefsResult{I.targetName, names->headBranch, std::move(names->branches), std::move(names->remoteBranches),
                     std::move(names->tags)},
          "");
  });
}

void ImpactServer::runEmitter(std::function<void(std::string, std::string)> reply) {
  impl_->sched.post([this, reply = std::move(reply)]() mutable { impl_->emitter->runNow(std::move(reply)); });
}

void ImpactServer::cancelEmitter() { impl_->emitter->cancel(); }

void ImpactServer::cancelGeometry() {
  impl_->sched.post([this] { impl_->geometry->cancel(); });
}

void ImpactServer::sync(std::function<void()> fn) {
  impl_->sched.post([this, fn = std::move(fn)] {
    impl_->analyseAndPublish();
    fn();
  });
}

int64_t ImpactServer::documentEpoch(const std::string& path) const {
  std::lock_guard<std::mutex> lock(impl_->epochMu);
  auto it = impl_->epochs.find(path);
  return it == impl_->epochs.end() ? 0 : it->second;
}

}  // namespace impact::server
