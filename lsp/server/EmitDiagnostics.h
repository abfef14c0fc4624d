// What the emit document adds to the live diagnostics (SPEC R6.6): a Warning on the builder of
// each family whose head side failed or timed out (the reason: the child's last lines, trimmed),
// the Pack-time findings (R5) as Warnings on the predicate (`supports_<op>`) with the spec that
// exposes them (pre-existing ones as Information), and, when the client asks for them, a Hint on
// each row the fold turned inert. The fold itself is core/emit/Fold, applied here to the head the
// server judged when the document was made for its trees.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/TreeFacts.h"
#include "analysis/Workspace.h"
#include "emit/EmitDocument.h"
#include "model/Report.h"
#include "server/Diagnostics.h"

namespace impact::server {

// The last lines of a child's error output, at most ~300 characters, on one line.
std::string trimReason(const std::string& error);

// The server's rows folded with the document, when it was made for the state's base and head
// (the working tree with the open buffers overlaid); applies false (rows empty) otherwise.
struct FoldedState {
  bool applies = false;
  std::vector<Row> rows;
  std::vector<const Row*> folded;  // into rows: the rows the fold turned inert
};
// Whether the document was made for the state's trees. The whole working tree is hashed (its tree
// key) only once per document and disk snapshot; after a match, the files that differ from the disk
// snapshot (open buffers, re-read files) decide: the same set is the same tree, another is not.
// So a keystroke costs a walk over the few overrides, never over the tree.
class EmitMatch {
 public:
  bool applies(const AnalysisState& st, const emit::EmitDocument& doc);

 private:
  std::string docKey_;                    // the document's base and head tree keys
  std::weak_ptr<const Snapshot> disk_;
  bool checked_ = false, matched_ = false;
  std::map<std::string, std::string> changes_;  // path -> id ("" deleted) at the match
};

// The analysed head's files that differ from the disk snapshot (open buffers, re-read files):
// path -> blob id, "" for a deleted one.
std::map<std::string, std::string> changesFromDisk(const AnalysisState& st);

FoldedState foldState(const AnalysisState& st, const emit::EmitDocument& doc, EmitMatch& match);

void addEmitDiagnostics(const emit::EmitDocument& doc, const TreeFacts& head, const std::vector<const Row*>& folded,
                        bool hints, std::map<std::string, std::vector<FileDiag>>& out);

}  // namespace impact::server
