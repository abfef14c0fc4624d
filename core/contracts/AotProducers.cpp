#include "contracts/AotProducers.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "extract/python/DeclEval.h"
#include "parse/Syntax.h"

namespace impact {

namespace {

using pyextract::AV;
using K = AV::K;

constexpr size_t kMaxLoaded = 64;  // modules one producer run may read

std::string folderOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// A spec field's value as the facts' spec maps write it ("true", "8", "bf16", "null").
bool specText(const AV& v, std::string& out) {
  switch (v.k) {
    case K::Bool: out = v.i ? "true" : "false"; return true;
    case K::Int: out = std::to_string(v.i); return true;
    case K::Str: out = v.s; return true;
    case K::None: out = "null"; return true;
    default: return false;
  }
}

// A value the producer passed, as typed JSON for the emitter's driver (a tuple as {"$tuple": [...]},
// `spec` as {"$spec": true}); false with `why` when the reading does not know it.
bool asJson(const AV& v, const void* spec, nlohmann::json& out, std::string& why, int depth = 0) {
  switch (v.k) {
    case K::Bool: out = bool(v.i); return true;
    case K::Int: out = v.i; return true;
    case K::Str: out = v.s; return true;
    case K::None: out = nullptr; return true;
    case K::List:
    case K::Tuple: {
      if (depth > 4 || !v.items) break;
      nlohmann::json items = nlohmann::json::array();
      for (const AV& e : *v.items) {
        nlohmann::json j;
        if (!asJson(e, spec, j, why, depth + 1)) return false;
        items.push_back(std::move(j));
      }
      out = v.k == K::Tuple ? nlohmann::json{{"$tuple", std::move(items)}} : std::move(items);
      return true;
    }
    case K::Instance:
      if (spec && v.closure.get() == spec) {
        out = {{"$spec", true}};
        return true;
      }
      why = "an object of " + v.s;
      return false;
    default: break;
  }
  why = v.k == K::Unknown && !v.s.empty() ? v.s : "a value the reading does not know";
  return false;
}

// A builder that declares arguments (a method such as `Spec.kernel_name` may be read as a builder
// of no argument: it is run, not watched).
bool declares(const PyBuilder& b) {
  return !b.notRead.empty() || std::any_of(b.abis.begin(), b.abis.end(), [](const PyAbi& a) { return !a.args.empty(); });
}

// The catalog entries a value holds: a dict with a string "symbol" (an entry), or a dict, list or
// tuple holding them (a family.json document, its "kernels" list), a few levels deep.
void collectEntries(const AV& v, std::vector<AotWritten>& out, int depth = 0) {
  if (depth > 4 || !v.items) return;
  if (v.k == K::Dict) {
    const auto& it = *v.items;
    for (size_t i = 0; i + 1 < it.size(); i += 2)
      if (it[i].k == K::Str && it[i].s == "symbol" && it[i + 1].k == K::Str) {
        if (std::none_of(out.begin(), out.end(), [&](const AotWritten& w) { return w.symbol == it[i + 1].s; }))
          out.push_back(AotWritten{it[i + 1].s, it[i + 1].at});
        return;
      }
    for (size_t i = 1; i < it.size(); i += 2) collectEntries(it[i], out, depth + 1);
  } else if (v.k == K::List || v.k == K::Tuple) {
    for (const AV& e : *v.items) collectEntries(e, out, depth + 1);
  }
}

// The spec and the call as the emitter builds them again (AotProduced::specJson, callJson), or why not.
void describeBuild(AotProduced& k, const AV* spec, const std::vector<AV>& pos, const pyextract::CallTrace::Kw& kw,
                   const std::map<std::string, std::string>& pathOf) {
  const void* obj = spec ? spec->closure.get() : nullptr;
  nlohmann::json call = {{"args", nlohmann::json::array()}, {"kwargs", nlohmann::json::object()}};
  std::string why;
  for (size_t i = 0; i < pos.size(); ++i) {
    nlohmann::json j;
    if (!asJson(pos[i], obj, j, why)) {
      k.notRun = absl::StrCat("the builder's argument #", i + 1, " is not known to the reading: ", why);
      return;
    }
    call["args"].push_back(std::move(j));
  }
  for (const auto& [name, v] : kw) {
    nlohmann::json j;
    if (!asJson(v, obj, j, why)) {
      k.notRun = absl::StrCat("the builder's argument ", name, "= is not known to the reading: ", why);
      return;
    }
    call["kwargs"][name] = std::move(j);
  }
  k.callJson = call.dump();
  if (!spec) return;  // a builder called without a spec object: its call is all there is
  auto module = spec->mod ? pathOf.find(spec->mod->dotted) : pathOf.end();
  if (module == pathOf.end() || module->first.empty()) {
    k.notRun = absl::StrCat("the spec class ", spec->s, " is not defined in a module of the import roots");
    return;
  }
  k.specModule = module->second;
  nlohmann::json fields = nlohmann::json::object();
  for (const auto& [field, v] : *spec->closure) {
    nlohmann::json j;
    if (!asJson(v, nullptr, j, why)) {
      k.notRun = absl::StrCat("the spec field ", field, " is not known to the reading: ", why);
      return;
    }
    fields[field] = std::move(j);
  }
  k.specJson = fields.dump();
}

}  // namespace

namespace {

// ----- the runs kept on disk (ProducerMemo::diskDir) -----
using nlohmann::json;

json rangeJson(const SourceRange& r) { return json::array({r.line, r.col, r.endLine, r.endCol}); }
SourceRange rangeOf(const json& j) {
  return {j.at(0).get<uint32_t>(), j.at(1).get<uint32_t>(), j.at(2).get<uint32_t>(), j.at(3).get<uint32_t>()};
}

json producerJson(const AotProducer& p) {
  json kernels = json::array(), written = json::array();
  for (const AotProduced& k : p.kernels)
    kernels.push_back({{"names", k.names}, {"builderPath", k.builderPath}, {"builderName", k.builderName},
                       {"specClass", k.specClass}, {"spec", k.spec}, {"at", rangeJson(k.at)}, {"specJson", k.specJson},
                       {"specModule", k.specModule}, {"callJson", k.callJson}, {"notRun", k.notRun}});
  for (const AotWritten& w : p.written) written.push_back({{"symbol", w.symbol}, {"at", rangeJson(w.at)}});
  return {{"path", p.path}, {"kernels", kernels}, {"written", written}, {"notRead", p.notRead},
          {"readThrough", p.readThrough}};
}

AotProducer producerOf(const json& j) {  // throws on a malformed entry
  AotProducer p;
  p.path = j.at("path").get<std::string>();
  for (const json& k : j.at("kernels")) {
    AotProduced a;
    a.names = k.at("names").get<std::vector<std::string>>();
    a.builderPath = k.at("builderPath").get<std::string>();
    a.builderName = k.at("builderName").get<std::string>();
    a.specClass = k.at("specClass").get<std::string>();
    a.spec = k.at("spec").get<std::map<std::string, std::string>>();
    a.at = rangeOf(k.at("at"));
    a.specJson = k.at("specJson").get<std::string>();
    a.specModule = k.at("specModule").get<std::string>();
    a.callJson = k.at("callJson").get<std::string>();
    a.notRun = k.at("notRun").get<std::string>();
    p.kernels.push_back(std::move(a));
  }
  for (const json& w : j.at("written")) p.written.push_back({w.at("symbol").get<std::string>(), rangeOf(w.at("at"))});
  p.notRead = j.at("notRead").get<std::string>();
  p.readThrough = j.at("readThrough").get<std::vector<std::string>>();
  return p;
}

std::string diskFile(const std::string& dir, const std::string& path) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : path) h = (h ^ c) * 1099511628211ull;
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.json", static_cast<unsigned long long>(h));
  return dir + "/producers/" + name;
}

