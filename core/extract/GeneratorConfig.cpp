#include "extract/GeneratorConfig.h"
#include "extract/Manifest.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace impact {

bool isGeneratorConfigPath(std::string_view path) {
  if (!(path.ends_with(".yaml") || path.ends_with(".yml"))) return false;
  if (path.ends_with(".profile.yaml") || path.ends_with(".profile.yml")) return false;
  auto slash = path.rfind('/');
  if (slash == std::string_view::npos) return false;
  std::string_view folder = path.substr(0, slash);
  auto up = folder.rfind('/');
  return folder.substr(up == std::string_view::npos ? 0 : up + 1) == "configs";
}

namespace {

using Spec = std::map<std::string, std::string>;

// A plain YAML scalar as the generator's loader (PyYAML, YAML 1.1) reads it, in the text form
// descriptor specs use: booleans "true"/"false" (`on`/`off`/`yes`/`no` too), null "null", numbers
// and strings as written. A quoted scalar is a string.
std::string scalarText(const YAML::Node& n) {
  const std::string& s = n.Scalar();
  if (n.Tag() == "!") return s;  // quoted
  static const std::set<std::string> kTrue = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
  static const std::set<std::string> kFalse = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
  if (kTrue.count(s)) return "true";
  if (kFalse.count(s)) return "false";
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return "null";
  return s;
}

std::string str(const YAML::Node& map, const char* key) {
  if (!map || !map.IsMap()) return "";
  const YAML::Node v = map[key];
  return v && v.IsScalar() ? v.Scalar() : "";
}

// A mapping's scalar entries (nested values are no spec scalar: left out), minus `skip`.
void mergeScalars(const YAML::Node& map, Spec& into, const std::set<std::string>& skip = {}) {
  if (!map || !map.IsMap()) return;
  for (const auto& kv : map) {
    if (!kv.first.IsScalar() || skip.count(kv.first.Scalar())) continue;
    if (kv.second.IsScalar()) into[kv.first.Scalar()] = scalarText(kv.second);
    else if (kv.second.IsNull()) into[kv.first.Scalar()] = "null";
  }
}

std::vector<std::string> archOf(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) out.push_back(n.Scalar());
  if (n.IsSequence())
    for (const auto& x : n)
      if (x.IsScalar()) out.push_back(x.Scalar());
  return out;
}

// `engine: hipkernel:X` or `engine: {name: hipkernel:X, ...}`.
std::string engineOf(const YAML::Node& n) {
  if (!n) return "";
  if (n.IsScalar()) return n.Scalar();
  return str(n, "name");
}

using Vocabulary = std::map<std::string, std::map<std::string, std::string>>;  // field -> spec value -> metadata

// A group's `vocabulary: {dtype: {bf16: BF16}}`: the metadata spelling of spec values.
Vocabulary vocabularyOf(const YAML::Node& n) {
  Vocabulary out;
  if (!n || !n.IsMap()) return out;
  for (const auto& field : n) {
    if (!field.first.IsScalar() || !field.second.IsMap()) continue;
    for (const auto& kv : field.second)
      if (kv.first.IsScalar() && kv.second.IsScalar()) out[field.first.Scalar()][kv.first.Scalar()] = kv.second.Scalar();
  }
  return out;
}

// A kernel's name template filled in: `{field}` from the spec, `{md_field}` from the spec in the
// metadata's spelling (the vocabulary), `{tag}` from the arm (itself a template); a placeholder it
// cannot fill is kept as written.
std::string fillName(const std::string& tmpl, const Spec& spec, const std::string& tag, const Vocabulary& vocab = {}) {
  std::string out;
  for (size_t i = 0; i < tmpl.size();) {
    size_t close = tmpl[i] == '{' ? tmpl.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += tmpl[i++];
      continue;
    }
    std::string key = tmpl.substr(i + 1, close - i - 1);
    const bool md = key.starts_with("md_");
    std::string field = md ? key.substr(3) : key;
    if (key == "tag" && !tag.empty()) {
      out += tag;
    } else if (auto it = spec.find(field); it != spec.end()) {
      std::string value = it->second;
      if (auto f = vocab.find(field); md && f != vocab.end())
        if (auto m = f->second.find(value); m != f->second.end()) value = m->second;
      out += value;
    } else {
      out += tmpl.substr(i, close - i + 1);
    }
    i = close + 1;
  }
  return out;
}

// The kernel source fields of a mapping that states them: `kernel_source: {...}` or the fields
// directly (`kernel_defaults`, a variant group with its own `source` + `builder`).
// (No YAML::Node is kept: assigning one assigns through it, and throws for a missing key.)
struct SourceFields {
  std::string kind, source, builder, engine;
  Spec spec;
  uint32_t line = 0;
  bool any() const { return !source.empty() || !builder.empty(); }
};

