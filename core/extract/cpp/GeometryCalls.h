// The C++ side of the geometry differential (issue 17): where a pack computes the grid and block
// it launches with, and what feeds it. Read from the syntax tree on demand (the emitter asks for
// one pack and one header of a family), never by name similarity:
// - the call site: a local bound to a call of the header's function (`const auto geometry =
//   attentionDenseGeometry(...)`) whose fields a `setGridSize(...)` / `setBlockSize(...)` member
//   call of the same function reads;
// - each argument's source, in order of trust: a metadata getter (`kernel.getIntMetadata(
//   std::string(BLOCK_M_FIELD))`, its key resolved through the file's constants), a literal, the
//   descriptor's id (`toString(kernel.kernelId)`), an alias (a local bound to one of these);
//   anything else is left unresolved, with its expression;
// - the header function's signature (namespace, parameters) and what the header includes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace impact {

struct GeometryArgument {
  std::string expression;  // as written at the call site (whitespace collapsed)
  // "metadata" (value: the metadata key), "literal" (value: the C++ literal), "descriptor-id",
  // "" when none of these resolves it.
  std::string source;
  std::string value;
  std::string method;      // metadata: the getter (getIntMetadata, getStringMetadata, ...)
  std::string via;         // an alias chain ("blockM = ..."), for the plan; "" when direct
};

struct GeometryCallSite {
  std::string function;             // the enclosing function ("Handler::prepare")
  uint32_t line = 0;                // 0-based line of the call
  std::string callee;               // the header function, as called (last component)
  std::string resultVar;            // the local bound to its result
  std::vector<std::string> grid;    // setGridSize's arguments, as written
  std::vector<std::string> block;   // setBlockSize's arguments, as written
  std::vector<GeometryArgument> args;
  uint64_t fingerprint = 0;         // of the call, the grid/block calls and every argument's source text
};

// Every call site of `callee` in a pack whose result feeds setGridSize/setBlockSize.
std::vector<GeometryCallSite> findGeometryCallSites(std::string_view packText, std::string_view callee);

struct GeometryParam {
  std::string type;  // as written ("int64_t", "const std::string&")
  std::string name;
};

struct GeometryHeader {
  bool found = false;
  std::string qualified;                 // "ns::attentionDenseGeometry"
  std::vector<GeometryParam> params;
  std::vector<std::string> includes;     // every #include path, as written (without <> or "")
  std::vector<std::string> statusNames;  // HIPDNN_PLUGIN_STATUS_* identifiers it uses
  std::string parseError;                // "" or the first syntax error
};

GeometryHeader readGeometryHeader(std::string_view headerText, std::string_view function);

}  // namespace impact