// The runs of `path` kept on disk (a file that does not read is none: the producers run again).
std::vector<ProducerMemo::Entry> loadRuns(const std::string& dir, const std::string& path) {
  std::vector<ProducerMemo::Entry> out;
  std::ifstream in(diskFile(dir, path), std::ios::binary);
  if (!in) return out;
  std::stringstream ss;
  ss << in.rdbuf();
  json j = json::parse(ss.str(), nullptr, false);
  if (!j.is_object() || j.value("path", "") != path || !j.contains("runs") || !j["runs"].is_array()) return out;
  try {
    for (const json& r : j["runs"]) {
      ProducerMemo::Entry e;
      e.ids = r.at("ids").get<std::map<std::string, std::string>>();
      if (!r.at("producer").is_null()) e.producer = std::make_shared<const AotProducer>(producerOf(r.at("producer")));
      out.push_back(std::move(e));
    }
  } catch (const std::exception&) {
    return {};
  }
  return out;
}

void saveRuns(const std::string& dir, const std::string& path, const std::vector<ProducerMemo::Entry>& runs) {
  json list = json::array();
  for (const auto& e : runs) list.push_back({{"ids", e.ids}, {"producer", e.producer ? producerJson(*e.producer) : json()}});
  std::string file = diskFile(dir, path);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file).parent_path(), ec);
  std::string tmp = file + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << json{{"path", path}, {"runs", list}}.dump();
    if (!out) return;
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace

