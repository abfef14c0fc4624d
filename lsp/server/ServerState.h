// The state behind ImpactServer (one per server): the workspace, open documents, published
// diagnostics, the git watch, report threads and the background emitter. Private to lsp/server:
// ImpactServer.cpp (lifecycle, documents, git, impact.run) and Requests.cpp (hover,
// definition, references, code actions) share it.
#pragma once

#include "server/ImpactServer.h"

#include <condition_variable>
#include <filesystem>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "analysis/Analysis.h"
#include "cache/DiskCache.h"
#include "io/DiskRead.h"
#include "report/Render.h"
#include "server/Diagnostics.h"
#include "server/BackgroundEmit.h"
#include "server/BackgroundGeometry.h"
#include "server/CopyViews.h"
#include "server/EmitDiagnostics.h"
#include "server/GitSignature.h"
#include "server/OwnedThread.h"
#include "server/Navigation.h"
#include "server/Positions.h"
#include "server/QuickFix.h"


namespace impact::server {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct ImpactServer::Impl {
  Callbacks cb;
  Options opts;
  std::shared_ptr<DiskCache> disk;  // shared with impact and other servers; null: none
  Workspace ws;
  std::shared_ptr<Repository> repo;
  // The work tree with a trailing '/': as the client names it (through a symlink, say), which
  // is how paths are published; and with symlinks resolved (libgit2's view).
  std::string root, realRoot;
  std::string target, targetId, headId, mergeBase;
  std::string targetName;  // the target in use: the setting, else the default found ("" when none)
  bool ready = false;
  // Why the analysis cannot run as asked (no merge base, ...): the status says it while it lasts.
  std::string problem, summary;
  StatusTracker status{[this](const ServerStatus& s) {
    if (cb.status) cb.status(s);
  }};

  // One document per real file (issue 37): however many URIs name it (the work tree through a
  // symlink and its real path), one text, edited through any of them. Each URI the client opened
  // is counted (open/close) and keeps its own version; diagnostics go to every URI open.
  struct Doc {
    std::string text;
    int64_t version = 0;  // the version of the last edit, through whichever URI
    LineIndex lines;  // of text, kept in step by applyChanges
    struct Uri {
      int opens = 0;
      int64_t version = 0;
    };
    std::map<std::string, Uri> uris;  // by the client's path
  };
  std::map<std::string, Doc> docs;  // by repository-relative path of the resolved file
  std::map<std::string, std::string> uriDoc;  // an open URI's path -> its document's key
  std::map<std::string, std::vector<Diag>> published;
  std::shared_ptr<const AnalysisState> hintBasis;  // the analysis the last hints refresh was for
  uint64_t publishedGeneration = 0;
  double analyseMs = 20;  // moving average, for the debounce
  Clock::time_point lastEdit{};  // when the last analysis was scheduled

  mutable std::mutex epochMu;
  std::map<std::string, int64_t> epochs;

  // Texts of files that are not open (for line indexes), by content id: owned here, emptied
  // when they pass 256 texts or 64 MB (every cache of the server has an owner and a bound).
  std::unordered_map<std::string, std::shared_ptr<const std::string>> contentById;
  size_t contentBytes = 0;

  // The git watch: polled on its own thread, reported as a task.
  OwnedThread gitWatch;
  std::mutex watchMu;
  std::condition_variable watchCv;
  bool stopping = false;
  std::string gitSignature;

  // impact.run threads; a finished one is joined when the next starts, the rest at exit until
  // the shutdown's deadline (a report holds copies of what it reads: one still running then is
  // left running, server/OwnedThread.h).
  std::mutex reportsMu;
  std::vector<OwnedThread> reports;

  // The background emitter (R6.6, server/BackgroundEmit.h).
  std::unique_ptr<BackgroundEmit> emitter;
  // The geometry differential in the background (issue 17, server/BackgroundGeometry.h).
  std::unique_ptr<BackgroundGeometry> geometry;

  // Declared last: destroyed first, so no task runs on a half-destroyed Impl.
  Scheduler sched;

