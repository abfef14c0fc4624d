// textDocument/prepareRename and textDocument/rename (issue 38): a kernel argument's name renamed
// at its b.param (or at a copy that states it) in every copy that states that argument's name —
// KernelArgument names, add() names, name-keyed checks, Python restatements and dict keys, JSON
// descriptor and catalog entries — as one edit over open and unopened files. Only the string
// literal of each paired copy's element that states the name is rewritten: a same-spelled string
// elsewhere (a KDP spec field, a dataclass field, a docstring) is never a site. Where a site
// cannot be proven (a name that is not a literal, a list stating the name that pairs with no
// builder, a launch, which states no names), prepareRename refuses and says why.
#include <cctype>

#include "absl/strings/str_cat.h"
#include "server/CopyViews.h"
#include "server/ImpactServer.h"
#include "server/ServerState.h"

namespace impact::server {

namespace {

struct Site {
  std::string path;  // repository-relative
  SourceRange name;  // the literal's characters, quotes excluded
};

struct Plan {
  std::string oldName;
  std::vector<Site> sites;
  std::optional<Site> atCursor;
  std::string refusal;
};

size_t byteOf(const LineIndex& idx, uint32_t line, uint32_t col) {
  const auto& s = idx.starts();
  return line < s.size() ? s[line] + col : s.empty() ? 0 : s.back();
}

// The JSON string tokens of text[from, to) whose decoded value is `name` (no escapes read: a name
// with an escape in it is not found, and the site is then refused).
std::vector<std::pair<size_t, size_t>> jsonStrings(const std::string& text, size_t from, size_t to, const std::string& name) {
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t i = from; i < to && i < text.size(); ++i) {
    if (text[i] != '"') continue;
    size_t j = i + 1;
    bool escaped = false;
    while (j < text.size() && text[j] != '"') {
      if (text[j] == '\\') {
        escaped = true;
        ++j;
      }
      ++j;
    }
    if (!escaped && text.compare(i + 1, j - i - 1, name) == 0 && j - i - 1 == name.size()) out.emplace_back(i + 1, j);
    i = j;
  }
  return out;
}

// The string literals of a Python or C++ file within [from, to) whose whole content is `name`:
// the byte range of each content. A literal of several parts (an escape, an f-string's
// interpolation) is never one.
std::vector<std::pair<size_t, size_t>> codeStrings(const SyntaxTree& t, size_t from, size_t to, const std::string& name) {
  std::vector<std::pair<size_t, size_t>> out;
  walk(t.root(), [&](TSNode n) {
    if (ts_node_end_byte(n) <= from || ts_node_start_byte(n) >= to) return false;
    std::string_view ty = type(n);
    if (ty != "string" && ty != "string_literal" && ty != "raw_string_literal") return true;
    std::vector<TSNode> parts;
    for (TSNode c : children(n))
      if (!is(c, "string_start") && !is(c, "string_end") && !is(c, "\"") && !is(c, "'")) parts.push_back(c);
    if (parts.size() == 1 && (is(parts[0], "string_content") || is(parts[0], "raw_string_content")) &&
        t.text(parts[0]) == name)
      out.emplace_back(ts_node_start_byte(parts[0]), ts_node_end_byte(parts[0]));
    return false;
  });
  return out;
}

class Planner {
 public:
  Planner(ImpactServer::Impl& I, const AnalysisState& st) : I_(I), st_(st) {}

