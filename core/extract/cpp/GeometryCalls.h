// The C++ side of the geometry differential (issue 17): where a pack computes the grid and block
// it launches with, and what feeds it. Read from the syntax tree on demand (the emitter asks for
// one pack and one header of a family), never by name similarity:
// - the call site: the call of the header's function whose result a `setGridSize(...)` /
//   `setBlockSize(...)` member call reads, followed through the pack (GeometryFlow.h): a local of
//   the same function (`geometry.gridX`), or a result handed back through the file's functions
//   and structs (`launch->geometry.gridX` of `kernelFits(...)`, which returns what
//   `implicitGemmLaunch` built from `conv::launchGeometry(...)`);
// - each argument's source, in order of trust: a metadata read (GeometryReads.h: a getter, a local
//   lambda, a reader function of the file; its key a constant or an element of a constant array
//   picked by a loop index), a literal, the descriptor's id (`toString(kernel.kernelId)`), a matcher
//   equality witness, an alias (a local bound to one of these), an array element filled in a loop
//   (`tuning[0]` of `tuning[i] = *intMetadata(kernel, FIELDS[i])`); for a struct argument, the
//   witnesses of each of its members (`{"N", p.n}` rows of kernelFits' table); anything else is
//   left unresolved, with its expression;
// - the header function's signature (namespace, parameters) and what the header includes.
#pragma once

#include <cstdint>
#include <map>
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
  // Where the value comes from ("MatchedProblem.problem"), and the metadata each of its members
  // is witnessed equal to (a struct argument is fed member by member): member -> (key, via).
  std::string origin;
  std::map<std::string, std::pair<std::string, std::string>> members;
};

struct GeometryCallSite {
  std::string function;             // the enclosing function ("Handler::prepare")
  uint32_t line = 0;                // 0-based line of the call
  std::string callee;               // the header function, as called (last component)
  std::string resultVar;            // the local bound to its result ("impact_r" when none is)
  // setGridSize's / setBlockSize's arguments, over the result: `<resultVar>.gridX`, a literal, or
  // as written in the call's function when it computes with the result there.
  std::vector<std::string> grid;
  std::vector<std::string> block;
  // What else the launch reads, on another path ("`conv::directLaunchGeometry(...)` in directLaunch").
  std::vector<std::string> others;
  std::vector<GeometryArgument> args;
  uint64_t fingerprint = 0;         // of the call, the grid/block calls and every argument's source text
};

// Every call site of `callee` in a pack whose result feeds setGridSize/setBlockSize.
std::vector<GeometryCallSite> findGeometryCallSites(std::string_view packText, std::string_view callee);

struct GeometryParam {
  std::string type;  // as written ("int64_t", "const std::string&")
  std::string name;
};

struct GeometryStruct {
  std::string name, qualified;           // "Problem", "ns::Problem"
  std::vector<GeometryParam> members;    // in declaration order
  std::vector<bool> defaulted;           // a member with a default initializer
};

struct GeometryHeader {
  bool found = false;
  std::string qualified;                 // "ns::attentionDenseGeometry"
  std::vector<GeometryParam> params;
  std::vector<std::string> includes;     // every #include path, as written (without <> or "")
  std::vector<std::string> statusNames;  // HIPDNN_PLUGIN_STATUS_* identifiers it uses
  std::string parseError;                // "" or the first syntax error
  std::vector<GeometryStruct> structs;   // the structs the header defines
  std::vector<std::string> functions;    // every function it defines (last component), in order
};

GeometryHeader readGeometryHeader(std::string_view headerText, std::string_view function);

}  // namespace impact