  Impl(Callbacks c, Options o)
      : cb(std::move(c)), opts(std::move(o)), disk(opts.cacheDir.empty() ? nullptr : std::make_shared<DiskCache>(opts.cacheDir)),
        ws(opts.layout, withDisk(std::make_shared<ExtractCache>())) {
    EmitHost host{
        opts, cb, sched, status, [this] { return repo ? root : std::string(); }, [this] { return mergeBase; },
        [this] { return current(); }, [this] { analyseAndPublish(); },
        [this] {
          publishedGeneration = 0;
          analyseAndPublish();
        },
        [this] { settle(); }, [this](Severity sv, const std::string& m, const std::string& k) { message(sv, m, k); },
        [this](const std::string& k) { shownMessages.erase(k); }, [this](const std::string& m) { log(m); }};
    emitter = std::make_unique<BackgroundEmit>(host);
    geometry = std::make_unique<BackgroundGeometry>(host);
  }
  std::shared_ptr<ExtractCache> withDisk(std::shared_ptr<ExtractCache> c) const {
    // Bounded: the versions of a document that no buffer or tree holds any more are evicted.
    c->setBound(opts.extractCacheBound);
    if (disk) c->setStore(disk);
    return c;
  }

  void log(const std::string& s) {
    if (cb.log) cb.log(s);
  }

  std::string rel(const std::string& abs) const {
    if (root.empty()) return "";
    if (auto it = uriDoc.find(abs); it != uriDoc.end()) return it->second;
    std::string p = fs::path(abs).lexically_normal().string();
    if (p.rfind(root, 0) == 0) return p.substr(root.size());
    if (p.rfind(realRoot, 0) == 0) return p.substr(realRoot.size());
    // Another name for the same place (a symlink the client went through).
    std::error_code ec;
    std::string c = fs::weakly_canonical(p, ec).string();
    if (!ec && c.rfind(realRoot, 0) == 0) return c.substr(realRoot.size());
    return "";
  }

  // The work tree as the client names it: rootPath may be the work tree or a folder in it,
  // reached through symlinks; libgit2 gives the resolved path.
  void setRoots(const std::string& rootPath) {
    auto slash = [](std::string s) {
      if (!s.empty() && s.back() != '/') s += '/';
      return s;
    };
    std::error_code ec;
    fs::path work = fs::weakly_canonical(fs::path(repo->workdir()), ec);
    if (ec) work = fs::path(repo->workdir()).lexically_normal();
    realRoot = slash(work.lexically_normal().string());
    root = realRoot;
    fs::path given = fs::path(rootPath).lexically_normal();
    if (given.has_filename() == false) given = given.parent_path();
    fs::path canonGiven = fs::weakly_canonical(given, ec);
    if (ec || !given.is_absolute()) return;
    fs::path below = canonGiven.lexically_relative(work.lexically_normal());
    if (below.empty() || *below.begin() == "..") return;
    fs::path r = given;
    for (const auto& part : below)
      if (part != "." && !part.empty()) r = r.parent_path();
    root = slash(r.lexically_normal().string());
  }
  std::string absPath(const std::string& relPath) const { return root + relPath; }

  // The document key of a path the client opens: the repository-relative path of the file it
  // resolves to (symlinks followed), so that two names of one file are one document.
  std::string resolvedRel(const std::string& abs) const {
    std::string r = rel(abs);
    if (r.empty()) return r;
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::path(abs), ec);
    if (ec) return r;
    std::string cs = c.lexically_normal().string();
    if (cs.rfind(realRoot, 0) == 0 && cs.size() > realRoot.size()) return cs.substr(realRoot.size());
    return r;
  }

  void bumpEpoch(const std::string& path) {
    std::lock_guard<std::mutex> lock(epochMu);
    ++epochs[path];
  }