  // The literal stating `name` within element range `r` of `path`; refuses when there is not
  // exactly one.
  std::optional<Site> siteIn(const std::string& path, const SourceRange& r, const std::string& name, const std::string& what,
                             std::string& refusal) {
    auto text = I_.content(st_, path);
    if (!text) {
      refusal = absl::StrCat(path, " cannot be read");
      return std::nullopt;
    }
    LineIndex idx(*text);
    size_t from = byteOf(idx, r.line, r.col), to = byteOf(idx, r.endLine, r.endCol);
    std::vector<std::pair<size_t, size_t>> found;
    FileKind k = classify(path);
    if (k == FileKind::Python || k == FileKind::Cpp) {
      const SyntaxTree& t = tree(path, *text, k == FileKind::Python ? Lang::Python : Lang::Cpp);
      found = codeStrings(t, from, to, name);
    } else {
      found = jsonStrings(*text, from, to, name);
    }
    std::string at = absl::StrCat(fileName(path), ":", r.line + 1, " (", what, ")");
    if (found.size() != 1) {
      refusal = found.empty() ? absl::StrCat(at, " states ", name, " but not as one string literal: impactd cannot rewrite it")
                              : absl::StrCat(at, " has ", found.size(), " literals \"", name, "\": which one is the name is not known");
      return std::nullopt;
    }
    TSPoint a = idx.point(found[0].first), b = idx.point(found[0].second);
    return Site{path, SourceRange{a.row, a.column, b.row, b.column}};
  }

  Plan plan(const ArgCopies& a, const std::string& cursorPath, const SourceRange& cursor) {
    Plan p;
    const std::string& name = a.builder.arg.name;
    p.oldName = name;
    const PyBuilder* b = nullptr;
    if (const FileFacts* f = st_.headFacts.find(a.builder.path))
      for (const auto& x : f->builders)
        if (x.name == a.builder.owner) b = &x;
    if (name.empty()) return refuse(p, "the builder's argument has no name");
    if (!b) return refuse(p, "the builder " + a.builder.owner + " is not found");
    if (!b->notRead.empty()) return refuse(p, "the arguments of " + b->name + " are not read: " + b->notRead);
    for (const auto& c : a.builder.arg.choices)
      if (!c.name.empty()) return refuse(p, "the name of this argument is chosen by a condition");
    if (!b->readThrough.empty())
      return refuse(p, absl::StrCat("the lists of ", b->name, " are read through ", b->readThrough.size(),
                                    " other module(s) (", b->readThrough[0], "): which file states the name is not proven"));
    // The builder's side: every b.param of its lists stating the name (an early return's list too).
    // A b.param that another builder of the module also declares (a shared helper's) renames that
    // builder's argument too: its copies join.
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (const auto& abi : b->abis)
      for (const auto& arg : abi.args) {
        if (arg.name != name || !seen.insert({arg.range.line, arg.range.col}).second) continue;
        if (!add(p, a.builder.path, arg.range, "b.param of " + b->name)) return p;
      }
    std::set<const PyBuilder*> builders{b};
    if (const FileFacts* f = st_.headFacts.find(a.builder.path))
      for (const auto& other : f->builders)
        for (const auto& abi : other.abis)
          for (const auto& arg : abi.args)
            if (arg.name == name && seen.count({arg.range.line, arg.range.col})) builders.insert(&other);
    // The copies: every element of a paired copy that states the name.
    for (const auto& q : st_.headPairs) {
      if (!q.builder || !builders.count(q.builder->builder) || q.builder->path != a.builder.path) continue;
      const CppArgList& l = *q.copy.list;
      if (l.form == CppArgList::Form::Launch) continue;  // a launch states values, never names
      for (const auto& e : l.args)
        if (e.name == name && !add(p, q.copy.path, e.range, copyName(l))) return p;
    }
    // A list that states the name and pairs with no builder may be a copy impactd did not pair:
    // every occurrence is not proven.
    std::set<const CppArgList*> paired;
    for (const auto& q : st_.headPairs)
      if (q.builder) paired.insert(q.copy.list);
    for (const auto& [path, f] : st_.headFacts.files)
      for (const auto& l : f->lists) {
        if (paired.count(&l) || l.form == CppArgList::Form::Launch) continue;
        for (const auto& e : l.args)
          if (e.name == name)
            return refuse(p, absl::StrCat(fileName(path), ":", l.range.line + 1, " ", copyName(l), " states ", name,
                                          " and pairs with no builder: impactd cannot tell whether it is a copy"));
      }
    for (const auto& s : p.sites)
      if (s.path == cursorPath && s.name.line >= cursor.line && s.name.endLine <= cursor.endLine &&
          (s.name.line > cursor.line || s.name.col >= cursor.col) &&
          (s.name.endLine < cursor.endLine || s.name.endCol <= cursor.endCol))
        p.atCursor = s;
    if (!p.atCursor)
      return refuse(p, absl::StrCat("this value does not state the name ", name, ": rename it at the b.param in ",
                                    fileName(a.builder.path), ":", a.builder.range.line + 1));
    return p;
  }

