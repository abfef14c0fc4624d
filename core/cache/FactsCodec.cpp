#include "cache/FactsCodec.h"

#include <cstring>
#include <map>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace impact {

// size_t fields (DescriptorFacts::ukdCount) are written as uint64_t.
static_assert(std::is_same_v<size_t, uint64_t> || sizeof(size_t) < 8, "size_t is uint64_t on the project's platforms");

namespace {

// A flat binary encoding, little-endian as the machine writes it (the cache is local to one
// machine kind): integers fixed-width, strings and sequences length-prefixed, optionals
// flagged. One field list per struct (below) drives both directions.
class Writer {
 public:
  explicit Writer(std::string& o) : out(o) {}
  std::string& out;
  template <typename T>
  void pod(T v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void operator()(bool v) { pod<uint8_t>(v); }
  void operator()(uint32_t v) { pod(v); }
  void operator()(uint64_t v) { pod(v); }
  void operator()(int64_t v) { pod(v); }
  void operator()(const std::string& s) {
    pod<uint32_t>(static_cast<uint32_t>(s.size()));
    out += s;
  }
  template <typename E>
    requires std::is_enum_v<E>
  void operator()(E e) { pod<uint32_t>(static_cast<uint32_t>(e)); }
  template <typename T>
  void operator()(const std::vector<T>& v) {
    pod<uint32_t>(static_cast<uint32_t>(v.size()));
    for (const auto& x : v) (*this)(x);
  }
  template <typename K, typename V>
  void operator()(const std::map<K, V>& m) {
    pod<uint32_t>(static_cast<uint32_t>(m.size()));
    for (const auto& [k, v] : m) (*this)(k), (*this)(v);
  }
  template <typename T>
  void operator()(const std::optional<T>& o) {
    (*this)(o.has_value());
    if (o) (*this)(*o);
  }
  template <typename T>
    requires std::is_class_v<T>
  void operator()(const T& t) { fields(*this, const_cast<T&>(t)); }
  template <typename... Ts>
  void all(Ts&... ts) { ((*this)(ts), ...); }
};

struct Truncated {};

class CodecReader {
 public:
  explicit CodecReader(std::string_view in) : in_(in) {}
  bool done() const { return pos_ == in_.size(); }
  template <typename T>
  T pod() {
    if (in_.size() - pos_ < sizeof(T)) throw Truncated{};
    T v;
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  void operator()(bool& v) { v = pod<uint8_t>() != 0; }
  void operator()(uint32_t& v) { v = pod<uint32_t>(); }
  void operator()(uint64_t& v) { v = pod<uint64_t>(); }
  void operator()(int64_t& v) { v = pod<int64_t>(); }
  void operator()(std::string& s) {
    uint32_t n = pod<uint32_t>();
    if (in_.size() - pos_ < n) throw Truncated{};
    s.assign(in_.data() + pos_, n);
    pos_ += n;
  }
  template <typename E>
    requires std::is_enum_v<E>
  void operator()(E& e) { e = static_cast<E>(pod<uint32_t>()); }
  template <typename T>
  void operator()(std::vector<T>& v) {
    uint32_t n = pod<uint32_t>();
    if (n > in_.size() - pos_) throw Truncated{};  // every element takes at least one byte
    v.resize(n);
    for (auto& x : v) (*this)(x);
  }
  template <typename K, typename V>
  void operator()(std::map<K, V>& m) {
    uint32_t n = pod<uint32_t>();
    if (n > in_.size() - pos_) throw Truncated{};
    for (uint32_t i = 0; i < n; ++i) {
      K k;
      V v;
      (*this)(k), (*this)(v);
      m.emplace(std::move(k), std::move(v));
    }
  }
  template <typename T>
  void operator()(std::optional<T>& o) {
    bool has;
    (*this)(has);
    if (!has) return o.reset();
    o.emplace();
    (*this)(*o);
  }
  template <typename T>
    requires std::is_class_v<T>
  void operator()(T& t) { fields(*this, t); }
  template <typename... Ts>
  void all(Ts&... ts) { ((*this)(ts), ...); }

 private:
  std::string_view in_;
  size_t pos_ = 0;
};

}  // namespace

// One line per struct: every field the codec writes and reads, in order. Keep these lists
// equal to the structs; see FactsCodec.h.
#define IMPACT_CODEC(Type, ...)          \
  template <typename Ar>                 \
  void fields(Ar& ar, Type& t) {         \
    auto& [__VA_ARGS__] = t;             \
    ar.all(__VA_ARGS__);                 \
  }

// model/Facts.h
IMPACT_CODEC(SourceRange, line, col, endLine, endCol)
IMPACT_CODEC(SetAside, range, what, why)
IMPACT_CODEC(GuardNode, op, text, kids)
IMPACT_CODEC(Guard, nodes, root)
IMPACT_CODEC(TypeChoice, when, kind, typeClass, size, name)
IMPACT_CODEC(KernelArg, name, kind, size, offset, typeText, resolved, unresolvedReason, conditional, condition, range,
             typeClass, required, guard, choices, valueNames)
IMPACT_CODEC(PyAbi, origin, guard, args, tailHelper, tailModule, when, tailCall)
IMPACT_CODEC(PyHook, name, function, after)
IMPACT_CODEC(PyBuilder, name, style, range, bodyRange, abis, fingerprint, hooks, notRead, readThrough)
IMPACT_CODEC(CppArgList::BuilderHint, source, builder)
IMPACT_CODEC(CppArgList::CatalogEntry, arch, family, symbol, opKind, persistent, grid, block, geometry)
IMPACT_CODEC(NameBinding, name, map, valueType, why, range)
IMPACT_CODEC(BindingSet, function, variable, range, bindings)
IMPACT_CODEC(CppArgList, form, symbol, variable, named, range, args, fingerprint, builderHint, spec, catalog, openTail, openBefore,
             openStart, rejects, readThrough)
IMPACT_CODEC(SurfaceEntry, name, pythonPath, pythonSymbol, cppPath, cppSymbol, kmdFields, guard, testPath, line,
             pythonProse, proseFiles, proseSymbols, cppMoreSymbols)
IMPACT_CODEC(KmdField, name, type, defaultValue)
IMPACT_CODEC(Manifest, arch, slug, providerRoot, source, builder, kmdFields, surfaces)
IMPACT_CODEC(DescriptorLaunch, source, builder, arch, ukdName, spec, specFields)
IMPACT_CODEC(PyNameList, function, range, evaluated, reason, names, kinds, sites)
IMPACT_CODEC(DescriptorFacts, type, id, name, dispatch, arch, launches, legacyLaunches, ukdArchs, ukdCount, notInspected,
             genericTargets)
IMPACT_CODEC(GeneratorVariant, name, spec)
IMPACT_CODEC(GeneratorSource, pack, engine, kind, source, builder, where, line, arch, variants, incomplete)
IMPACT_CODEC(GeneratorConfig, engine, sources, problems)
// model/CppSymbols.h
IMPACT_CODEC(CppStringConstant, name, qualified, value, line, col)
IMPACT_CODEC(CppKmdRead, field, constant, method, line, col)
IMPACT_CODEC(DescriptorSymbol, key, value, scope, line)
IMPACT_CODEC(KmdSchemaField, name, type, hasDefault, line)
IMPACT_CODEC(CppEngineRegistration, engine, function, line)
IMPACT_CODEC(CppSymbolFacts, constants, kmdReads, includes, descriptorSymbols, kmdFields, kmdSchema, engineRegistrations)
// model/PythonModule.h
IMPACT_CODEC(PyRange, line, col, endLine, endCol)
IMPACT_CODEC(PyTypedRead, receiver, type, member)
IMPACT_CODEC(PyDef, kind, name, params, bases, aliasOf, range, nameLine, fingerprint, refs, members, typedReads)
IMPACT_CODEC(PyImport, module, name, alias, function, line)
IMPACT_CODEC(PyModuleFacts, defs, imports, moduleRefs)

#undef IMPACT_CODEC

// A struct that gains or loses a field no longer matches its line above: the structured
// binding in IMPACT_CODEC stops the build until the line lists every field again.

// FileFacts: every field but the path (an entry serves every path of its kind).
template <typename Ar>
void factsFields(Ar& ar, FileFacts& f) {
  auto& [path, kind, ok, error, fingerprint, builders, lists, manifest, descriptor, generator, module, symbols, nameLists,
         nameArrays, setAside, bindingSets, opKinds] = f;
  (void)path;
  ar.all(kind, ok, error, fingerprint, builders, lists, manifest, descriptor, generator, module, symbols, nameLists,
         nameArrays, setAside, bindingSets, opKinds);
}

void encodeFactsInto(const FileFacts& f, std::string& out) {
  Writer w(out);
  factsFields(w, const_cast<FileFacts&>(f));
}

std::string encodeFacts(const FileFacts& f) {
  std::string out;
  encodeFactsInto(f, out);
  return out;
}

absl::StatusOr<FileFacts> decodeFacts(std::string_view bytes, std::string_view path) {
  FileFacts f;
  CodecReader r(bytes);
  try {
    factsFields(r, f);
  } catch (const Truncated&) {
    return absl::DataLossError("facts entry does not decode: truncated");
  } catch (const std::exception& e) {  // std::bad_alloc, std::length_error on a corrupt count
    return absl::DataLossError(absl::StrCat("facts entry does not decode: ", e.what()));
  }
  if (!r.done()) return absl::DataLossError("facts entry does not decode: bytes left over");
  if (static_cast<uint32_t>(f.kind) > static_cast<uint32_t>(FileKind::Other))
    return absl::DataLossError("facts entry does not decode: unknown file kind");
  f.path = std::string(path);
  return f;
}

}  // namespace impact