  // The quiet period before an analysis (issue 18): the floor, unless the edits come faster
  // than an analysis takes (a burst of typing), when it waits one analysis' time so that the
  // next keystroke does not find the worker busy with a state it makes stale. A slow analysis
  // alone does not delay the next one; a newer edit pushes the pending one back either way.
  std::chrono::milliseconds debounce(Clock::duration sinceLastEdit) const {
    auto floor = opts.minDebounce;
    if (std::chrono::duration<double, std::milli>(sinceLastEdit).count() >= analyseMs) return floor;
    auto ms = std::chrono::milliseconds(static_cast<int64_t>(analyseMs));
    return std::clamp(ms, floor, std::max(floor, opts.maxDebounce));
  }

  void scheduleAnalysis() {
    if (ready) status.analysing();
    auto now = Clock::now();
    auto since = lastEdit == Clock::time_point{} ? Clock::duration::max() : now - lastEdit;
    lastEdit = now;
    sched.postDebounced("analyse", debounce(since), [this] { analyseAndPublish(); });
  }

  // The text of a file at the head: the open buffer, else the working tree's content.
  std::shared_ptr<const std::string> content(const AnalysisState& st, const std::string& path) {
    // An open document is in the state as a buffer: the text the analysis read, no copy.
    const FileRef* ref = st.headFind(path);
    if (!ref) return nullptr;
    if (ref->data) return ref->data;
    if (auto it = contentById.find(ref->id); it != contentById.end()) return it->second;
    auto text = st.headContent(path);
    if (!text.ok()) return nullptr;
    if (contentById.size() >= 256 || contentBytes + text->size() > (64u << 20)) {
      contentById.clear();
      contentBytes = 0;
    }
    auto p = std::make_shared<const std::string>(std::move(*text));
    contentBytes += p->size();
    contentById[ref->id] = p;
    return p;
  }

  // The line index of a file's head text: an open document's own (kept up to date by its
  // edits) when the analysis read that text, else one built once per publication.
  struct LineIndexOf {
    std::shared_ptr<const std::string> text;
    LineIndex index;
  };
  const LineIndex& lineIndex(const AnalysisState& st, const std::string& path, std::map<std::string, LineIndexOf>& memo) {
    auto [it, fresh] = memo.try_emplace(path);
    if (!fresh) return it->second.index;
    LineIndexOf& e = it->second;
    e.text = content(st, path);
    if (!e.text) return e.index;
    auto doc = docs.find(path);
    if (doc != docs.end() && doc->second.text == *e.text) {
      e.index = doc->second.lines;
      e.index.rebind(*e.text);
    } else {
      e.index = LineIndex(*e.text);
    }
    return e.index;
  }

  std::shared_ptr<const AnalysisState> current() {
    auto t0 = Clock::now();
    auto st = ws.analyse();
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (ms > 0.01) analyseMs = 0.8 * analyseMs + 0.2 * ms;
    return st;
  }