 private:
  Plan& refuse(Plan& p, std::string why) {
    p.refusal = std::move(why);
    p.sites.clear();
    return p;
  }
  bool add(Plan& p, const std::string& path, const SourceRange& r, const std::string& what) {
    std::string why;
    auto s = siteIn(path, r, p.oldName, what, why);
    if (!s) {
      refuse(p, why);
      return false;
    }
    p.sites.push_back(*s);
    return true;
  }
  const SyntaxTree& tree(const std::string& path, const std::string& text, Lang lang) {
    auto& t = trees_[path];
    if (!t) t = SyntaxTree::parse(lang, text);
    return *t;
  }

  ImpactServer::Impl& I_;
  const AnalysisState& st_;
  std::map<std::string, std::unique_ptr<SyntaxTree>> trees_;
};

bool validName(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// The plan for the argument at a position, or a refusal.
Plan planAt(ImpactServer::Impl& I, const AnalysisState& st, const std::string& r, Pos pos) {
  Plan p;
  auto text = I.content(st, r);
  if (!text) {
    p.refusal = "the file is not in the workspace's tree";
    return p;
  }
  LineIndex idx(*text);
  TSPoint pt = idx.point(idx.offset(pos));
  auto a = argumentAt(st, r, pt.row, pt.column);
  if (!a) {
    p.refusal = "no kernel argument here: rename a kernel argument at its b.param or at a copy stating its name";
    return p;
  }
  Planner planner(I, st);
  return planner.plan(*a, r, a->at);
}

}  // namespace

void ImpactServer::prepareRename(const std::string& path, Pos pos, std::function<void(RenameTarget)> reply) {
  impl_->sched.post([this, path, pos, reply = std::move(reply)] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    if (r.empty() || !I.ready) return reply({{}, "", "impactd has not read this file"});
    auto st = I.current();
    Plan p = planAt(I, *st, r, pos);
    if (!p.refusal.empty()) return reply({{}, "", p.refusal});
    auto text = I.content(*st, r);
    LineIndex idx(*text);
    reply({idx.range(p.atCursor->name), p.oldName, ""});
  });
}

void ImpactServer::rename(const std::string& path, Pos pos, const std::string& newName,
                          std::function<void(RenameResult)> reply) {
  impl_->sched.post([this, path, pos, newName, reply = std::move(reply)] {
    Impl& I = *impl_;
    RenameResult out;
    std::string r = I.rel(path);
    if (r.empty() || !I.ready) {
      out.refusal = "impactd has not read this file";
      return reply(std::move(out));
    }
    if (!validName(newName)) {
      out.refusal = "\"" + newName + "\" is not a kernel argument name (letters, digits and _, not starting with a digit)";
      return reply(std::move(out));
    }
    auto st = I.current();
    Plan p = planAt(I, *st, r, pos);
    if (!p.refusal.empty()) {
      out.refusal = p.refusal;
      return reply(std::move(out));
    }
    for (const auto& s : p.sites) {
      auto text = I.content(*st, s.path);
      LineIndex idx(*text);
      out.edits[I.absPath(s.path)].push_back({idx.range(s.name), newName});
    }
    reply(std::move(out));
  });
}

}  // namespace impact::server
