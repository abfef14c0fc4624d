#include "report/FactsJson.h"

#include <nlohmann/json.hpp>

namespace impact {

namespace {
nlohmann::json arg(const KernelArg& a) {
  nlohmann::json j = {{"name", a.name}, {"kind", a.kind}, {"size", a.size}, {"line", a.range.line + 1}};
  if (a.offset >= 0) j["offset"] = a.offset;
  if (!a.typeText.empty()) j["type"] = a.typeText;
  if (!a.typeClass.empty()) j["class"] = a.typeClass;
  if (!a.resolved) j["unresolved"] = a.unresolvedReason;
  if (a.conditional) j["condition"] = a.condition;
  if (a.required) j["required"] = true;
  return j;
}
nlohmann::json args(const std::vector<KernelArg>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : v) out.push_back(arg(a));
  return out;
}
const char* form(CppArgList::Form f) {
  switch (f) {
    case CppArgList::Form::Static: return "static";
    case CppArgList::Form::Lambda: return "lambda";
    case CppArgList::Form::Launch: return "launch";
    case CppArgList::Form::NameKeyed: return "name_keyed";
    case CppArgList::Form::Names: return "names";
  }
  return "";
}
}  // namespace

std::string renderFactsJson(const FileFacts& f) {
  nlohmann::json j = {{"path", f.path}, {"ok", f.ok}};
  if (!f.ok) j["error"] = f.error;
  nlohmann::json builders = nlohmann::json::array();
  for (const auto& b : f.builders) {
    nlohmann::json abis = nlohmann::json::array();
    for (const auto& a : b.abis) {
      nlohmann::json abi = {{"origin", a.origin}, {"guard", a.guard}, {"args", args(a.args)}};
      // Where the list stops being known (an open end), with the call as written.
      if (!a.tailHelper.empty()) abi["tailHelper"] = a.tailHelper;
      if (!a.tailModule.empty()) abi["tailModule"] = a.tailModule;
      if (!a.tailCall.empty()) abi["tailCall"] = a.tailCall;
      abis.push_back(std::move(abi));
    }
    nlohmann::json builder = {{"name", b.name},
                              {"style", b.style == PyBuilder::Style::Params ? "params" : "signature-builder"},
                              {"line", b.range.line + 1},
                              {"abis", abis}};
    if (!b.notRead.empty()) builder["notRead"] = b.notRead;  // its arguments not read, and why
    builders.push_back(std::move(builder));
  }
  if (!builders.empty()) j["builders"] = builders;
  nlohmann::json lists = nlohmann::json::array();
  for (const auto* group : {&f.lists, &f.nameArrays})
    for (const auto& l : *group) {
      lists.push_back({{"form", form(l.form)},
                       {"symbol", l.symbol},
                       {"variable", l.variable},
                       {"line", l.range.line + 1},
                       {"args", args(l.args)}});
      if (!l.openStart.empty()) lists.back()["open_start"] = l.openStart;
      if (!l.openTail.empty()) lists.back()["open"] = l.openTail;
    }
  if (!lists.empty()) j["lists"] = lists;
  nlohmann::json setAside = nlohmann::json::array();
  for (const auto& a : f.setAside) setAside.push_back({{"what", a.what}, {"why", a.why}, {"line", a.range.line + 1}});
  if (!setAside.empty()) j["not_copies"] = setAside;
  nlohmann::json nameLists = nlohmann::json::array();
  for (const auto& l : f.nameLists) {
    nlohmann::json e = {{"function", l.function}, {"line", l.range.line + 1}, {"evaluated", l.evaluated}};
    if (l.evaluated) e["names"] = l.names;
    if (l.evaluated && !l.kinds.empty()) e["kinds"] = l.kinds;
    if (!l.evaluated) e["reason"] = l.reason;
    nameLists.push_back(std::move(e));
  }
  if (!nameLists.empty()) j["name_lists"] = nameLists;
  if (f.manifest) {
    nlohmann::json surfaces = nlohmann::json::array();
    for (const auto& e : f.manifest->surfaces)
      surfaces.push_back({{"name", e.name},
                          {"python", e.pythonPath + (e.pythonSymbol.empty() ? "" : ":" + e.pythonSymbol)},
                          {"cpp", e.cppPath + (e.cppSymbol.empty() ? "" : ":" + e.cppSymbol)},
                          {"test", e.testPath},
                          {"line", e.line + 1}});
    nlohmann::json fields = nlohmann::json::array();
    for (const auto& k : f.manifest->kmdFields) fields.push_back(k.name);
    j["manifest"] = {{"arch", f.manifest->arch},
                     {"source", f.manifest->source},
                     {"builder", f.manifest->builder},
                     {"kmd_fields", fields},
                     {"launch_surface", surfaces}};
  }
  if (f.descriptor) {
    const DescriptorFacts& d = *f.descriptor;
    nlohmann::json launches = nlohmann::json::array();
    for (const auto& l : d.launches) {
      nlohmann::json one = {{"source", l.source}, {"builder", l.builder}};
      if (!l.arch.empty()) one["arch"] = l.arch;
      launches.push_back(one);
    }
    j["descriptor"] = {{"type", d.type}, {"id", d.id}, {"name", d.name}, {"arch", d.arch},
                       {"ukds", d.ukdCount}, {"launches", launches}};
    if (!d.genericTargets.empty()) j["descriptor"]["generic_targets"] = d.genericTargets;
  }
  if (f.generator) {
    nlohmann::json sources = nlohmann::json::array();
    for (const auto& s : f.generator->sources) {
      nlohmann::json one = {{"pack", s.pack},       {"engine", s.engine}, {"kind", s.kind},
                            {"source", s.source},   {"builder", s.builder}, {"where", s.where},
                            {"line", s.line + 1},   {"arch", s.arch},     {"variants", s.variants.size()}};
      if (!s.incomplete.empty()) one["incomplete"] = s.incomplete;
      sources.push_back(std::move(one));
    }
    j["generator_config"] = {{"engine", f.generator->engine}, {"sources", sources}, {"problems", f.generator->problems}};
  }
  return j.dump(2) + "\n";
}

}  // namespace impact
