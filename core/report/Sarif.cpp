#include "report/Sarif.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "model/Version.h"
#include "parse/Syntax.h"

namespace impact {

namespace {

using json = nlohmann::json;

constexpr const char* kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char* kContractsDoc = "docs/contracts.md";

// One rule per contract kind; the help says what is compared and what a finding asks of the
// reader (docs/contracts.md has the long form).
const ContractRule kRules[] = {
    {"kernargs", "KernelArgumentList", "A hand-kept copy of a kernel's argument list disagrees with its Python builder.",
     "A rocKE builder declares its kernel arguments with b.param (or a SignatureBuilder chain); C++ packs, test "
     "pins, launch calls, packed UKD signatures and catalog args_signature restate them by hand. The copy is "
     "compared with the builder by count, then kind and size per position, and names when both sides have one. "
     "error: the copy disagrees at the head (update the copy or the builder); warning: they agree but a side "
     "changed in code, or the copy lacks only a conditional argument: run the kernel on the listed archs; note: "
     "the disagreement was already there at the merge base."},
    {"launch-surface", "LaunchSurface",
     "A manifest launch_surface entry's Python side and its C++ mirror changed apart, or one is missing.",
     "Each launch_surface entry of a *.profile.yaml pairs a python_source symbol (and everything it reaches by "
     "name) with a cpp_mirror. error: the module, symbol or mirror does not exist; warning: one side changed in "
     "code (or does not parse) and a device run on the listed archs would show whether they still agree."},
    {"symbols", "DescriptorSymbol", "A descriptor's symbol string names no constant of the pack.",
     "UED graph_match.native, UMD match_symbol, UHD payload and UDD dispatch_symbol strings must equal a string "
     "constant of the pack they address; the loader looks them up at run time. error: no constant holds the "
     "string (the closest one is named)."},
    {"kmd-fields", "KmdField", "A KMD field the C++ reads is declared neither in the KMD schema nor in the manifest.",
     "kernel.getIntMetadata / getStringMetadata reads of a field must be declared by the KMD schema or the "
     "manifest's kmd_fields; an undeclared field fails at load time. error: nothing declares the field."},
    {"removed-symbol", "RemovedSymbol", "A Python definition was removed or re-signed while a reader still uses it.",
     "A def, class, method or assignment removed or given other parameters is traced to every module that still "
     "imports or reads it (through imports, aliases, re-exports and base classes). error: a reader still uses "
     "the removed name; warning: a reader's receiver type is unknown, or the parameters changed."},
    {"kernel-code", "KernelCode", "A rocKE module changed in code outside the compared argument lists.",
     "A code edit to a module the shipped variants reach changes what the device runs even when every argument "
     "list still agrees. warning: run the kernels of the listed archs."},
    {"copy-file", "CopyFile", "A C++ file on the surface changed outside any compared contract.",
     "The C++ file holds copies or mirrors; the edit is outside every compared list. warning: a device run on "
     "the listed archs settles it."},
    {"manifest", "ManifestValue", "A launch manifest (*.profile.yaml) changed outside any compared entry.",
     "A value of the manifest changed that no compared launch_surface entry covers. warning: run the listed "
     "archs."},
    {"descriptor", "DescriptorValue", "A JSON descriptor changed outside any compared contract.",
     "A descriptor value changed that no symbol, KMD field or signature comparison covers. warning: run the "
     "listed archs."},
    {"sdk-header", "SdkHeader", "A plugin SDK header the descriptor loader compiles in changed.",
     "Headers in the include closure of the ingestor's plugin SDK headers change how descriptors load. warning: "
     "run the listed archs."},
    {"generated-header", "GeneratedHeader", "A flatc-generated header changed without its schema or flag file.",
     "A generated header is regenerated only beside its own .fbs schema or flatc_flags.txt; a hand edit of it "
     "is lost or inconsistent. warning."},
    {"build", "BuildOrDeps", "A build or dependency file changed: left to the BUILD or DEPS lane.",
     "CMake files, flatc inputs and CI test categories (BUILD), requirements and pyproject files (DEPS) are "
     "checked by those lanes; impact reports them so that they never read as no impact. warning."},
    {"merge-conflict", "MergeConflict", "The change conflicts with the target branch's tip.",
     "With --target-tip the head is merged into the tip in memory; conflicted files are listed in one finding "
     "and rows reading them are dropped from the merged view. warning: resolve the conflict and run again."},
};

std::string ruleHelpUri(const ContractRule& rule) { return absl::StrCat(kContractsDoc, "#", rule.id); }

json artifact(const Location& l) {
  json phys = {{"artifactLocation", {{"uri", l.path}, {"uriBaseId", "SRCROOT"}}}};
  if (l.line > 0) phys["region"] = {{"startLine", l.line}};
  return phys;
}

json location(const Location& l, int id, const std::string& what) {
  json loc = {{"physicalLocation", artifact(l)}};
  if (id >= 0) loc["id"] = id;
  if (!what.empty()) loc["message"] = {{"text", what}};
  if (!l.symbol.empty()) loc["logicalLocations"] = json::array({{{"name", l.symbol}}});
  return loc;
}

const char* levelOf(const Row& row) {
  if (row.status == Status::Mismatch) return row.preexisting ? "note" : "error";
  return "warning";
}

bool isFinding(const Row& row) { return row.status == Status::Mismatch || row.status == Status::Changed; }

std::string resultMessage(const Row& row) {
  std::string text;
  if (row.view == "merged") text += "[merged view] ";
  if (row.preexisting) text += "(pre-existing at the merge base) ";
  if (!row.python.empty() && !row.mirror.empty())
    absl::StrAppend(&text, row.mirror.symbol.empty() ? row.mirror.path : row.mirror.symbol, " vs ",
                    row.python.symbol.empty() ? row.python.path : row.python.symbol, ": ");
  text += row.message;
  if (row.status == Status::Changed && row.label.empty())
    absl::StrAppend(&text, " Run on a device: ", row.archs.empty() ? "all ingestor archs" : absl::StrJoin(row.archs, ", "),
                    ".");
  if (!row.label.empty()) absl::StrAppend(&text, " (", row.label, " lane)");
  return text;
}

}  // namespace

const ContractRule* contractRule(const std::string& contract) {
  std::string kind = contractKind(contract);
  for (const auto& r : kRules)
    if (kind == r.id) return &r;
  return nullptr;
}

std::string contractKind(const std::string& contract) {
  auto colon = contract.find(':');
  return colon == std::string::npos ? contract : contract.substr(0, colon);
}

std::string findingFingerprint(const Row& row) {
  std::string id = absl::StrCat(row.contract, "\x1f", row.python.path, "\x1f", row.python.symbol, "\x1f",
                                row.mirror.path, "\x1f", row.mirror.symbol, "\x1f", row.view);
  // Two FNV-1a passes with different offsets: 128 bits, stable across builds and platforms.
  return absl::StrFormat("%016x%016x", fnv1a(id), fnv1a(id, 0x84222325cbf29ce4ULL));
}

std::string renderSarif(const Report& r) {
  json rules = json::array();
  for (const auto& rule : kRules)
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.shortText}}},
                     {"fullDescription", {{"text", rule.help}}},
                     {"help", {{"text", rule.help}}},
                     {"helpUri", absl::StrCat(kToolInformationUri, "/blob/main/", ruleHelpUri(rule))},
                     {"defaultConfiguration", {{"level", std::string(rule.id) == "kernargs" ? "error" : "warning"}}}});

  json results = json::array();
  for (const auto& row : r.rows) {
    if (!isFinding(row)) continue;
    const ContractRule* rule = contractRule(row.contract);
    size_t ruleIndex = rule ? static_cast<size_t>(rule - kRules) : 0;
    json res = {{"ruleId", rule ? rule->id : row.contract},
                {"level", levelOf(row)},
                {"message", {{"text", resultMessage(row)}}},
                {"partialFingerprints", {{"impactFinding/v1", findingFingerprint(row)}}}};
    if (rule) res["ruleIndex"] = ruleIndex;
    // The copy is where the finding is; a row without a copy (a builder-only row) points at its
    // Python side instead.
    const Location& primary = !row.mirror.empty() ? row.mirror : row.python;
    if (!primary.empty()) res["locations"] = json::array({location(primary, -1, "")});
    if (!row.mirror.empty() && !row.python.empty())
      res["relatedLocations"] = json::array(
          {location(row.python, 1, row.python.symbol.empty() ? "the Python side" : "builder " + row.python.symbol)});
    json props = {{"status", statusName(row.status)}, {"contract", row.contract}, {"preexisting", row.preexisting}};
    if (!row.archs.empty()) props["archs"] = row.archs;
    if (!row.label.empty()) props["lane"] = row.label;
    if (!row.view.empty()) props["view"] = row.view;
    res["properties"] = props;
    results.push_back(std::move(res));
  }

  json runProps = {{"rollup",
                    {{"verdict", r.rollup.verdict},
                     {"archs", r.rollup.archs},
                     {"lanes", r.rollup.lanes},
                     {"line", r.rollup.line()}}},
                   {"base", r.base},
                   {"mergeBase", r.mergeBase},
                   {"head", r.head},
                   {"notes", r.notes}};
  // The emitter's Pack-time line, when the report has one (an emit document was folded).
  if (!r.packTime.empty()) runProps["packTime"] = r.packTime;

  json run = {{"tool",
               {{"driver",
                 {{"name", kToolName},
                  {"semanticVersion", kToolVersion},
                  {"version", kToolVersion},
                  {"informationUri", kToolInformationUri},
                  {"rules", rules}}}}},
              {"originalUriBaseIds",
               {{"SRCROOT", {{"description", {{"text", "The root of the analysed git work tree."}}}}}}},
              {"columnKind", "unicodeCodePoints"},
              {"results", results},
              {"properties", runProps}};
  json log = {{"$schema", kSchema}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  return log.dump(2) + "\n";
}

}  // namespace impact
