// What the geometry differential evaluates (issue 17), read from the head's facts and files: each
// profile that declares a `grid` launch surface (and its `block`), with a Python locator and a
// header-function mirror; the pack's call site feeding setGridSize/setBlockSize
// (extract/cpp/GeometryCalls.h); each header parameter's source; the family's shipped variants
// (every UKD of its module and builder: `kernel_source.spec` for Python, `metadata` and `id` for
// C++). Pure: reads a snapshot and its facts, runs nothing.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/TreeFacts.h"
#include "emit/Geometry.h"
#include "extract/cpp/GeometryCalls.h"
#include "git/Snapshot.h"
#include "model/Layout.h"

namespace impact::emitter {

struct GeometryInput {
  std::string name, id;
  nlohmann::json spec, metadata;
};

// How the harness passes one header parameter.
struct GeometryFeed {
  enum class Kind { Integer, String, Literal, DescriptorId, Declared, Struct } kind = Kind::Integer;
  std::string key;      // Integer / String: the metadata key
  std::string literal;  // Literal: the C++ literal; Declared: the .impactd.yaml expression; Struct: its type
  // Struct: the header's struct built member by member (a member left out keeps its default).
  struct Member {
    std::string name, key;
    bool string = false;
  };
  std::vector<Member> members;
};

struct GeometryFamilyPlan {
  emit::GeometryFamily family;  // what is known before running (notChecked: the Python side cannot run)
  std::string cppWhy;           // why the C++ side cannot run ("" when it can)
  std::string source, builder;  // library-relative module, builder name
  GeometryCallSite site;
  GeometryHeader header;
  std::vector<GeometryFeed> feeds;  // one per header parameter
  std::vector<GeometryInput> variants;
};

// Every file whose edit can change a family's evaluation: each profile declaring a grid surface
// with a Python locator, its module and header, the C++ files including the header, the
// descriptors shipping the module. Pure; read from the facts alone (the language server asks on a save).
std::set<std::string> geometryInputs(const TreeFacts& facts, const Layout& layout);

std::vector<GeometryFamilyPlan> planGeometry(const Snapshot& head, const TreeFacts& facts, const Layout& layout);

// One variant's harness input line (tab-separated; strings hex-encoded), or "" with *why set when
// its metadata cannot feed a parameter.
std::string harnessLine(const GeometryFamilyPlan& plan, const GeometryInput& v, std::string* why);

}  // namespace impact::emitter
