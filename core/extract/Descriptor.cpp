#include "extract/Descriptor.h"

#include <nlohmann/json.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "parse/Syntax.h"

namespace impact {

using nlohmann::json;

std::string descriptorType(std::string_view path) {
  for (const char* t : {"kdp", "ukd", "kmd", "ued", "umd", "udd", "uhd"})
    if (path.ends_with(absl::StrCat(".", t, ".json"))) return t;
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

void addLaunch(const json& ks, std::vector<DescriptorLaunch>& out) {
  if (!ks.is_object()) return;
  auto str = [&](const char* k) {
    auto it = ks.find(k);
    return it != ks.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  std::string kind = str("kind");
  if ((kind.empty() || kind == "rocke") && ks.contains("source") && ks.contains("builder")) {
    DescriptorLaunch l{str("source"), str("builder")};
    if (!l.source.empty() && !l.builder.empty()) out.push_back(std::move(l));
  }
  // Multi-launch: launches listed under "sources" (a list or a map of launches).
  if (auto it = ks.find("sources"); it != ks.end()) {
    if (it->is_array())
      for (const auto& x : *it) addLaunch(x, out);
    else if (it->is_object())
      for (const auto& [k, v] : it->items()) addLaunch(v, out);
  }
}

void addUkd(const json& ukd, DescriptorFacts& f) {
  if (!ukd.is_object()) return;
  ++f.ukdCount;
  if (auto it = ukd.find("kernel_source"); it != ukd.end()) addLaunch(*it, f.launches);
  if (auto it = ukd.find("arch"); it != ukd.end())
    for (auto& a : strings(*it)) f.ukdArchs.push_back(a);
}
}  // namespace

absl::StatusOr<DescriptorFacts> parseDescriptor(std::string_view path, std::string_view content) {
  json j;
  try {
    j = json::parse(content);
  } catch (const json::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat("byte ", e.byte, ": ", e.what()));
  }
  DescriptorFacts f;
  f.type = descriptorType(path);
  if (!j.is_object()) return absl::InvalidArgumentError("a descriptor is a JSON object");
  if (auto it = j.find("id"); it != j.end() && it->is_string()) f.id = *it;
  if (auto it = j.find("name"); it != j.end() && it->is_string()) f.name = *it;
  if (auto it = j.find("arch"); it != j.end()) f.arch = strings(*it);
  if (auto it = j.find("kernelDescriptors"); it != j.end() && it->is_array())
    for (const auto& u : *it) addUkd(u, f);
  if (f.type == "ukd" || (f.type.empty() && j.contains("kernel_source"))) {
    if (auto it = j.find("kernel_source"); it != j.end()) addLaunch(*it, f.launches);
    f.ukdCount = 1;
  }
  return f;
}

uint64_t jsonValueFingerprint(std::string_view content) {
  try {
    json j = json::parse(content);
    return fnv1a(j.dump());  // object keys are sorted; numbers print canonically
  } catch (const json::exception&) {
    return fnv1a(content);
  }
}

}  // namespace impact
