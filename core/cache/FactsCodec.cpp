#include "cache/FactsCodec.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "absl/strings/str_cat.h"

// std::optional as null or the value (nlohmann 3.11.2 has no built-in support).
namespace nlohmann {
template <typename T>
struct adl_serializer<std::optional<T>> {
  static void to_json(json& j, const std::optional<T>& o) {
    if (o) j = *o;
    else j = nullptr;
  }
  static void from_json(const json& j, std::optional<T>& o) {
    if (j.is_null()) o.reset();
    else o = j.get<T>();
  }
};
}  // namespace nlohmann

namespace impact {

// One line per struct: every field the codec writes and reads (a field missing from an entry
// reads as its default). Keep these lists equal to the structs; see FactsCodec.h.
#define IMPACT_CODEC(Type, ...) NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(Type, __VA_ARGS__)

// model/Facts.h
IMPACT_CODEC(SourceRange, line, col, endLine, endCol)
IMPACT_CODEC(KernelArg, name, kind, size, offset, typeText, resolved, unresolvedReason, conditional, condition, range)
IMPACT_CODEC(PyAbi, origin, guard, args)
IMPACT_CODEC(PyBuilder, name, style, range, bodyRange, abis, unresolvedReturns, fingerprint)
IMPACT_CODEC(CppArgList::BuilderHint, source, builder)
IMPACT_CODEC(CppArgList, form, symbol, variable, named, range, args, fingerprint, builderHint, spec)
IMPACT_CODEC(SurfaceEntry, name, pythonPath, pythonSymbol, cppPath, cppSymbol, kmdFields, guard, testPath, line)
IMPACT_CODEC(KmdField, name, type, defaultValue)
IMPACT_CODEC(Manifest, arch, slug, providerRoot, source, builder, kmdFields, surfaces)
IMPACT_CODEC(DescriptorLaunch, source, builder, arch)
IMPACT_CODEC(DescriptorFacts, type, id, name, arch, launches, ukdArchs, ukdCount, genericTargets)
// model/CppSymbols.h
IMPACT_CODEC(CppStringConstant, name, qualified, value, line, col)
IMPACT_CODEC(CppKmdRead, field, constant, method, line, col)
IMPACT_CODEC(DescriptorSymbol, key, value, scope, line)
IMPACT_CODEC(KmdSchemaField, name, type, hasDefault, line)
IMPACT_CODEC(CppSymbolFacts, constants, kmdReads, includes, descriptorSymbols, kmdFields, kmdSchema)
// model/PythonModule.h
IMPACT_CODEC(PyRange, line, col, endLine, endCol)
IMPACT_CODEC(PyDef, kind, name, params, bases, aliasOf, range, nameLine, fingerprint, refs, members)
IMPACT_CODEC(PyImport, module, name, alias, function, line)
IMPACT_CODEC(PyModuleFacts, defs, imports, moduleRefs)

#undef IMPACT_CODEC

// A struct that gains or loses a field changes size: these stop the build until the codec
// line above lists the field (then update the size here and bump kFactsCodecVersion).
// Checked where the sizes are known (libstdc++ on x86-64, the project's platform).
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(SourceRange) == 16, "SourceRange changed: update FactsCodec.cpp");
static_assert(sizeof(KernelArg) == 208, "KernelArg changed: update FactsCodec.cpp");
static_assert(sizeof(PyAbi) == 88, "PyAbi changed: update FactsCodec.cpp");
static_assert(sizeof(PyBuilder) == 128, "PyBuilder changed: update FactsCodec.cpp");
static_assert(sizeof(CppArgList) == 248, "CppArgList changed: update FactsCodec.cpp");
static_assert(sizeof(SurfaceEntry) == 256, "SurfaceEntry changed: update FactsCodec.cpp");
static_assert(sizeof(KmdField) == 104, "KmdField changed: update FactsCodec.cpp");
static_assert(sizeof(Manifest) == 208, "Manifest changed: update FactsCodec.cpp");
static_assert(sizeof(DescriptorLaunch) == 88, "DescriptorLaunch changed: update FactsCodec.cpp");
static_assert(sizeof(DescriptorFacts) == 224, "DescriptorFacts changed: update FactsCodec.cpp");
static_assert(sizeof(CppStringConstant) == 104, "CppStringConstant changed: update FactsCodec.cpp");
static_assert(sizeof(CppKmdRead) == 104, "CppKmdRead changed: update FactsCodec.cpp");
static_assert(sizeof(DescriptorSymbol) == 104, "DescriptorSymbol changed: update FactsCodec.cpp");
static_assert(sizeof(KmdSchemaField) == 72, "KmdSchemaField changed: update FactsCodec.cpp");
static_assert(sizeof(CppSymbolFacts) == 128, "CppSymbolFacts changed: update FactsCodec.cpp");
static_assert(sizeof(PyDef) == 208, "PyDef changed: update FactsCodec.cpp");
static_assert(sizeof(PyImport) == 136, "PyImport changed: update FactsCodec.cpp");
static_assert(sizeof(PyModuleFacts) == 72, "PyModuleFacts changed: update FactsCodec.cpp");
static_assert(sizeof(FileFacts) == 776, "FileFacts changed: update encodeFacts/decodeFacts");
#endif

std::string encodeFacts(const FileFacts& f) {
  nlohmann::json j = {{"kind", f.kind},           {"ok", f.ok},
                      {"error", f.error},         {"fingerprint", f.fingerprint},
                      {"builders", f.builders},   {"lists", f.lists},
                      {"manifest", f.manifest},   {"descriptor", f.descriptor},
                      {"module", f.module},       {"symbols", f.symbols}};
  std::vector<uint8_t> bytes = nlohmann::json::to_cbor(j);
  return std::string(bytes.begin(), bytes.end());
}

absl::StatusOr<FileFacts> decodeFacts(std::string_view bytes, std::string_view path) {
  try {
    nlohmann::json j = nlohmann::json::from_cbor(bytes.begin(), bytes.end());
    if (!j.is_object()) return absl::DataLossError("facts entry: not an object");
    FileFacts f;
    f.path = std::string(path);
    f.kind = j.at("kind").get<FileKind>();
    f.ok = j.at("ok").get<bool>();
    f.error = j.at("error").get<std::string>();
    f.fingerprint = j.at("fingerprint").get<uint64_t>();
    f.builders = j.at("builders").get<std::vector<PyBuilder>>();
    f.lists = j.at("lists").get<std::vector<CppArgList>>();
    f.manifest = j.at("manifest").get<std::optional<Manifest>>();
    f.descriptor = j.at("descriptor").get<std::optional<DescriptorFacts>>();
    f.module = j.at("module").get<PyModuleFacts>();
    f.symbols = j.at("symbols").get<CppSymbolFacts>();
    return f;
  } catch (const nlohmann::json::exception& e) {
    return absl::DataLossError(absl::StrCat("facts entry does not decode: ", e.what()));
  }
}

}  // namespace impact
