#include "model/LayoutConfig.h"

#include <yaml-cpp/yaml.h>

#include "absl/strings/str_cat.h"

namespace impact {

namespace {
std::string withSlash(std::string s) {
  if (!s.empty() && s.back() != '/') s += '/';
  return s;
}
std::string withoutSlash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}
}  // namespace

absl::StatusOr<Layout> layoutFromYaml(std::string_view content, Layout layout) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(content));
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("line ", e.mark.line + 1, ": ", e.msg));
  }
  if (!root || root.IsNull()) return layout;
  if (!root.IsMap()) return absl::InvalidArgumentError("line 1: the layout configuration is a YAML mapping");
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>("");
    const YAML::Node& v = kv.second;
    auto where = [&] { return absl::StrCat("line ", v.Mark().line + 1, ": "); };
    auto one = [&](std::string& out, bool dir) -> absl::Status {
      if (!v.IsScalar()) return absl::InvalidArgumentError(absl::StrCat(where(), key, " must be a path"));
      out = dir ? withoutSlash(v.Scalar()) : v.Scalar();
      return absl::OkStatus();
    };
    auto many = [&](std::vector<std::string>& out, bool trailingSlash) -> absl::Status {
      if (!v.IsSequence()) return absl::InvalidArgumentError(absl::StrCat(where(), key, " must be a list of paths"));
      out.clear();
      for (const auto& x : v) {
        if (!x.IsScalar()) return absl::InvalidArgumentError(absl::StrCat(where(), key, " must be a list of paths"));
        out.push_back(trailingSlash ? withSlash(x.Scalar()) : withoutSlash(x.Scalar()));
      }
      return absl::OkStatus();
    };
    absl::Status st;
    if (key == "provider_root") st = one(layout.providerRoot, true);
    else if (key == "library_root") st = one(layout.libraryRoot, true);
    else if (key == "generic_target_table") st = one(layout.genericTargetTable, false);
    else if (key == "packs_dir") {
      st = one(layout.packsDir, false);
      layout.packsDir = withSlash(layout.packsDir);
    } else if (key == "python_roots") st = many(layout.pythonRoots, true);
    else if (key == "cpp_roots") st = many(layout.cppRoots, true);
    else if (key == "manifest_roots") st = many(layout.manifestRoots, true);
    else if (key == "descriptor_roots") st = many(layout.descriptorRoots, true);
    else if (key == "import_roots") st = many(layout.importRoots, false);
    else if (key == "geometry") {
      // {<family>: {<call-site expression>: <C++ expression of the other parameters> | {metadata: <key>}}}
      auto bad = [&] {
        return absl::InvalidArgumentError(absl::StrCat(where(), "geometry maps a family to {expression: C++ expression or {metadata: key}}"));
      };
      if (!v.IsMap()) st = bad();
      for (auto fam = v.begin(); st.ok() && fam != v.end(); ++fam) {
        // Nodes held by value: yaml-cpp's iterator hands out a temporary pair (a range-for over
        // `fam->second` read a destroyed node: ASan's stack-use-after-scope).
        const YAML::Node family = fam->first;
        const YAML::Node declarations = fam->second;
        if (!family.IsScalar() || !declarations.IsMap()) {
          st = bad();
          break;
        }
        for (auto e = declarations.begin(); e != declarations.end(); ++e) {
          const YAML::Node expression = e->first;
          const YAML::Node value = e->second;
          const YAML::Node key = value.IsMap() && value.size() == 1 ? value["metadata"] : YAML::Node();
          if (!expression.IsScalar() || !(value.IsScalar() || (key && key.IsScalar()))) {
            st = bad();
            break;
          }
          if (value.IsScalar()) layout.geometryDeclarations[family.Scalar()][expression.Scalar()] = value.Scalar();
          else layout.geometryMetadata[family.Scalar()][expression.Scalar()] = key.Scalar();
        }
      }
    }
    else st = absl::InvalidArgumentError(absl::StrCat(where(), "unknown key '", key, "'"));
    if (!st.ok()) return st;
  }
  if (!layout.genericTargetTable.ends_with("generic_targets.json") &&
      !layout.genericTargetTable.ends_with("generic-targets.json"))
    return absl::InvalidArgumentError("generic_target_table: the file name must end in generic_targets.json");
  return layout;
}

}  // namespace impact
