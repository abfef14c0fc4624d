#include "extract/Descriptor.h"
#include "extract/DescriptorCopies.h"

#include <stdexcept>

#include <map>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "parse/Syntax.h"

// A descriptor's facts (DescriptorFacts: ids, archs, the launches its kernel sources name, the
// generic-target table) and the file's extraction, whose copies and symbol strings
// DescriptorCopies.cpp reads.

namespace impact {

using nlohmann::json;

namespace {
constexpr int kMaxJsonDepth = 256;

struct TooDeep : std::runtime_error {
  TooDeep() : std::runtime_error("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels") {}
};

// nlohmann's parser, refusing nesting deeper than kMaxJsonDepth: its serializer and the
// readers here recurse per level, so a deep document would overflow the stack.
json parseBounded(std::string_view content) {
  json::parser_callback_t cb = [](int depth, json::parse_event_t, json&) {
    if (depth > kMaxJsonDepth) throw TooDeep();
    return true;
  };
  return json::parse(content, cb);
}

std::string scalarText(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number() || v.is_null()) return v.dump();
  return "";
}

}  // namespace

namespace descriptor_detail {
std::map<std::string, std::string> specOf(const json& spec) {
  std::map<std::string, std::string> out;
  if (!spec.is_object()) return out;
  for (const auto& [k, v] : spec.items())
    if (v.is_primitive()) out[k] = scalarText(v);
  return out;
}
}  // namespace descriptor_detail

using descriptor_detail::specOf;

std::string descriptorType(std::string_view path) {
  // Called on every path of a tree (classify): no allocation for the paths that are no descriptor.
  if (!path.ends_with(".json")) return "";
  if (path.ends_with("generic_targets.json") || path.ends_with("generic-targets.json")) return "generic-targets";
  std::string_view stem = path.substr(0, path.size() - 5);
  for (std::string_view t : {".kdp", ".ukd", ".kmd", ".ued", ".umd", ".udd", ".uhd"})
    if (stem.ends_with(t)) return std::string(t.substr(1));
  return "";
}

namespace {
std::vector<std::string> strings(const json& j) {
  std::vector<std::string> out;
  if (j.is_array())
    for (const auto& x : j)
      if (x.is_string()) out.push_back(x.get<std::string>());
  return out;
}

std::string ukdLabel(const json& ukd, const std::string& fallback) {
  for (const char* k : {"name", "id"})
    if (auto it = ukd.find(k); it != ukd.end() && it->is_string() && !it->get<std::string>().empty())
      return it->get<std::string>();
  return fallback;
}

void addLaunch(const json& ks, const std::string& ukd, DescriptorFacts& f) {
  if (!ks.is_object()) {
    f.notInspected.push_back(ukd + ": kernel_source is not an object");
    return;
  }
  auto str = [&](const char* k) {
    auto it = ks.find(k);
    return it != ks.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::string kind = str("kind");
  bool multi = ks.contains("sources");
  // `rocke_builder`: the loader's legacy spelling, never packed; it names its builder all the same.
  const bool legacy = kind == "rocke_builder";
  if ((kind.empty() || kind == "rocke" || legacy) && ks.contains("source") && ks.contains("builder")) {
    DescriptorLaunch l;
    l.source = str("source");
    l.builder = str("builder");
    l.ukdName = ukd;
    auto spec = ks.find("spec");
    if (spec != ks.end() && !spec->is_object()) {
      f.notInspected.push_back(ukd + ": kernel_source.spec is not an object");
    } else if (l.source.empty() || l.builder.empty()) {
      f.notInspected.push_back(ukd + ": kernel_source.source or .builder is not a string");
    } else {
      l.spec = spec == ks.end() ? "{}" : spec->dump();  // nlohmann sorts object keys
      if (spec != ks.end()) l.specFields = specOf(*spec);
      (legacy ? f.legacyLaunches : f.launches).push_back(std::move(l));
    }
  } else if (kind == "rocke" && !multi) {
    f.notInspected.push_back(ukd + ": a rocke kernel_source without source and builder");
  }
  // Multi-launch: launches listed under "sources" (a list or a map of launches).
  if (auto it = ks.find("sources"); it != ks.end()) {
    // Each companion launch is named "<UKD>/<index or key>", as its packed signature is.
    if (it->is_array())
      for (size_t i = 0; i < it->size(); ++i) addLaunch((*it)[i], ukd + "/" + std::to_string(i), f);
    else if (it->is_object())
      for (const auto& [k, v] : it->items()) addLaunch(v, ukd + "/" + k, f);
  }
}

void addUkd(const json& ukd, size_t index, DescriptorFacts& f) {
  if (!ukd.is_object()) return;
  ++f.ukdCount;
  size_t first = f.launches.size(), firstLegacy = f.legacyLaunches.size();
  std::string label = ukdLabel(ukd, "kernelDescriptors/" + std::to_string(index));
  if (auto it = ukd.find("kernel_source"); it != ukd.end() && !it->is_null()) addLaunch(*it, label, f);
  else f.notInspected.push_back(label + ": no kernel_source");
  if (auto it = ukd.find("arch"); it != ukd.end()) {
    std::vector<std::string> own = strings(*it);
    for (auto& a : own) f.ukdArchs.push_back(a);
    for (size_t i = first; i < f.launches.size(); ++i) f.launches[i].arch = own;
    for (size_t i = firstLegacy; i < f.legacyLaunches.size(); ++i) f.legacyLaunches[i].arch = own;
  }
}
}  // namespace

namespace {
absl::StatusOr<DescriptorFacts> descriptorFrom(std::string_view path, const json& j) {
  const std::string path_(path);
  DescriptorFacts f;
  f.type = descriptorType(path);
  if (!j.is_object()) return absl::InvalidArgumentError("a descriptor is a JSON object");
  if (auto it = j.find("id"); it != j.end() && it->is_string()) f.id = *it;
  if (auto it = j.find("name"); it != j.end() && it->is_string()) f.name = *it;
  if (auto it = j.find("dispatch"); it != j.end() && it->is_string() && f.type == "kdp") f.dispatch = *it;
  if (auto it = j.find("arch"); it != j.end()) f.arch = strings(*it);
  if (auto it = j.find("kernelDescriptors"); it != j.end() && it->is_array())
    for (size_t i = 0; i < it->size(); ++i) addUkd((*it)[i], i, f);
  if (f.type == "generic-targets")
    for (const auto& [name, members] : j.items())
      if (members.is_array()) f.genericTargets[name] = strings(members);
  if (f.type == "ukd" || (f.type.empty() && j.contains("kernel_source"))) {
    if (auto it = j.find("kernel_source"); it != j.end() && !it->is_null()) addLaunch(*it, ukdLabel(j, path_), f);
    else f.notInspected.push_back(ukdLabel(j, path_) + ": no kernel_source");
    f.ukdCount = 1;
  }
  return f;
}
}  // namespace

absl::StatusOr<DescriptorFacts> parseDescriptor(std::string_view path, std::string_view content) {
  json j;
  try {
    j = parseBounded(content);
  } catch (const TooDeep& e) {
    return absl::InvalidArgumentError(e.what());
  } catch (const json::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat("byte ", e.byte, ": ", e.what()));
  } catch (const json::exception& e) {  // a number out of range, …
    return absl::InvalidArgumentError(e.what());
  }
  return descriptorFrom(path, j);
}