SourceFields sourceFields(const YAML::Node& map) {
  SourceFields f;
  if (!map || !map.IsMap()) return f;
  const YAML::Node ks = map["kernel_source"] && map["kernel_source"].IsMap() ? map["kernel_source"] : map;
  f.kind = str(ks, "kind");
  f.source = str(ks, "source");
  f.builder = str(ks, "builder");
  mergeScalars(ks["spec"], f.spec);
  f.engine = engineOf(map["engine"]);
  f.line = static_cast<uint32_t>(ks.Mark().line);
  return f;
}

class ConfigReader {
 public:
  explicit ConfigReader(GeneratorConfig& out) : out_(out) {}

  void pack(const YAML::Node& p, size_t pi) {
    const std::string at = absl::StrCat("packs[", pi, "]");
    if (!p.IsMap()) {
      out_.problems.push_back(at + " is not a mapping");
      return;
    }
    Pack pk;
    pk.name = str(p, "name");
    pk.arch = archOf(p["arch"]);
    pk.defaults = sourceFields(p["kernel_defaults"]);
    pk.engine = engineOf(p["engine"]);
    if (pk.engine.empty()) pk.engine = pk.defaults.engine;
    if (pk.engine.empty()) pk.engine = out_.engine;
    pk.at = at;
    bool generates = false;
    if (const YAML::Node ks = p["kernels"]; ks && ks.IsSequence()) {
      generates = true;
      for (size_t i = 0; i < ks.size(); ++i) kernel(pk, ks[i], absl::StrCat(at, ".kernels[", i, "]"));
    }
    if (const YAML::Node vs = p["variants"]; vs && vs.IsSequence()) {
      generates = true;
      for (size_t i = 0; i < vs.size(); ++i) group(pk, vs[i], absl::StrCat(at, ".variants[", i, "]"));
    }
    if (const YAML::Node ax = p["axes"]; ax && ax.IsMap()) {
      generates = true;
      axes(pk, ax, p["kernel_template"], at + ".axes");
    }
    if (!generates && pk.defaults.any()) {
      GeneratorSource& s = source(pk, pk.defaults, at + ".kernel_defaults", pk.arch);
      if (s.variants.empty() && s.incomplete.empty()) s.incomplete = "the pack lists no kernels, variants or axes";
    }
  }

 private:
  struct Pack {
    std::string name, engine, at;
    std::vector<std::string> arch;
    SourceFields defaults;
  };

  // The source (pack, kind, source, builder) a kernel is built from: one entry per distinct one.
  GeneratorSource& source(const Pack& pk, const SourceFields& own, const std::string& where,
                          const std::vector<std::string>& arch) {
    const SourceFields& f = own.any() ? own : pk.defaults;
    std::string kind = !own.kind.empty() ? own.kind : pk.defaults.kind;
    std::string src = !own.source.empty() ? own.source : pk.defaults.source;
    std::string builder = !own.builder.empty() ? own.builder : pk.defaults.builder;
    std::string engine = !own.engine.empty() ? own.engine : pk.engine;
    for (auto& s : out_.sources)
      if (s.pack == pk.name && s.kind == kind && s.source == src && s.builder == builder && s.engine == engine) {
        for (const auto& a : arch)
          if (std::find(s.arch.begin(), s.arch.end(), a) == s.arch.end()) s.arch.push_back(a);
        return s;
      }
    GeneratorSource s;
    s.pack = pk.name;
    s.engine = engine;
    s.kind = kind;
    s.source = src;
    s.builder = builder;
    s.where = own.any() ? where : pk.at + ".kernel_defaults";
    s.line = f.line;
    s.arch = arch;
    out_.sources.push_back(std::move(s));
    return out_.sources.back();
  }

  bool add(GeneratorSource& s, GeneratorVariant v) {
    if (count_ >= kMaxGeneratorVariants) {
      if (s.incomplete.empty())
        s.incomplete = absl::StrCat("more than ", kMaxGeneratorVariants, " variants: the rest not expanded");
      return false;
    }
    ++count_;
    s.variants.push_back(std::move(v));
    return true;
  }

  Spec baseSpec(const Pack& pk) const { return pk.defaults.spec; }

  void kernel(const Pack& pk, const YAML::Node& k, const std::string& at) {
    if (!k.IsMap()) {
      out_.problems.push_back(at + " is not a mapping");
      return;
    }
    SourceFields own = sourceFields(k);
    GeneratorSource& s = source(pk, own, at + ".kernel_source", pk.arch);
    GeneratorVariant v;
    v.name = str(k, "name");
    v.spec = baseSpec(pk);
    for (const auto& [k, x] : own.spec) v.spec[k] = x;
    add(s, std::move(v));
  }

