// Symbol strings, KMD field reads and KMD schema fields of one file (SPEC R2.5).
// Filled for C++ files by core/extract/cpp/ (SymbolsAndKmdReads.cpp) and for descriptor JSON files by
// core/extract/Descriptor.cpp; judged in core/judge/SymbolRows.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace impact {

// `constexpr std::string_view NAME = "...";` (also const char* / std::string constants).
struct CppStringConstant {
  std::string name;       // as declared ("GRAPH_MATCHER_SYMBOL")
  std::string qualified;  // with its namespaces/classes ("ns::GRAPH_MATCHER_SYMBOL")
  std::string value;      // the string it holds
  uint32_t line = 0, col = 0;  // 0-based, of the declarator
  bool operator==(const CppStringConstant&) const = default;
};

// `kernel.getIntMetadata(std::string(BLOCK_M_FIELD))` / getStringMetadata; tryGetMetadata is
// "may be absent" and is not recorded.
struct CppKmdRead {
  std::string field;      // the resolved field name ("block_m")
  std::string constant;   // the *_FIELD constant it was read through; "" for a literal
  std::string method;     // "getIntMetadata"
  uint32_t line = 0, col = 0;  // 0-based, of the call
  bool operator==(const CppKmdRead&) const = default;
};

// A symbol string a descriptor names: UED graph_match.native, UMD match_symbol (+ scope),
// UHD payload, UDD dispatch_symbol.
struct DescriptorSymbol {
  std::string key;        // "graph_match.native" | "match_symbol" | "payload" | "dispatch_symbol"
  std::string value;
  std::string scope;      // UMD scope, if any
  uint32_t line = 0;      // 0-based line of the value
  bool operator==(const DescriptorSymbol&) const = default;
};

// A KMD schema field: fields:[{name, type, default_value?}].
struct KmdSchemaField {
  std::string name, type;
  bool hasDefault = false;
  uint32_t line = 0;
  bool operator==(const KmdSchemaField&) const = default;
};

// An engine's entry in the ingestor's pack table (`IngestorPacks.cpp`):
// `{"hipkernel:Gfx950ConvFwd", &registerGfx950ConvFwdSymbols, ...}` — the engine name and the
// function that registers its pack's symbols (core/extract/cpp/EngineRegistrations.cpp).
struct CppEngineRegistration {
  std::string engine;     // "hipkernel:Gfx950ConvFwd"
  std::string function;   // "registerGfx950ConvFwdSymbols" (last component of the name)
  uint32_t line = 0;      // 0-based, of the entry
  bool operator==(const CppEngineRegistration&) const = default;
};

struct CppSymbolFacts {
  std::vector<CppStringConstant> constants;        // C++
  std::vector<CppKmdRead> kmdReads;                // C++
  std::vector<std::string> includes;               // C++: quoted (and <...>) #include paths, as written
  std::vector<DescriptorSymbol> descriptorSymbols; // descriptors (UED/UMD/UHD/UDD)
  std::vector<KmdSchemaField> kmdFields;           // descriptors (KMD)
  bool kmdSchema = false;                          // the file is a KMD schema (even with no fields)
  std::vector<CppEngineRegistration> engineRegistrations;  // C++
  bool operator==(const CppSymbolFacts&) const = default;
};

}  // namespace impact