bool isAotCatalog(std::string_view path) {
  return path.ends_with("/family.json") &&
         (path.find("/aot_catalog/") != std::string_view::npos || path.starts_with("aot_catalog/"));
}

void extractDescriptor(std::string_view path, std::string_view content, FileFacts& f) {
  f.fingerprint = fnv1a(content);  // what jsonValueFingerprint says of a document that does not parse
  json j;
  try {
    j = parseBounded(content);
    try {
      f.fingerprint = fnv1a(j.dump());  // = jsonValueFingerprint(content), from the one parse
    } catch (const json::exception&) {
    }
  } catch (const TooDeep& e) {
    f.ok = false;
    f.error = e.what();
    return;
  } catch (const json::parse_error& e) {
    f.ok = false;
    f.error = absl::StrCat("byte ", e.byte, ": ", e.what());
    return;
  } catch (const json::exception& e) {  // a number out of range, …
    f.ok = false;
    f.error = e.what();
    return;
  }
  auto d = descriptorFrom(path, j);
  if (!d.ok()) {
    f.ok = false;
    f.error = std::string(d.status().message());
    return;
  }
  f.descriptor = std::move(*d);
  const std::string& type = f.descriptor->type;
  // A symbol or metadata descriptor's `name` is a label (R3.1): no contract, and no matching,
  // reads it; an edit of it alone is inert. (A KDP's or UKD's name is a variant name: kept.)
  if ((type == "ued" || type == "umd" || type == "uhd" || type == "udd" || type == "kmd") && j.is_object() &&
      j.contains("name") && j["name"].is_string()) {
    try {
      json unlabelled = j;
      unlabelled.erase("name");
      f.fingerprint = fnv1a(unlabelled.dump());
    } catch (const json::exception&) {
    }
  }
  const bool catalog = isAotCatalog(path);
  // Scanning the text for lines costs a pass; only files that can hold what is looked up.
  bool wantLines = catalog || type == "ued" || type == "umd" || type == "uhd" || type == "udd" || type == "kmd" ||
                   content.find("\"kpack\"") != std::string_view::npos;
  if (!wantLines) return;
  try {
    descriptor_detail::extractCopiesAndSymbols(path, content, j, type, catalog, f);
  } catch (const json::exception& e) {
    f.ok = false;
    f.error = absl::StrCat("descriptor could not be read: ", e.what());
  }
}

uint64_t jsonValueFingerprint(std::string_view content) {
  try {
    json j = parseBounded(content);
    return fnv1a(j.dump());  // object keys are sorted; numbers print canonically
  } catch (const TooDeep&) {
    return fnv1a(content);
  } catch (const json::exception&) {
    return fnv1a(content);
  }
}

}  // namespace impact