  void group(const Pack& pk, const YAML::Node& g, const std::string& at) {
    if (!g.IsMap()) {
      out_.problems.push_back(at + " is not a mapping");
      return;
    }
    std::vector<std::string> arch = archOf(g["arch"]);
    if (arch.empty()) arch = pk.arch;
    const SourceFields own = sourceFields(g);
    GeneratorSource& s = source(pk, own, at, arch);
    Spec base = baseSpec(pk);
    for (const auto& [k, x] : own.spec) base[k] = x;
    mergeScalars(g["spec_defaults"], base);
    const std::string tmpl = str(g, "name");
    const Vocabulary vocab = vocabularyOf(g["vocabulary"]);
    const YAML::Node knobSets = g["knob_sets"], shapes = g["shapes"];
    if (!shapes || !shapes.IsSequence()) {
      if (s.incomplete.empty()) s.incomplete = at + " has no shapes list";
      return;
    }
    for (size_t i = 0; i < shapes.size(); ++i) {
      const YAML::Node shape = shapes[i];
      if (!shape.IsMap()) {
        out_.problems.push_back(absl::StrCat(at, ".shapes[", i, "] is not a mapping"));
        continue;
      }
      Spec spec = base;
      mergeScalars(shape, spec, {"knobs", "resolved", "ordinal"});
      std::vector<YAML::Node> arms;
      const std::string knobs = str(shape, "knobs");
      if (!knobs.empty()) {
        const YAML::Node set = knobSets && knobSets.IsMap() ? knobSets[knobs] : YAML::Node();
        if (!set || !set.IsSequence()) {
          out_.problems.push_back(absl::StrCat(at, ".shapes[", i, "] names knob set ", knobs, ", which the group does not have"));
          if (s.incomplete.empty()) s.incomplete = absl::StrCat(at, ": knob set ", knobs, " not found");
          continue;
        }
        for (const auto& arm : set) arms.push_back(arm);
      }
      if (arms.empty()) arms.push_back(YAML::Node());
      for (const auto& arm : arms) {
        GeneratorVariant v;
        v.spec = spec;
        mergeScalars(arm, v.spec, {"tag", "metadata", "ordinal_offset"});
        const std::string tag = fillName(arm && arm.IsMap() ? str(arm, "tag") : "", v.spec, "", vocab);
        v.name = fillName(tmpl, v.spec, tag, vocab);
        if (!add(s, std::move(v))) return;
      }
    }
  }

  void axes(const Pack& pk, const YAML::Node& ax, const YAML::Node& tmpl, const std::string& at) {
    SourceFields own = sourceFields(tmpl);
    GeneratorSource& s = source(pk, own, at, pk.arch);
    Spec base = baseSpec(pk);
    for (const auto& [k, x] : own.spec) base[k] = x;
    const std::string name = str(tmpl, "name");
    std::vector<std::pair<std::string, std::vector<std::string>>> dims;
    for (const auto& kv : ax) {
      if (!kv.first.IsScalar() || !kv.second.IsSequence()) continue;
      if (base.count(kv.first.Scalar())) continue;  // the template pins it
      std::vector<std::string> values;
      for (const auto& v : kv.second)
        if (v.IsScalar()) values.push_back(scalarText(v));
      if (!values.empty()) dims.emplace_back(kv.first.Scalar(), std::move(values));
    }
    std::vector<size_t> at_(dims.size(), 0);
    for (;;) {
      GeneratorVariant v;
      v.spec = base;
      std::string suffix;
      for (size_t d = 0; d < dims.size(); ++d) {
        v.spec[dims[d].first] = dims[d].second[at_[d]];
        absl::StrAppend(&suffix, "_", dims[d].first, dims[d].second[at_[d]]);
      }
      v.name = name + suffix;
      if (!add(s, std::move(v))) return;
      size_t d = 0;
      while (d < dims.size() && ++at_[d] == dims[d].second.size()) at_[d++] = 0;
      if (d == dims.size()) break;
    }
  }

  GeneratorConfig& out_;
  size_t count_ = 0;
};

}  // namespace

absl::StatusOr<GeneratorConfig> parseGeneratorConfig(std::string_view content) {
  return parseGeneratorConfig(content, nullptr);
}

absl::StatusOr<GeneratorConfig> parseGeneratorConfig(std::string_view content, uint64_t* fingerprint) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(content));
  } catch (const YAML::Exception& e) {
    if (fingerprint) *fingerprint = yamlValueFingerprint(content);  // the text's hash: it is not YAML
    return absl::InvalidArgumentError(absl::StrCat("line ", e.mark.line + 1, ": ", e.msg));
  }
  if (fingerprint) *fingerprint = yamlValueFingerprint(root);
  GeneratorConfig c;
  if (!root || root.IsNull()) return c;
  if (!root.IsMap()) return absl::InvalidArgumentError("line 1: a generator config is a YAML mapping");
  try {
    c.engine = engineOf(root["engine"]);
    const YAML::Node packs = root["packs"];
    if (packs && !packs.IsSequence())
      return absl::InvalidArgumentError(absl::StrCat("line ", packs.Mark().line + 1, ": packs is not a list"));
    ConfigReader r(c);
    if (packs)
      for (size_t i = 0; i < packs.size(); ++i) r.pack(packs[i], i);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("line ", e.mark.line + 1, ": ", e.msg));
  }
  return c;
}

}  // namespace impact
