// textDocument/documentSymbol and workspace/symbol (issue 38). A builder file's outline: each
// builder with its arguments as children (kind/size, type, guard in the detail), each Python
// restatement with its entries; a C++ file's: each copy (the builder it restates, or why it is not
// paired) with its elements. Workspace symbols find kernel families by builder, pack (a copy's
// function or a generator config's pack), engine id and kernel symbol.
#include <cctype>

#include "absl/strings/str_cat.h"
#include "server/CopyViews.h"
#include "server/ImpactServer.h"
#include "server/ServerState.h"

namespace impact::server {

namespace {

enum SymbolKind { kModule = 2, kPackage = 4, kClass = 5, kField = 8, kFunction = 12, kVariable = 13, kArray = 18, kKey = 20, kEvent = 24 };

std::string argDetail(const KernelArg& a) {
  std::string d = kindSize(a);
  if (!a.typeText.empty()) absl::StrAppend(&d, " ", a.typeText);
  if (a.conditional) absl::StrAppend(&d, " if ", a.condition);
  return d;
}

DocumentSymbol argSymbol(const LineIndex& idx, const KernelArg& a, std::string name) {
  DocumentSymbol s;
  s.name = name.empty() ? "(unnamed)" : std::move(name);
  s.detail = argDetail(a);
  s.kind = kField;
  s.range = s.selection = idx.range(a.range);
  return s;
}

DocumentSymbol builderSymbol(const LineIndex& idx, const PyBuilder& b) {
  DocumentSymbol s;
  s.name = b.name;
  s.kind = kFunction;
  s.range = idx.range(b.bodyRange);
  s.selection = idx.range(b.range);
  size_t n = b.abis.empty() ? 0 : b.abis[0].args.size();
  s.detail = !b.notRead.empty() ? "arguments not read: " + b.notRead : absl::StrCat("rocKE builder, ", n, " arguments");
  if (b.abis.empty()) return s;
  for (const auto& a : b.abis[0].args) s.children.push_back(argSymbol(idx, a, a.name));
  // The other lists (an early return's, a helper's): one child each, with its arguments.
  for (size_t k = 1; k < b.abis.size(); ++k) {
    const PyAbi& abi = b.abis[k];
    DocumentSymbol g;
    g.name = abi.origin;
    g.detail = absl::StrCat(abi.args.size(), " arguments", abi.guard.empty() ? "" : " when " + abi.guard);
    g.kind = kFunction;
    g.range = g.selection = idx.range(b.range);
    for (const auto& a : abi.args) g.children.push_back(argSymbol(idx, a, a.name));
    s.children.push_back(std::move(g));
  }
  return s;
}

const char* formName(CppArgList::Form f) {
  switch (f) {
    case CppArgList::Form::Static: return "KernelArgument list";
    case CppArgList::Form::Lambda: return "add() list";
    case CppArgList::Form::Launch: return "launch";
    case CppArgList::Form::NameKeyed: return "name-keyed check";
    case CppArgList::Form::Names: return "names array";
  }
  return "list";
}

DocumentSymbol copySymbol(const LineIndex& idx, const CppArgList& l, const KernargsPair* p) {
  DocumentSymbol s;
  s.name = copyName(l);
  s.kind = kArray;
  s.range = s.selection = idx.range(l.range);
  std::optional<CopyView> v;
  if (p && p->builder) v = viewOf(*p);
  if (v) s.detail = absl::StrCat(formName(l.form), ", copy of ", p->builder->builder->name, v->agrees() ? ": agrees" : ": differs");
  else if (p) s.detail = absl::StrCat(formName(l.form), ", not paired: ", p->note);
  else s.detail = formName(l.form);
  for (size_t j = 0; j < l.args.size(); ++j) {
    const KernelArg& a = l.args[j];
    std::string name = l.form == CppArgList::Form::Launch ? std::string() : a.name;
    if (v && v->cmp.abi && v->builderOf[j] >= 0) {
      const KernelArg& b = v->cmp.abi->args[v->builderOf[j]];
      if (name.empty()) name = b.name;
      else if (l.form == CppArgList::Form::Launch) name = b.name;
    }
    if (name.empty()) name = l.form == CppArgList::Form::Launch ? a.name : absl::StrCat("#", j);
    DocumentSymbol c = argSymbol(idx, a, name);
    if (l.form == CppArgList::Form::Launch) c.detail = absl::StrCat(a.name, " (", kindSize(a), ")");
    s.children.push_back(std::move(c));
  }
  return s;
}

// Case-insensitive: every character of q in s, in order (VS Code's own filter is looser still).
bool matches(std::string_view s, std::string_view q) {
  size_t i = 0;
  for (char c : s)
    if (i < q.size() && std::tolower(static_cast<unsigned char>(c)) == std::tolower(static_cast<unsigned char>(q[i]))) ++i;
  return i == q.size();
}

}  // namespace

void ImpactServer::documentSymbols(const std::string& path, std::function<void(std::vector<DocumentSymbol>)> reply) {
  impl_->sched.post([this, path, reply = std::move(reply)] {
    Impl& I = *impl_;
    std::string r = I.rel(path);
    if (r.empty() || !I.ready) return reply({});
    auto st = I.current();
    auto text = I.content(*st, r);
    const FileFacts* f = st->headFacts.find(r);
    if (!text || !f) return reply({});
    LineIndex idx(*text);
    std::vector<DocumentSymbol> out;
    for (const auto& b : f->builders) out.push_back(builderSymbol(idx, b));
    std::map<const CppArgList*, const KernargsPair*> pairOf;
    for (const auto& p : st->headPairs)
      if (p.copy.path == r) pairOf[p.copy.list] = &p;
    // A Python restatement is a copy in a Python file: its list is the pair's.
    std::set<const CppArgList*> listed;
    for (const auto* lists : {&f->lists, &f->nameArrays})
      for (const auto& l : *lists) {
        auto it = pairOf.find(&l);
        out.push_back(copySymbol(idx, l, it == pairOf.end() ? nullptr : it->second));
        listed.insert(&l);
      }
    for (const auto& [l, p] : pairOf)
      if (!listed.count(l)) out.push_back(copySymbol(idx, *l, p));
    std::stable_sort(out.begin(), out.end(), [](const DocumentSymbol& a, const DocumentSymbol& b) {
      return std::tie(a.range.start.line, a.range.start.character) < std::tie(b.range.start.line, b.range.start.character);
    });
    reply(std::move(out));
  });
}

void ImpactServer::workspaceSymbols(const std::string& query, std::function<void(std::vector<WorkspaceSymbol>)> reply) {
  impl_->sched.post([this, query, reply = std::move(reply)] {
    Impl& I = *impl_;
    if (!I.ready) return reply({});
    auto st = I.current();
    constexpr size_t kLimit = 1000;
    std::vector<WorkspaceSymbol> out;
    auto loc = [&](const std::string& path, const SourceRange& sr) {
      auto t = I.content(*st, path);
      LineIndex idx(t ? std::string_view(*t) : std::string_view());
      return FileLoc{I.absPath(path), idx.range(sr)};
    };
    auto add = [&](const std::string& name, const std::string& container, int kind, const std::string& path,
                   const SourceRange& sr) {
      if (out.size() >= kLimit || !matches(name, query)) return;
      out.push_back({name, container, kind, loc(path, sr)});
    };
    for (const auto& [path, f] : st->headFacts.files) {
      for (const auto& b : f->builders) add(b.name, "builder · " + fileName(path), kFunction, path, b.range);
      if (f->generator)
        for (const auto& s : f->generator->sources) {
          SourceRange sr{s.line, 0, s.line, 0};
          add(s.pack, absl::StrCat("pack · builds ", s.builder, " · engine ", s.engine), kPackage, path, sr);
          if (!s.engine.empty()) add(s.engine, absl::StrCat("engine · pack ", s.pack, " · ", s.builder), kModule, path, sr);
        }
      if (f->descriptor && !f->descriptor->id.empty()) {
        std::string builders;
        for (const auto& l : f->descriptor->launches)
          if (builders.find(l.builder) == std::string::npos) absl::StrAppend(&builders, builders.empty() ? "" : ", ", l.builder);
        add(f->descriptor->id, absl::StrCat(f->descriptor->type, " · ", builders), kModule, path, SourceRange{});
      }
      for (const auto& l : f->lists)
        if (l.catalog) add(l.catalog->symbol, "kernel symbol · " + l.catalog->family, kEvent, path, l.range);
    }
    // The packs and pins: each paired copy by its function, in the family of its builder.
    std::set<std::string> seen;
    for (const auto& p : st->headPairs) {
      if (!p.builder || p.copy.list->catalog) continue;
      std::string name = copyName(*p.copy.list);
      if (!seen.insert(p.copy.path + "|" + name).second) continue;
      add(name, absl::StrCat("copy of ", p.builder->builder->name, " · ", fileName(p.copy.path)), kArray, p.copy.path,
          p.copy.list->range);
    }
    reply(std::move(out));
  });
}

}  // namespace impact::server