std::string aotFamilyFolder(const std::string& catalogPath) {
  if (!catalogPath.ends_with("/family.json")) return "";
  bool family = catalogPath.find("/aot_catalog/") != std::string::npos ||
                catalogPath.find("/aot_catalog_engine/library/") != std::string::npos;
  return family ? folderOf(catalogPath) : "";
}

std::string aotProducerArch(const TreeFacts& facts, const std::string& producerPath,
                            const std::vector<std::string>& names) {
  const FileFacts* f = facts.find(folderOf(producerPath) + "family.json");
  if (!f) return "";
  std::string first;
  for (const auto& l : f->lists) {
    if (!l.catalog || l.catalog->arch.empty()) continue;
    if (first.empty()) first = l.catalog->arch;
    if (std::find(names.begin(), names.end(), l.catalog->symbol) != names.end()) return l.catalog->arch;
  }
  return first;
}

std::optional<AotProducer> runProducer(const TreeFacts& facts, const Layout& layout, const std::string& path,
                                       const std::string& source, const TreeReader& read,
                                       std::vector<std::string>* tried) {
  AotProducer out;
  out.path = path;
  auto tree = SyntaxTree::parse(Lang::Python, source);
  const std::string folder = folderOf(path);
  std::map<std::string, std::unique_ptr<SyntaxTree>> loaded;
  std::map<std::string, std::string> pathOf{{"", path}};
  pyextract::ModuleLoader loader = [&](const std::string& d) -> const SyntaxTree* {
    if (auto it = loaded.find(d); it != loaded.end()) return it->second.get();
    if (loaded.size() >= kMaxLoaded) return nullptr;
    auto& slot = loaded[d];
    std::vector<std::string> roots = layout.importRoots;
    roots.push_back(folder.substr(0, folder.size() - 1));  // the producer's own folder (sibling imports)
    for (const std::string& root : roots) {
      std::string p = root + "/" + pyextract::modulePathOf(d);
      if (tried) tried->push_back(p);
      if (auto text = read(p)) {
        slot = SyntaxTree::parse(Lang::Python, std::move(*text));
        pathOf[d] = p;
        break;
      }
    }
    return slot.get();
  };
  pyextract::DeclEval eval(*tree, loader, "");
  // A script with `main()` is run from it; one without (a generator writing several families from
  // its `if __name__ == "__main__":` block) has each of its module-level functions run, for the
  // entries they build.
  std::vector<std::string> entryPoints;
  if (eval.module().fns.count("main")) entryPoints.push_back("main");
  else
    for (const auto& [name, _] : eval.module().fns)
      if (name.find('.') == std::string::npos) entryPoints.push_back(name);
  if (entryPoints.empty()) return std::nullopt;

  // The builder a called function is: a `b.param` builder of the tree, by its module's facts.
  auto builderOf = [&](const AV& fn, std::string& module) -> const PyBuilder* {
    if (fn.k != K::Func || !fn.mod) return nullptr;
    auto it = pathOf.find(fn.mod->dotted);
    if (it == pathOf.end()) return nullptr;
    const FileFacts* ff = facts.find(it->second);
    if (!ff) return nullptr;
    for (const PyBuilder& b : ff->builders)
      if (b.name == fn.s && b.style == PyBuilder::Style::Params && declares(b)) {
        module = it->second;
        return &b;
      }
    return nullptr;
  };
  struct Call {
    AotProduced k;
    std::vector<const void*> objects;  // the objects it was given (their attributes' identity)
  };
  std::vector<Call> calls;
  std::map<const void*, std::vector<std::string>> strings;  // object -> strings its methods returned
  pyextract::CallTrace watch;
  // A builder's call is recorded, not run; so is what another module runs on the kernel it
  // returned (the producer's compile: `compile_kernel(kernel, arch=ARCH)`), which builds nothing
  // more and, read through the tree's rocke/helpers/compile.py, would stop the run at its limits.
  // The producer's own functions run whatever they are given (a helper naming the kernel).
  watch.skip = [&](const AV& fn, const std::vector<AV>& pos, const pyextract::CallTrace::Kw& kw) {
    std::string module;
    if (builderOf(fn, module)) return true;
    if (fn.k == K::Func && (!fn.mod || fn.mod->dotted.empty())) return false;
    auto built = [](const AV& a) { return a.k == K::Unknown && a.lib; };
    return std::any_of(pos.begin(), pos.end(), built) ||
           std::any_of(kw.begin(), kw.end(), [&](const auto& p) { return built(p.second); });
  };
  watch.seen = [&](const AV& fn, const std::vector<AV>& pos, const pyextract::CallTrace::Kw& kw, const AV& value,
                   SourceRange at) {
    // A string a method of an object computed, or a call given the object (`spec.kernel_name()`,
    // `geom.kernel_name(spec)`): a name of the kernels built from that object.
    collectEntries(value, out.written);
    if (value.k == K::Str) {
      std::vector<const AV*> objects;
      if (fn.self && fn.self->k == K::Instance && fn.self->closure) objects.push_back(fn.self.get());
      for (const AV& a : pos) objects.push_back(&a);
      for (const auto& [_, a] : kw) objects.push_back(&a);
      for (const AV* o : objects) {
        if (o->k != K::Instance || !o->closure) continue;
        auto& v = strings[o->closure.get()];
        if (std::find(v.begin(), v.end(), value.s) == v.end()) v.push_back(value.s);
      }
    }
    std::string module;
    const PyBuilder* b = builderOf(fn, module);
    if (!b) return;
    Call c;
    c.k.builderPath = module;
    c.k.builderName = b->name;
    c.k.at = at;
    std::vector<const AV*> args;
    for (const AV& a : pos) args.push_back(&a);
    for (const auto& [_, a] : kw) args.push_back(&a);
    const AV* specObj = nullptr;
    for (const AV* a : args) {
      if (a->k == K::Str) c.k.names.push_back(a->s);
      if (a->k == K::Instance && a->closure) c.objects.push_back(a->closure.get());
      if (a->k == K::Instance && a->closure && c.objects.size() == 1) {
        specObj = a;
        c.k.specClass = a->s;
        for (const auto& [field, v] : *a->closure)
          if (std::string t; specText(v, t)) c.k.spec[field] = t;
      }
    }
    describeBuild(c.k, specObj, pos, kw, pathOf);
    calls.push_back(std::move(c));
  };
  pyextract::CallResult r;
  for (const std::string& fn : entryPoints) {
    r = eval.trace(fn, watch);
    collectEntries(r.value, out.written);
    if (entryPoints.size() == 1) break;
  }
  for (Call& c : calls) {
    std::vector<std::string> computed;
    for (const void* o : c.objects)
      if (auto it = strings.find(o); it != strings.end())
        for (const std::string& n : it->second)
          if (std::find(computed.begin(), computed.end(), n) == computed.end()) computed.push_back(n);
    c.k.names.insert(c.k.names.begin(), computed.begin(), computed.end());
    out.kernels.push_back(std::move(c.k));
  }
  if (out.kernels.empty() && !out.written.empty()) {
    // A generator: it writes catalog entries and builds none.
  } else if (entryPoints.front() != "main") {
    return std::nullopt;  // neither a producer nor a generator
  } else if (out.kernels.empty())
    out.notRead = r.why.empty() ? "its main() calls no builder of the tree" : "main(): " + r.why;
  for (const auto& [d, p] : pathOf)
    if (!d.empty()) out.readThrough.push_back(p);
  return out;
}

