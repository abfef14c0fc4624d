#include "emit/EmitDocument.h"

#include <stdexcept>

#include "absl/strings/str_cat.h"

namespace impact::emit {

using nlohmann::json;

bool Variant::argsEqual() const {
  if (!base.present || !head.present || !base.error.empty() || !head.error.empty()) return false;
  if (base.kernels.size() != head.kernels.size() || base.kernels.empty()) return false;
  for (size_t i = 0; i < base.kernels.size(); ++i)
    if (base.kernels[i].args != head.kernels[i].args) return false;
  return true;
}

bool Variant::equal() const { return argsEqual() && base.kernels == head.kernels; }

namespace {

json sideJson(const VariantSide& s) {
  if (!s.present) return nullptr;
  json j = {{"spec", s.spec}};
  if (!s.error.empty()) j["error"] = s.error;
  if (s.otherShard) j["other_shard"] = true;
  json ks = json::array();
  for (const auto& k : s.kernels) {
    json args = json::array();
    for (const auto& a : k.args) args.push_back({{"name", a.name}, {"kind", a.kind}, {"size", a.size}, {"type", a.type}});
    ks.push_back({{"name", k.name}, {"args", args}, {"ir_sha256", k.irSha256}, {"compile", k.compile}});
  }
  j["kernels"] = ks;
  return j;
}

json familySideJson(const FamilySide& s) {
  json j = {{"status", s.status}, {"built", s.built}, {"closure", s.closure}};
  if (!s.error.empty()) j["error"] = s.error;
  return j;
}

struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json& need(const json& o, const char* key, const std::string& where) {
  if (!o.is_object()) throw Malformed(where + " is not an object");
  auto it = o.find(key);
  if (it == o.end()) throw Malformed(absl::StrCat(where, ".", key, " is missing"));
  return *it;
}

std::string str(const json& o, const char* key, const std::string& where, bool optional = false) {
  if (optional && (!o.is_object() || !o.contains(key))) return "";
  const json& v = need(o, key, where);
  if (!v.is_string()) throw Malformed(absl::StrCat(where, ".", key, " is not a string"));
  return v.get<std::string>();
}

const json& list(const json& o, const char* key, const std::string& where) {
  const json& v = need(o, key, where);
  if (!v.is_array()) throw Malformed(absl::StrCat(where, ".", key, " is not a list"));
  return v;
}

VariantSide readSide(const json& j, const std::string& where) {
  VariantSide s;
  if (j.is_null()) return s;
  s.present = true;
  s.spec = need(j, "spec", where);
  s.error = str(j, "error", where, true);
  if (auto o = j.find("other_shard"); o != j.end()) {
    if (!o->is_boolean()) throw Malformed(absl::StrCat(where, ".other_shard is not a boolean"));
    s.otherShard = o->get<bool>();
  }
  const json& ks = list(j, "kernels", where);
  for (size_t i = 0; i < ks.size(); ++i) {
    std::string kw = absl::StrCat(where, ".kernels[", i, "]");
    KernelRecord k;
    k.name = str(ks[i], "name", kw);
    k.irSha256 = str(ks[i], "ir_sha256", kw);
    k.compile = need(ks[i], "compile", kw);
    const json& args = list(ks[i], "args", kw);
    for (size_t a = 0; a < args.size(); ++a) {
      std::string aw = absl::StrCat(kw, ".args[", a, "]");
      ArgRecord r;
      r.name = str(args[a], "name", aw);
      r.kind = str(args[a], "kind", aw);
      r.type = str(args[a], "type", aw);
      const json& size = need(args[a], "size", aw);
      if (!size.is_number_unsigned()) throw Malformed(aw + ".size is not a non-negative integer");
      r.size = size.get<uint32_t>();
      k.args.push_back(std::move(r));
    }
    s.kernels.push_back(std::move(k));
  }
  return s;
}

FamilySide readFamilySide(const json& j, const std::string& where) {
  FamilySide s;
  s.status = str(j, "status", where);
  static const char* kStatuses[] = {"ok", "failed", "timed_out", "absent", "not_run", "other_shard"};
  bool known = false;
  for (const char* k : kStatuses) known = known || s.status == k;
  if (!known) throw Malformed(absl::StrCat(where, ".status '", s.status, "' is not a known status"));
  s.error = str(j, "error", where, true);
  const json& built = need(j, "built", where);
  if (!built.is_boolean()) throw Malformed(where + ".built is not a boolean");
  s.built = built.get<bool>();
  for (const auto& p : list(j, "closure", where)) {
    if (!p.is_string()) throw Malformed(where + ".closure holds a non-string");
    s.closure.push_back(p.get<std::string>());
  }
  return s;
}

EmitDocument read(const json& j) {
  EmitDocument d;
  if (!j.is_object()) throw Malformed("the document is not a JSON object");
  const json& schema = need(j, "schema", "document");
  if (!schema.is_object() || !schema.contains("name") || !schema.contains("version") ||
      !schema["version"].is_number_integer())
    throw Malformed("document.schema is not {name, version}");
  if (schema["name"] != kSchemaName || schema["version"].get<int>() != kSchemaVersion)
    throw std::invalid_argument(absl::StrCat("schema ", schema["name"].dump(), " version ", schema["version"].dump(),
                                             "; this impact reads ", kSchemaName, " version ", kSchemaVersion));
  d.schema = kSchemaVersion;
  const json& trees = need(j, "trees", "document");
  d.baseTree = str(need(trees, "base", "trees"), "tree", "trees.base");
  d.headTree = str(need(trees, "head", "trees"), "tree", "trees.head");
  d.baseCommit = str(trees["base"], "commit", "trees.base");
  d.headCommit = str(trees["head"], "commit", "trees.head");
  d.flavor = str(j, "flavor", "document");
  d.driverVersion = str(j, "driver_version", "document");
  const json& fams = list(j, "families", "document");
  for (size_t i = 0; i < fams.size(); ++i) {
    std::string fw = absl::StrCat("families[", i, "]");
    Family f;
    f.source = str(fams[i], "source", fw);
    f.path = str(fams[i], "path", fw);
    f.builder = str(fams[i], "builder", fw);
    f.base = readFamilySide(need(fams[i], "base", fw), fw + ".base");
    f.head = readFamilySide(need(fams[i], "head", fw), fw + ".head");
    if (fams[i].contains("producers"))
      for (const auto& p : list(fams[i], "producers", fw)) {
        if (!p.is_string()) throw Malformed(fw + ".producers holds a non-string");
        f.producers.push_back(p.get<std::string>());
      }
    const json& vs = list(fams[i], "variants", fw);
    for (size_t v = 0; v < vs.size(); ++v) {
      std::string vw = absl::StrCat(fw, ".variants[", v, "]");
      Variant var;
      var.name = str(vs[v], "name", vw);
      var.arch = str(vs[v], "arch", vw);
      var.base = readSide(need(vs[v], "base", vw), vw + ".base");
      var.head = readSide(need(vs[v], "head", vw), vw + ".head");
      f.variants.push_back(std::move(var));
    }
    d.families.push_back(std::move(f));
  }
  const json& fails = list(j, "failures", "document");
  for (size_t i = 0; i < fails.size(); ++i) {
    std::string w = absl::StrCat("failures[", i, "]");
    d.failures.push_back({str(fails[i], "family", w), str(fails[i], "message", w)});
  }
  const json& ni = list(j, "not_inspected", "document");
  for (size_t i = 0; i < ni.size(); ++i) {
    std::string w = absl::StrCat("not_inspected[", i, "]");
    d.notInspected.push_back({str(ni[i], "path", w), str(ni[i], "reason", w)});
  }
  if (auto it = j.find("pack_time"); it != j.end()) d.packTime = *it;
  if (auto it = j.find("sandbox"); it != j.end()) {
    if (!it->is_object() || !it->contains("confined") || !(*it)["confined"].is_boolean())
      throw Malformed("sandbox is not {confined, filesystem, network, limits}");
    d.sandbox = *it;
  }
  if (auto it = j.find("shard"); it != j.end()) {
    const json& sh = *it;
    Shard s;
    const json& index = need(sh, "index", "shard");
    const json& count = need(sh, "count", "shard");
    if (!index.is_number_integer() || !count.is_number_integer()) throw Malformed("shard.index or shard.count is not an integer");
    s.index = index.get<int>();
    s.count = count.get<int>();
    if (s.count < 1 || s.index < 1 || s.index > s.count)
      throw Malformed(absl::StrCat("shard ", s.index, " of ", s.count, " is not a shard (1 <= index <= count)"));
    for (const auto& f : list(sh, "families", "shard")) {
      if (!f.is_string()) throw Malformed("shard.families holds a non-string");
      s.families.push_back(f.get<std::string>());
    }
    if (sh.contains("chunks"))
      for (const auto& c : list(sh, "chunks", "shard")) {
        if (!c.is_string()) throw Malformed("shard.chunks holds a non-string");
        s.chunks.push_back(c.get<std::string>());
      }
    d.shard = std::move(s);
  }
  return d;
}

}  // namespace

json toJson(const EmitDocument& doc) {
  json fams = json::array();
  for (const auto& f : doc.families) {
    json vs = json::array();
    for (const auto& v : f.variants)
      vs.push_back({{"name", v.name}, {"arch", v.arch}, {"base", sideJson(v.base)}, {"head", sideJson(v.head)}});
    fams.push_back({{"source", f.source},
                    {"path", f.path},
                    {"builder", f.builder},
                    {"base", familySideJson(f.base)},
                    {"head", familySideJson(f.head)},
                    {"variants", vs}});
    if (!f.producers.empty()) fams.back()["producers"] = f.producers;
  }
  json fails = json::array();
  for (const auto& f : doc.failures) fails.push_back({{"family", f.family}, {"message", f.message}});
  json ni = json::array();
  for (const auto& n : doc.notInspected) ni.push_back({{"path", n.path}, {"reason", n.reason}});
  json j = {{"schema", {{"name", kSchemaName}, {"version", doc.schema}}},
            {"trees", {{"base", {{"tree", doc.baseTree}, {"commit", doc.baseCommit}}},
                       {"head", {{"tree", doc.headTree}, {"commit", doc.headCommit}}}}},
            {"flavor", doc.flavor},
            {"driver_version", doc.driverVersion},
            {"families", fams},
            {"failures", fails},
            {"not_inspected", ni}};
  if (!doc.packTime.is_null()) j["pack_time"] = doc.packTime;
  if (!doc.sandbox.is_null()) j["sandbox"] = doc.sandbox;
  if (doc.shard)
    j["shard"] = {{"index", doc.shard->index}, {"count", doc.shard->count}, {"families", doc.shard->families},
                  {"chunks", doc.shard->chunks}};
  return j;
}

std::string renderEmitDocument(const EmitDocument& doc) { return toJson(doc).dump(2) + "\n"; }

absl::StatusOr<EmitDocument> parseEmitDocument(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed: not JSON (byte ", e.byte, ")"));
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed: ", e.what()));
  }
  try {
    return read(j);
  } catch (const std::invalid_argument& e) {
    return absl::FailedPreconditionError(e.what());
  } catch (const Malformed& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed: ", e.what()));
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("malformed: ", e.what()));
  }
}

}  // namespace impact::emit