  void analyseAndPublish() {
    if (!ready) return;
    auto st = current();
    if (st->generation == publishedGeneration) return settle();
    publishedGeneration = st->generation;
    // The emitter's verdicts, when its last document was made for these trees (R6.6).
    FoldedState emitFold = emitter->fold(*st);
    const std::vector<Row>* rows = emitFold.applies ? &emitFold.rows : &st->rows;
    // The geometry differential's verdicts, when its last document was made for this head.
    std::vector<Row> withGeometry;
    bool geometryApplies = false;
    if (geometry->applies(*st)) {
      withGeometry = *rows;
      geometryApplies = geometry->fold(*st, withGeometry);
      if (geometryApplies) rows = &withGeometry;
    }
    auto byFile = diagnosticsByFile(*rows);
    {
      std::vector<std::string> open;
      for (const auto& [path, doc] : docs) open.push_back(path);
      if (st->baseDerived) addNotCompared(st->headFacts, st->headPairs, open, byFile);
    }
    if (geometryApplies) addGeometryRelated(*geometry->document(), byFile);
    if (emitFold.applies)
      addEmitDiagnostics(*emitter->document(), st->headFacts, emitFold.folded, opts.emitterHints, byFile);
    std::map<std::string, std::vector<Diag>> next;
    std::map<std::string, LineIndexOf> indexes;  // one index per file for this publication
    for (auto& [path, fds] : byFile) {
      // A file that is not in the head (deleted) gets none: an editor would show them on a
      // file that does not exist. impact.run still reports its row.
      if (!st->headFind(path)) continue;
      const LineIndex& idx = lineIndex(*st, path, indexes);
      std::vector<Diag> out;
      for (const auto& fd : fds) {
        // Without a merge base everything reads as added: only a mismatch can be judged.
        if (mergeBase.empty() && fd.status == "changed") continue;
        Diag d;
        d.range = idx.range(fd.range);
        d.severity = fd.severity;
        d.code = fd.code;
        d.message = fd.message;
        d.rowKey = fd.rowKey;
        d.status = fd.status;
        for (const auto& o : fd.related) {
          d.related.push_back({{absPath(o.path), lineIndex(*st, o.path, indexes).range(o.range)}, o.message});
        }
        out.push_back(std::move(d));
      }
      if (!out.empty()) next[path] = std::move(out);
    }
    // Publish what changed, and clear files that no longer have diagnostics.
    for (const auto& [path, diags] : next) {
      auto it = published.find(path);
      if (it != published.end() && it->second == diags) continue;
      publish(path, diags);
    }
    bool moved = false;  // issue 38: clients that pull or show hints are told to ask again
    for (const auto& [path, diags] : next) {
      auto it = published.find(path);
      moved = moved || it == published.end() || !(it->second == diags);
    }
    for (const auto& [path, diags] : published)
      if (!next.count(path)) {
        publish(path, {});
        moved = true;
      }
    published = std::move(next);
    bool hints = hintInputsMoved(hintBasis.get(), *st);
    hintBasis = st;
    if (cb.refresh && (hints || moved)) cb.refresh(hints, moved);
    settle();
  }

  void settle() {
    std::vector<std::vector<Diag>> all;
    for (const auto& [path, diags] : published) all.push_back(diags);
    status.settled(all, problem, summary);
  }

  // To every URI the client opened the file under, each with its own version; a file not open
  // under the work tree's name.
  void publish(const std::string& path, const std::vector<Diag>& diags) {
    if (!cb.publish) return;
    if (auto it = docs.find(path); it != docs.end() && !it->second.uris.empty()) {
      for (const auto& [uri, u] : it->second.uris) cb.publish(uri, diags, u.version);
      return;
    }
    cb.publish(absPath(path), diags, std::nullopt);
  }

  std::string gitStateSignature() const { return repo ? gitSignatureOf(repo->gitdir()) : ""; }

  void startGitWatch() {
    {
      std::lock_guard<std::mutex> lock(watchMu);
      if (stopping) return;
    }
    if (gitWatch.joinable()) return;
    gitSignature = gitStateSignature();
    gitWatch = OwnedThread([this] {
      std::unique_lock<std::mutex> lock(watchMu);
      while (!stopping) {
        watchCv.wait_for(lock, opts.gitPoll);
        if (stopping) break;
        lock.unlock();  // a slow file system never holds up the shutdown's stop signal
        std::string sig = gitStateSignature();
        lock.lock();
        if (stopping) break;
        if (sig != gitSignature) {
          gitSignature = sig;
          sched.post([this] { refreshFromGit(); });
        }
      }
    });
  }