void readProducers(TreeFacts& facts, const Layout& layout, const TreeReader& read, const TreeIds& ids,
                   ProducerMemo* memo) {
  facts.producers.clear();
  std::set<std::string> folders;
  // Each family folder, and the arch folder above it (where the generators that write several
  // families' family.json sit: `aot_catalog/gfx950/gen_followon_family_json.py`).
  for (const auto& [path, f] : facts.files)
    if (std::string folder = aotFamilyFolder(path); !folder.empty()) {
      folders.insert(folder);
      folders.insert(folderOf(folder.substr(0, folder.size() - 1)));
    }
  for (const std::string& folder : folders) {
    for (auto it = facts.files.lower_bound(folder); it != facts.files.end() && it->first.starts_with(folder); ++it) {
      const std::string& path = it->first;
      if (!path.ends_with(".py") || path.find('/', folder.size()) != std::string::npos) continue;
      // A run whose every read reads the same (the script and each module path it tried) is the
      // same run: the base's answers the head's, and a keystroke elsewhere reruns nothing.
      std::vector<ProducerMemo::Entry>* entries = memo && ids ? &memo->byPath[path] : nullptr;
      if (entries && !memo->diskDir.empty() && memo->loaded.insert(path).second)
        for (auto& e : loadRuns(memo->diskDir, path)) entries->push_back(std::move(e));
      const ProducerMemo::Entry* hit = nullptr;
      if (entries)
        for (const auto& e : *entries)
          if (std::all_of(e.ids.begin(), e.ids.end(), [&](const auto& p) { return ids(p.first) == p.second; })) {
            hit = &e;
            break;
          }
      if (hit) {
        if (hit->producer) facts.producers[path] = hit->producer;
        continue;
      }
      auto text = read(path);
      if (!text) continue;
      std::vector<std::string> tried{path};
      std::shared_ptr<const AotProducer> made;
      if (auto p = runProducer(facts, layout, path, *text, read, &tried)) made = std::make_shared<const AotProducer>(std::move(*p));
      if (made) facts.producers[path] = made;
      if (!entries) continue;
      ProducerMemo::Entry e;
      for (const auto& t : tried) e.ids[t] = ids(t);
      e.producer = made;
      if (entries->size() >= 4) entries->erase(entries->begin());  // the base's and the head's, and two before
      entries->push_back(std::move(e));
      if (!memo->diskDir.empty()) saveRuns(memo->diskDir, path, *entries);
    }
  }
}

}  // namespace impact
