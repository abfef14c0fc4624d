#include "geometry/GeometryPlan.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "contracts/DeclaredSurfaces.h"

namespace impact::emitter {

namespace {

using nlohmann::json;

std::string baseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

bool integralType(const std::string& type) {
  for (const char* t : {"int64_t", "int32_t", "int", "long", "unsigned", "uint32_t", "uint64_t", "size_t", "bool"})
    if (type == t || type == absl::StrCat("const ", t) || type == absl::StrCat("std::", t) ||
        type == absl::StrCat("const std::", t))
      return true;
  return false;
}

bool stringType(const std::string& type) { return type.find("string") != std::string::npos; }

// Every shipped UKD of (source, builder) in the head's descriptors.
std::vector<GeometryInput> shippedVariants(const Snapshot& head, const TreeFacts& facts, const std::string& source,
                                           const std::string& builder, std::vector<std::string>& inputs,
                                           std::set<std::string>& archs) {
  std::vector<GeometryInput> out;
  std::set<std::string> seen;
  for (const auto& [path, f] : facts.files) {
    if (!f || !f->descriptor) continue;
    bool ships = false;
    for (const auto& l : f->descriptor->launches) ships = ships || (l.source == source && l.builder == builder);
    if (!ships) continue;
    auto text = head.read(path);
    if (!text.ok()) continue;
    json doc = json::parse(*text, nullptr, false);
    if (!doc.is_object()) continue;
    inputs.push_back(path);
    for (const auto& a : f->descriptor->arch) archs.insert(a);
    json ukds = doc.contains("kernelDescriptors") ? doc["kernelDescriptors"] : json::array({doc});
    if (!ukds.is_array()) continue;
    for (const auto& u : ukds) {
      if (!u.is_object() || !u.contains("kernel_source") || !u["kernel_source"].is_object()) continue;
      const json& ks = u["kernel_source"];
      if (ks.value("kind", "") != "rocke" || ks.value("source", "") != source || ks.value("builder", "") != builder)
        continue;
      GeometryInput v;
      v.id = u.contains("id") && u["id"].is_string() ? u["id"].get<std::string>() : "";
      v.name = u.contains("name") && u["name"].is_string() ? u["name"].get<std::string>() : v.id;
      v.spec = ks.contains("spec") && ks["spec"].is_object() ? ks["spec"] : json::object();
      v.metadata = u.contains("metadata") && u["metadata"].is_object() ? u["metadata"] : json::object();
      if (seen.insert(v.name).second) out.push_back(std::move(v));
    }
  }
  return out;
}

// A UKD's metadata completed with the profile's KMD defaults, as the descriptor loader completes
// it before the pack reads it (legacy records omit block_m and reach the pack as 256).
void completeMetadata(std::vector<GeometryInput>& variants, const std::vector<KmdField>& fields) {
  for (GeometryInput& v : variants)
    for (const KmdField& k : fields) {
      if (!k.defaultValue || v.metadata.contains(k.name)) continue;
      const std::string& d = *k.defaultValue;
      if (k.type == "int") {
        json n = json::parse(d, nullptr, false);
        if (n.is_number_integer()) v.metadata[k.name] = n;
      } else if (k.type == "bool") {
        if (d == "true" || d == "false") v.metadata[k.name] = d == "true";
      } else {
        v.metadata[k.name] = d;
      }
    }
}

// The pack calling the header function: a C++ file including the header whose call feeds the launch.
void findCallSite(const Snapshot& head, const TreeFacts& facts, GeometryFamilyPlan& plan, const std::string& function) {
  std::string header = baseName(plan.family.header);
  for (const auto& [path, f] : facts.files) {
    if (!f || f->kind != FileKind::Cpp || path == plan.family.header) continue;
    bool includes = false;
    for (const auto& inc : f->symbols.includes) includes = includes || baseName(inc) == header;
    if (!includes) continue;
    auto text = head.read(path);
    if (!text.ok()) continue;
    auto sites = findGeometryCallSites(*text, function);
    if (sites.empty()) continue;
    plan.site = sites.front();
    plan.family.pack = path;
    plan.family.otherPaths = plan.site.others;
    plan.family.packLine = plan.site.line;
    return;
  }
}

std::string bareType(std::string t) {
  for (const char* q : {"const ", "volatile "})
    while (t.starts_with(q)) t = t.substr(std::string_view(q).size());
  while (!t.empty() && (t.back() == '&' || t.back() == ' ')) t.pop_back();
  if (t.ends_with(" const")) t = t.substr(0, t.size() - 6);
  return t.substr(t.rfind(':') == std::string::npos ? 0 : t.rfind(':') + 1);
}

// A struct parameter fed member by member from the witnesses of the argument's members; "" or why not.
std::string structFeed(const GeometryStruct& s, const GeometryArgument& a, GeometryFeed& feed, std::string& from) {
  feed.kind = GeometryFeed::Kind::Struct;
  feed.literal = s.qualified;
  std::vector<std::string> parts;
  for (size_t m = 0; m < s.members.size(); ++m) {
    const GeometryParam& member = s.members[m];
    auto it = a.members.find(member.name);
    if (it == a.members.end()) {
      if (s.defaulted[m]) continue;
      return absl::StrCat("member ", s.name, "::", member.name, " of `", a.expression,
                          "` is witnessed equal to no metadata field");
    }
    if (!integralType(member.type) && !stringType(member.type))
      return absl::StrCat("member ", s.name, "::", member.name, " has type ", member.type, ", which metadata cannot feed");
    feed.members.push_back({member.name, it->second.first, stringType(member.type)});
    parts.push_back(absl::StrCat(member.name, " = ", it->second.first));
  }
  from = absl::StrCat(s.name, "{", absl::StrJoin(parts, ", "), "} from the metadata its members are witnessed equal to");
  if (!a.members.empty()) from += absl::StrCat(" (", a.members.begin()->second.second, ", ...)");
  return "";
}

const GeometryStruct* headerStruct(const GeometryHeader& h, const std::string& type) {
  std::string bare = bareType(type);
  for (const auto& s : h.structs)
    if (s.name == bare) return &s;
  return nullptr;
}

// Each header parameter's feed, and the plan's text; the first argument no source resolves makes
// the family "not checked".
void planArguments(GeometryFamilyPlan& plan, const std::map<std::string, std::string>* declared,
                   const std::map<std::string, std::string>* fromMetadata) {
  const auto& params = plan.header.params;
  const auto& args = plan.site.args;
  if (params.size() != args.size()) {
    plan.cppWhy = absl::StrCat("the call in ", plan.family.pack, " passes ", args.size(), " arguments; ",
                                          plan.family.headerFunction, " takes ", params.size());
    return;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    const GeometryArgument& a = args[i];
    const GeometryParam& p = params[i];
    GeometryFeed feed;
    std::string from, structWhy;
    const GeometryStruct* st = a.source.empty() ? headerStruct(plan.header, p.type) : nullptr;
    if (st) structWhy = structFeed(*st, a, feed, from);
    if (st && structWhy.empty()) {
      // fed member by member
    } else if (a.source == "metadata" && (integralType(p.type) || stringType(p.type))) {
      feed = GeometryFeed{};
      feed.kind = integralType(p.type) ? GeometryFeed::Kind::Integer : GeometryFeed::Kind::String;
      feed.key = a.value;
      from = absl::StrCat("metadata ", a.value);
    } else if (a.source == "literal") {
      feed = GeometryFeed{};
      feed.kind = GeometryFeed::Kind::Literal;
      feed.literal = a.value;
      from = absl::StrCat("literal ", a.value);
    } else if (a.source == "descriptor-id" && stringType(p.type)) {
      feed = GeometryFeed{};
      feed.kind = GeometryFeed::Kind::DescriptorId;
      from = "the descriptor's id";
    } else if (fromMetadata && fromMetadata->count(a.expression) && (integralType(p.type) || stringType(p.type))) {
      feed = GeometryFeed{};
      feed.kind = integralType(p.type) ? GeometryFeed::Kind::Integer : GeometryFeed::Kind::String;
      feed.key = fromMetadata->at(a.expression);
      from = absl::StrCat("metadata ", feed.key, ", declared (.impactd.yaml)");
    } else if (declared && declared->count(a.expression)) {
      feed = GeometryFeed{};
      feed.kind = GeometryFeed::Kind::Declared;
      feed.literal = declared->at(a.expression);
      from = absl::StrCat("declared `", feed.literal, "` (.impactd.yaml)");
    } else {
      plan.cppWhy =
          absl::StrCat("argument #", i + 1, " ", p.name, " (`", a.expression, "` in ", plan.family.pack, ") ",
                       structWhy.empty() ? "resolves to no metadata field, literal, equality witness, alias or "
                                           ".impactd.yaml declaration"
                                         : absl::StrCat("is not fed: ", structWhy, ", and .impactd.yaml declares no `",
                                                        a.expression, "`"));
      plan.feeds.clear();
      return;
    }
    plan.family.plan.push_back(absl::StrCat(p.name, " <- ", from, a.via.empty() ? "" : absl::StrCat(" (", a.via, ")")));
    plan.feeds.push_back(std::move(feed));
  }
}

// The profile's mirror names the header only (`cpp_mirror: …/Gfx950AttentionDenseGeometry.hpp`):
// the header function is the one of its functions whose result a pack's launch reads; more than
// one, or none, is said.
bool inferHeaderFunction(const Snapshot& head, const TreeFacts& facts, GeometryFamilyPlan& p, const std::string& text) {
  std::vector<std::string> reached;
  GeometryFamilyPlan first;
  for (const auto& fn : readGeometryHeader(text, "").functions) {
    GeometryFamilyPlan trial = p;
    findCallSite(head, facts, trial, fn);
    if (trial.family.pack.empty()) continue;
    if (reached.empty()) first = std::move(trial);
    reached.push_back(fn);
  }
  if (reached.size() != 1) {
    p.cppWhy = reached.empty()
                   ? absl::StrCat("the profile's mirror names ", p.family.header, " without a function, and no call of ",
                                  "its functions feeds setGridSize/setBlockSize in a C++ file including it")
                   : absl::StrCat("the profile's mirror names ", p.family.header, " without a function, and the launch ",
                                  "reads more than one of them (", absl::StrJoin(reached, ", "), ")");
    return false;
  }
  p = std::move(first);
  p.family.headerFunction = reached[0];
  return true;
}

// An axis of the launch that reads neither the header function's result nor a literal.
std::string unreadAxis(const GeometryFamilyPlan& plan) {
  for (bool grid : {true, false}) {
    const auto& axes = grid ? plan.site.grid : plan.site.block;
    for (size_t i = 0; i < axes.size(); ++i)
      if (axes[i].starts_with("?"))
        return absl::StrCat(grid ? "setGridSize" : "setBlockSize", "'s argument #", i + 1, " (`", axes[i].substr(1),
                            "` in ", plan.family.pack, ") is neither a literal nor computed from the result of ",
                            plan.family.headerFunction, " alone");
  }
  return "";
}

const SurfaceEntry* entryNamed(const Manifest& m, const std::string& name) {
  for (const auto& e : m.surfaces)
    if (e.name == name && !e.pythonProse && !e.pythonPath.empty()) return &e;
  return nullptr;
}

}  // namespace

std::set<std::string> geometryInputs(const TreeFacts& facts, const Layout& base) {
  std::set<std::string> out, headers, sources;
  for (const auto& [mpath, mf] : facts.files) {
    if (!mf || !mf->manifest) continue;
    const SurfaceEntry* grid = entryNamed(*mf->manifest, "grid");
    if (!grid) continue;
    out.insert(mpath);
    out.insert(profileLayout(*mf->manifest, base).libraryPath(grid->pythonPath));
    out.insert(grid->cppPath);
    headers.insert(baseName(grid->cppPath));
    sources.insert(grid->pythonPath);
  }
  if (headers.empty()) return out;
  for (const auto& [path, f] : facts.files) {
    if (!f) continue;
    if (f->kind == FileKind::Cpp)
      for (const auto& inc : f->symbols.includes)
        if (headers.count(baseName(inc))) out.insert(path);
    if (f->descriptor)
      for (const auto& l : f->descriptor->launches)
        if (sources.count(l.source)) out.insert(path);
  }
  return out;
}

std::vector<GeometryFamilyPlan> planGeometry(const Snapshot& head, const TreeFacts& facts, const Layout& base) {
  std::vector<GeometryFamilyPlan> out;
  for (const auto& [mpath, mf] : facts.files) {
    if (!mf || !mf->manifest) continue;
    const Manifest& m = *mf->manifest;
    const SurfaceEntry* grid = entryNamed(m, "grid");
    if (!grid) continue;
    const SurfaceEntry* block = entryNamed(m, "block");
    if (block && (block->pythonPath != grid->pythonPath || block->cppPath != grid->cppPath ||
                  block->cppSymbol != grid->cppSymbol))
      block = nullptr;  // another function pair: not this slice's form
    const Layout layout = profileLayout(m, base);
    GeometryFamilyPlan plan;
    emit::GeometryFamily& f = plan.family;
    f.manifest = mpath;
    f.module = layout.libraryPath(grid->pythonPath);
    f.gridFunction = grid->pythonSymbol;
    f.blockFunction = block ? block->pythonSymbol : "";
    f.header = grid->cppPath;
    f.headerFunction = grid->cppSymbol;
    plan.source = grid->pythonPath;
    plan.builder = m.builder;
    f.inputs = {mpath, f.module, f.header};
    std::set<std::string> archs;
    if (!m.arch.empty()) archs.insert(m.arch);
    if (plan.builder.empty())
      for (const auto& [p, df] : facts.files)
        if (df && df->descriptor)
          for (const auto& l : df->descriptor->launches)
            if (l.source == plan.source && plan.builder.empty()) plan.builder = l.builder;
    plan.variants = shippedVariants(head, facts, plan.source, plan.builder, f.inputs, archs);
    completeMetadata(plan.variants, m.kmdFields);
    f.archs.assign(archs.begin(), archs.end());
    out.push_back(std::move(plan));
    GeometryFamilyPlan& p = out.back();
    if (p.family.gridFunction.empty()) {
      p.family.notChecked = "the grid surface names no Python function";
      continue;
    }
    if (p.builder.empty()) {
      p.family.notChecked = absl::StrCat("no builder: the profile names none and no descriptor ships ", p.source);
      continue;
    }
    auto headerText = head.read(p.family.header);
    if (!headerText.ok()) {
      p.cppWhy = absl::StrCat("the header ", p.family.header, " is not in the tree");
      continue;
    }
    if (p.family.headerFunction.empty() && !inferHeaderFunction(head, facts, p, *headerText)) continue;
    p.header = readGeometryHeader(*headerText, p.family.headerFunction);
    if (!p.header.found) {
      p.cppWhy = absl::StrCat(p.family.header, " defines no function ", p.family.headerFunction);
      continue;
    }
    if (p.family.pack.empty()) findCallSite(head, facts, p, p.family.headerFunction);
    if (p.family.pack.empty()) {
      p.cppWhy = absl::StrCat("no call of ", p.family.headerFunction,
                                         " feeding setGridSize/setBlockSize in a C++ file including ", p.family.header);
      continue;
    }
    p.family.inputs.push_back(p.family.pack);
    if (std::string why = unreadAxis(p); !why.empty()) {
      p.cppWhy = why;
      continue;
    }
    std::string family = m.slug;
    if (family.empty()) family = baseName(mpath).substr(0, baseName(mpath).find('.'));
    auto declared = base.geometryDeclarations.find(family);
    auto fromMetadata = base.geometryMetadata.find(family);
    planArguments(p, declared == base.geometryDeclarations.end() ? nullptr : &declared->second,
                  fromMetadata == base.geometryMetadata.end() ? nullptr : &fromMetadata->second);
  }
  return out;
}

namespace {

std::string hex(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

}  // namespace

namespace {

// One metadata value as a harness field ("" with *why set when it cannot be one).
std::string metadataField(const json& metadata, const std::string& key, bool string, std::string* why) {
  if (!metadata.contains(key)) {
    *why = absl::StrCat("its metadata has no ", key);
    return "";
  }
  const json& m = metadata[key];
  if (string) {
    if (m.is_string()) return hex(m.get<std::string>());
    *why = absl::StrCat("its metadata ", key, " is not a string");
    return "";
  }
  if (m.is_boolean()) return m.get<bool>() ? "1" : "0";
  if (m.is_number_integer()) return std::to_string(m.get<int64_t>());
  *why = absl::StrCat("its metadata ", key, " (", m.dump(), ") is not an integer");
  return "";
}

}  // namespace

std::string harnessLine(const GeometryFamilyPlan& plan, const GeometryInput& v, std::string* why) {
  std::vector<std::string> fields;
  for (const GeometryFeed& feed : plan.feeds) {
    switch (feed.kind) {
      case GeometryFeed::Kind::Literal:
      case GeometryFeed::Kind::Declared: break;
      case GeometryFeed::Kind::DescriptorId: fields.push_back(hex(v.id)); break;
      case GeometryFeed::Kind::Struct:
        for (const auto& m : feed.members) {
          fields.push_back(metadataField(v.metadata, m.key, m.string, why));
          if (!why->empty()) return "";
        }
        break;
      default:
        fields.push_back(metadataField(v.metadata, feed.key, feed.kind == GeometryFeed::Kind::String, why));
        if (!why->empty()) return "";
    }
  }
  return fields.empty() ? "-" : absl::StrJoin(fields, "\t");
}

}  // namespace impact::emitter