  // Resolves target, head and merge base; rebuilds base and disk snapshots. Not on a keystroke.
  void refreshFromGit() {
    if (!repo) return;
    status.analysing();
    problem.clear();
    std::string tgt = target;
    absl::StatusOr<std::string> tid = absl::NotFoundError("");
    if (tgt.empty()) {
      for (const char* cand : {"@{upstream}", "origin/develop", "develop", "main", "master"}) {
        tid = repo->resolve(cand);
        if (tid.ok()) {
          tgt = cand;
          break;
        }
      }
    } else {
      tid = repo->resolve(tgt);
    }
    auto head = repo->resolve("HEAD");
    std::shared_ptr<const Snapshot> base;
    std::string mb;
    if (!tid.ok() || !head.ok()) {
      std::string why = !head.ok() ? std::string(head.status().message())
                                   : (target.empty() ? std::string("no target branch (tried the upstream, origin/develop, develop, main)")
                                                     : std::string(tid.status().message()));
      problem = why + "; every copy is compared as if it were new";
      message(Severity::Warning, "impactd: " + problem, "no-base");
    } else {
      auto m = repo->mergeBase(*tid, *head);
      if (!m.ok()) {
        problem = std::string(m.status().message()) + "; every copy is compared as if it were new";
        message(Severity::Warning, "impactd: " + problem, "no-base");
      } else {
        mb = *m;
        shownMessages.erase("no-base");  // said again if the base goes missing again
      }
    }
    if (!mb.empty() && mb == mergeBase && ready) {
      // Same base: only the working tree moved (a commit, a checkout of the same base).
    } else if (!mb.empty()) {
      auto snap = repo->commitSnapshot(mb);
      if (snap.ok()) base = std::make_shared<const Snapshot>(std::move(*snap));
      else {
        problem = std::string(snap.status().message());
        message(Severity::Error, "impactd: " + problem);
      }
    }
    if (!base && (mb.empty() || !ready)) {
      auto empty = std::make_shared<Snapshot>();
      empty->label = "empty tree";
      base = empty;
    }
    if (base) ws.setBase(base);
    mergeBase = mb;
    targetId = tid.ok() ? *tid : "";
    targetName = tid.ok() ? tgt : "";
    headId = head.ok() ? *head : "";
    auto disk = repo->workdirSnapshot();
    if (disk.ok()) ws.setDisk(std::make_shared<const Snapshot>(std::move(*disk)));
    else {
      problem = std::string(disk.status().message());
      message(Severity::Error, "impactd: " + problem);
    }
    if (std::string why = ws.unreadable(); !why.empty()) {
      problem = why + ": the repository is damaged; `git fsck` says more";
      message(Severity::Error, "impactd: " + problem, "unreadable");
    }
    summary = absl::StrCat("target ", tgt.empty() ? "(none)" : tgt, ", merge base ", mb.empty() ? "(none)" : mb.substr(0, 12));
    log(summary);
    ready = true;
    analyseAndPublish();
    if (this->disk)
      log(absl::StrCat("facts: ", ws.cache().extractions(), " extracted, ", ws.cache().fromStore(),
                       " from the cache ", this->disk->dir()));
  }

  std::set<std::string> shownMessages;
  // Shown once per `key` (default: the text) until the key is erased: a commit that changes
  // the ids in a message does not repeat it.
  void message(Severity s, const std::string& m, const std::string& key = "") {
    if (!shownMessages.insert(key.empty() ? m : key).second) return;
    if (cb.showMessage) cb.showMessage(s, m);
  }

  // A file of the work tree as it is on disk now, through the one guarded read (io/DiskRead.h):
  // a regular file only (a symlink to one inside the work tree), never blocking, at most 64 MB.
  absl::StatusOr<std::string> readDisk(const std::string& path) {
    return readRegularFile(absPath(path), DiskReadLimits::within(realRoot));
  }

  // A watched file changed on disk: read again, or said not read (a FIFO named `x.py`, a
  // symlink to /dev/zero or /dev/stdin, a file over the limit), once per file and reason.
  void diskChanged(const std::string& path) {
    auto content = readDisk(path);
    if (content.ok()) return ws.updateDiskFile(path, std::move(*content));
    if (absl::IsNotFound(content.status())) return ws.updateDiskFile(path, std::nullopt);
    std::string why(content.status().message());
    ws.diskFileNotRead(path, why);
    std::string line = path + ": " + notReadMessage(content.status());
    log(line);
    message(Severity::Warning, "impactd: " + line, "not-read\n" + path + "\n" + why);
  }
};

}  // namespace impact::server
