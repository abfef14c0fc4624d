// SPEC R2.8, R2.9: build, dependency and CI test-category files; flatc-generated headers; the
// plugin SDK headers in the include closure of the ingestor SDK headers.
//
//  - CMakeLists.txt, *.cmake, *.cmake.in, CI files (.github/** that name the ingestor,
//    *test_categories*) -> contract "build", label BUILD, status changed, no archs: left to the
//    BUILD lane, never a device run.
//  - requirements*.txt, pyproject.toml -> contract "build", label DEPS.
//  - flatc schemas (*.fbs) and flatc_flags.txt are build input: BUILD.
//  - *_generated.h: regenerated (label BUILD) only when its own schema (<stem>.fbs in the same
//    folder; foo_generated.h <- foo.fbs) or the folder's flatc_flags.txt changed too; otherwise a
//    code change is a hand edit of a surface file (changed, every arch) and a comment-only edit is
//    inert.
//  - SDK headers: projects/hipdnn/plugin_sdk/include/hipdnn_plugin_sdk/ingestor/*.hpp and every
//    header their includes reach (resolved beside the includer, then from the include root): a
//    code change is changed (every arch), a comment-only edit inert, an unreadable file changed.
#include <deque>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "judge/Contracts.h"

namespace impact {

namespace {

constexpr const char* kSdkIncludeRoot = "projects/hipdnn/plugin_sdk/include/";
constexpr const char* kSdkIngestorDir = "projects/hipdnn/plugin_sdk/include/hipdnn_plugin_sdk/ingestor/";

std::string dirOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string baseName(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string join(const std::string& dir, const std::string& rel) { return dir.empty() ? rel : dir + "/" + rel; }

// "a/b/../c/./d" -> "a/c/d"; "" when it climbs above the root.
std::string normalise(const std::string& path) {
  std::vector<std::string> parts;
  size_t from = 0;
  while (from <= path.size()) {
    size_t at = path.find('/', from);
    std::string p = path.substr(from, at == std::string::npos ? std::string::npos : at - from);
    if (p == "..") {
      if (parts.empty()) return "";
      parts.pop_back();
    } else if (!p.empty() && p != ".") {
      parts.push_back(p);
    }
    if (at == std::string::npos) break;
    from = at + 1;
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

// "" | "BUILD" | "DEPS" by the file's name.
std::string laneOf(const std::string& path) {
  std::string name = baseName(path);
  if ((name.starts_with("requirements") && name.ends_with(".txt")) || name == "pyproject.toml") return "DEPS";
  if (name == "CMakeLists.txt" || name.ends_with(".cmake") || name.ends_with(".cmake.in") ||
      name.find("test_categories") != std::string::npos || name.ends_with(".fbs") || name == "flatc_flags.txt" ||
      path.starts_with(".github/"))
    return "BUILD";
  return "";
}

// The include closure of the ingestor SDK headers in one revision.
std::set<std::string> sdkClosure(const TreeFacts& facts) {
  std::set<std::string> seen;
  std::deque<std::string> todo;
  for (const auto& [path, f] : facts.files)
    if (path.starts_with(kSdkIngestorDir) && path.ends_with(".hpp") &&
        path.find('/', std::string(kSdkIngestorDir).size()) == std::string::npos) {
      seen.insert(path);
      todo.push_back(path);
    }
  while (!todo.empty()) {
    std::string p = todo.front();
    todo.pop_front();
    const FileFacts* f = facts.find(p);
    if (!f) continue;
    for (const auto& inc : f->symbols.includes) {
      for (const std::string& cand : {normalise(join(dirOf(p), inc)), normalise(std::string(kSdkIncludeRoot) + inc)}) {
        if (cand.empty() || !facts.find(cand)) continue;
        if (seen.insert(cand).second) todo.push_back(cand);
        break;
      }
    }
  }
  return seen;
}

}  // namespace

ContractRows judgeBuildFiles(const JudgeContext& cx) {
  const Revision& base = cx.base;
  const Revision& head = cx.head;
  ContractRows out;
  std::set<std::string> paths;
  for (const auto& [p, _] : head.facts.files) paths.insert(p);
  for (const auto& [p, _] : base.facts.files) paths.insert(p);
  std::set<std::string> sdk = sdkClosure(head.facts);
  for (const auto& p : sdkClosure(base.facts)) sdk.insert(p);

  for (const auto& path : paths) {
    if (!touched(base, head, path)) continue;
    const FileFacts* hf = head.facts.find(path);
    const FileFacts* bf = base.facts.find(path);
    const std::string what = !hf ? "removed" : !bf ? "added" : "changed";
    Row r;
    r.mirror = {path, 0, "", {}, {}};

    if (std::string lane = laneOf(path); !lane.empty()) {
      r.contract = "build";
      r.status = Status::Changed;
      r.label = lane;
      r.key = "build|" + path;
      r.message = absl::StrCat(lane == "DEPS" ? "dependency file " : "build file ", what, "; left to the ", lane,
                               " lane");
      out.explained.insert(path);
      out.covered.insert(path);
      out.rows.push_back(std::move(r));
      continue;
    }

    const FileFacts* any = hf ? hf : bf;
    if (any->kind != FileKind::Cpp) continue;
    const bool generated = path.ends_with("_generated.h");
    const bool inSdk = sdk.count(path) > 0;
    if (!generated && !inSdk) continue;

    r.key = (generated ? "generated-header|" : "sdk-header|") + path;
    r.contract = generated ? "generated-header" : "sdk-header";
    if (generated) {
      std::string name = baseName(path);
      std::string schema = join(dirOf(path), name.substr(0, name.size() - std::string("_generated.h").size()) + ".fbs");
      std::string flags = join(dirOf(path), "flatc_flags.txt");
      std::vector<std::string> with;
      for (const auto& s : {schema, flags})
        if (touched(base, head, s)) with.push_back(baseName(s));
      if (!with.empty()) {
        r.status = Status::Changed;
        r.label = "BUILD";
        r.message = absl::StrCat("regenerated beside ", with[0], with.size() > 1 ? " and " + with[1] : "",
                                 "; left to the BUILD lane");
        out.explained.insert(path);
        out.covered.insert(path);
        out.rows.push_back(std::move(r));
        continue;
      }
    }
    std::string surface = generated ? "generated header" : "plugin SDK header";
    if (!hf || !bf) {
      r.status = Status::Changed;
      r.message = absl::StrCat(surface, " ", what);
    } else if (!hf->ok) {
      r.status = Status::Changed;
      r.message = absl::StrCat(surface, " could not be read: ", hf->error);
    } else if (hf->fingerprint != bf->fingerprint) {
      r.status = Status::Changed;
      r.message = generated ? absl::StrCat("generated header changed in code without its schema (",
                                           baseName(path).substr(0, baseName(path).size() - 12),
                                           ".fbs) or flatc_flags.txt: a hand edit on the surface")
                            : "plugin SDK header the ingestor compiles in changed in code";
    } else {
      r.status = Status::Inert;
      r.message = "only comments or whitespace changed";
    }
    if (r.status != Status::Inert) out.explained.insert(path);
    out.covered.insert(path);
    out.rows.push_back(std::move(r));
  }
  return out;
}

}  // namespace impact
