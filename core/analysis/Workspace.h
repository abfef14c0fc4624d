// The live analysis state behind the language server (rust-analyzer's model: the analysis is
// a pure function of file contents; the server feeds edits in and reads answers out).
//
// The base is the merge base's tree, fixed until the merge base moves. The head is the working
// tree on disk with editor buffers laid over it. An update touches only the file it names (one
// parse, incremental for buffers); analyse() re-pairs and re-judges from facts in memory and
// reads no file.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "contracts/AotProducers.h"
#include "contracts/Kernargs.h"
#include "extract/Extract.h"
#include "extract/TextChecks.h"
#include "git/Snapshot.h"
#include "judge/Judge.h"
#include "model/Layout.h"
#include "model/Report.h"
#include "parse/Syntax.h"

namespace impact {

// One analysis result. Immutable once made; readers on any thread may share it.
struct AnalysisState {
  uint64_t generation = 0;
  std::shared_ptr<const Snapshot> base, disk;
  std::shared_ptr<const Derived> baseDerived;  // the base's facts, pairs, module graph, archs
  TreeFacts headFacts;
  std::map<std::string, FileRef> headOverrides;  // buffers and re-read disk files; null id = deleted
  std::map<std::string, std::string> notRead;    // re-read disk files present but not read: why
  std::vector<KernargsPair> headPairs;
  std::vector<Row> rows;
  Rollup rollup;

  const FileRef* headFind(const std::string& path) const;
  absl::StatusOr<std::string> headContent(const std::string& path) const;
};

class Workspace {
 public:
  explicit Workspace(Layout layout, std::shared_ptr<ExtractCache> cache = nullptr);

  const Layout& layout() const { return layout_; }
  // A new layout (a configuration file read at initialize): set the base and disk again after.
  void setLayout(Layout layout);
  ExtractCache& cache() { return *cache_; }

  // The merge base's tree: extracts every analysed file (through the cache) and pairs them.
  void setBase(std::shared_ptr<const Snapshot> base);
  // The working tree (after initialize, a branch switch, a commit): every analysed file.
  void setDisk(std::shared_ptr<const Snapshot> disk);
  // Why a file of the base or the working tree could not be read from git (a corrupted
  // object: "path: unreadable object ID: ..."); "" when every file was read.
  std::string unreadable() const;
  // One file changed on disk (a watched-file event): nullopt when it was deleted.
  void updateDiskFile(const std::string& path, std::optional<std::string> content);
  // One file on disk is there but was not read (a FIFO, a device, too large: io/DiskRead.h):
  // its facts say why (ok = false), never the old content.
  void diskFileNotRead(const std::string& path, std::string why);

  // Editor buffers override the disk. `edits` (byte-based, in order) let the parser reuse the
  // buffer's previous tree; without them the buffer is parsed afresh.
  void setBuffer(const std::string& path, std::string content, const std::vector<TSInputEdit>& edits = {});
  void closeBuffer(const std::string& path);
  bool hasBuffer(const std::string& path) const { return buffers_.count(path) != 0; }

  // Judges the current contents. Cheap to call again when nothing changed (returns the last).
  std::shared_ptr<const AnalysisState> analyse();

  // Paths whose facts changed since the last analyse() (for re-publishing diagnostics).
  const std::vector<std::string>& lastChangedPaths() const { return changedPaths_; }
  // How many contract judgements ran (not reused) so far: for tests of the incremental path.
  int contractsJudged() const { return memo_.judged; }
  // How many times every copy was paired afresh (not reused): for the same tests.
  int pairings() const { return pairings_; }
  // How many times the head's module graph and arch index were built: for the same tests.
  int headGraphBuilds() const { return headGraphBuilds_; }
  // Of those, how many took over the previous graph's resolutions (ModuleGraph::adopt).
  int headGraphAdoptions() const { return headGraphAdoptions_; }

 private:
  void refreshHeadFile(const std::string& path);
  void refreshHeadFacts(const std::string& path);  // the file's own facts, extracted or cached
  const FileRef* headRef(const std::string& path) const;

  Layout layout_;
  std::shared_ptr<ExtractCache> cache_;
  std::shared_ptr<const Snapshot> base_, disk_;
  std::shared_ptr<const Derived> baseDerived_;  // computed once per merge base
  // The head's module graph and arch index (no pairs: those are kept below), rebuilt only when
  // a file they read (Python, descriptor, manifest) changed: a C++ keystroke reuses them and
  // the graph's memoised reach closures.
  std::shared_ptr<Derived> headDerived_;
  TreeFacts headFacts_;
  std::map<std::string, FileRef> diskChanges_;  // empty id: deleted on disk
  std::map<std::string, std::string> diskNotRead_;  // id kNotReadId in diskChanges_: why
  ProducerMemo producerRuns_;  // the head's AOT producer runs: one whose reads read the same is not run again
  struct Buffer {
    FileRef ref;
    std::unique_ptr<SyntaxTree> tree;  // Python and C++ buffers
    TextChecks checks;                 // of ref.data, updated over each edit's bytes
  };
  std::map<std::string, Buffer> buffers_;
  JudgeMemo memo_;  // contracts none of whose input kinds changed are not judged again
  // The last head's facts and pairs: an edit that leaves names alone keeps the pairing.
  TreeFacts pairedFacts_;
  std::vector<KernargsPair> pairs_;
  bool pairsValid_ = false;
  int pairings_ = 0;
  int headGraphBuilds_ = 0;
  int headGraphAdoptions_ = 0;
  bool dirty_ = true;
  uint64_t generation_ = 0;
  std::shared_ptr<const AnalysisState> last_;
  std::vector<std::string> pendingPaths_, changedPaths_;
};

}  // namespace impact
