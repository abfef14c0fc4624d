#include "emit/PackTimeLine.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace impact::emit {

namespace {

std::string describe(const nlohmann::json& f) {
  std::string family = f.value("family", "");
  std::string field = f.value("field", "");
  std::string value = f.contains("value") ? f["value"].dump() : "?";
  if (f.value("kind", "") == "sign") {
    std::vector<std::string> acc, ref;
    for (const auto& p : f.value("accepted_by", nlohmann::json::array())) acc.push_back(p.get<std::string>());
    for (const auto& p : f.value("refused_by", nlohmann::json::array())) ref.push_back(p.get<std::string>());
    return absl::StrCat(family, ": ", absl::StrJoin(acc, ", "), " accepts the non-positive ", field, "=", value, " that ",
                        absl::StrJoin(ref, ", "), " refuses (sign finding)");
  }
  return absl::StrCat(family, ": ", f.value("predicate", "the predicate"), " accepts ", field, "=", value,
                      " and the builder raises: ", f.value("error", "?"), " (builder finding)");
}

}  // namespace

std::string packTimeLine(const EmitDocument& doc, std::vector<std::string>* notes) {
  const nlohmann::json& t = doc.packTime;
  if (!t.is_object() || !t.contains("findings") || !t["findings"].is_array()) return "";
  size_t fresh = 0, first = 0;
  for (const auto& f : t["findings"]) {
    if (!f.is_object()) continue;
    std::string status = f.value("status", "");
    if (status == "new") ++fresh;
    else if (status == "first-shipped") ++first;
    if (notes) notes->push_back(absl::StrCat("pack-time ", status, ": ", describe(f)));
  }
  if (notes && t.contains("timed_out") && t["timed_out"].is_array())
    for (const auto& f : t["timed_out"])
      if (f.is_string()) notes->push_back(absl::StrCat("pack-time: the probe of ", f.get<std::string>(), " ran out of its budget"));
  if (fresh == 0 && first == 0) return "Pack-time: CLEAN";
  return absl::StrCat("Pack-time: NEW ", fresh, ", FIRST-SHIPPED ", first);
}

}  // namespace impact::emit
