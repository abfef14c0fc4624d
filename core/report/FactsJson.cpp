#include "report/FactsJson.h"

#include <nlohmann/json.hpp>

namespace impact {

namespace {
nlohmann::json arg(const KernelArg& a) {
  nlohmann::json j = {{"name", a.name}, {"kind", a.kind}, {"size", a.size}, {"line", a.range.line + 1}};
  if (a.offset >= 0) j["offset"] = a.offset;
  if (!a.typeText.empty()) j["type"] = a.typeText;
  if (!a.resolved) j["unresolved"] = a.unresolvedReason;
  if (a.conditional) j["condition"] = a.condition;
  return j;
}
nlohmann::json args(const std::vector<KernelArg>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : v) out.push_back(arg(a));
  return out;
}
const char* form(CppArgList::Form f) {
  return f == CppArgList::Form::Static ? "static" : f == CppArgList::Form::Lambda ? "lambda" : "launch";
}
}  // namespace

std::string renderFactsJson(const FileFacts& f) {
  nlohmann::json j = {{"path", f.path}, {"ok", f.ok}};
  if (!f.ok) j["error"] = f.error;
  nlohmann::json builders = nlohmann::json::array();
  for (const auto& b : f.builders) {
    nlohmann::json abis = nlohmann::json::array();
    for (const auto& a : b.abis) abis.push_back({{"origin", a.origin}, {"guard", a.guard}, {"args", args(a.args)}});
    builders.push_back({{"name", b.name},
                        {"style", b.style == PyBuilder::Style::Params ? "params" : "signature-builder"},
                        {"line", b.range.line + 1},
                        {"abis", abis}});
  }
  if (!builders.empty()) j["builders"] = builders;
  nlohmann::json lists = nlohmann::json::array();
  for (const auto& l : f.lists)
    lists.push_back({{"form", form(l.form)},
                     {"symbol", l.symbol},
                     {"variable", l.variable},
                     {"line", l.range.line + 1},
                     {"args", args(l.args)}});
  if (!lists.empty()) j["lists"] = lists;
  return j.dump(2) + "\n";
}

}  // namespace impact
