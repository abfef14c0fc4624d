#include "protocol/Validate.h"

#include <cstdint>

namespace impact::lsp {

namespace json = llvm::json;

namespace {

constexpr int64_t kMaxUinteger = 2147483647;

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

// "" when v is an integer in [0, 2^31-1] (or not a number at all: the handler's own parse says
// "expected integer"), else why not.
std::string checkUinteger(const json::Value& v, const std::string& path) {
  if (v.kind() != json::Value::Number) return "";
  std::string shown;
  llvm::raw_string_ostream os(shown);
  os << v;
  if (auto i = v.getAsInteger()) {
    if (*i >= 0 && *i <= kMaxUinteger) return "";
  } else if (!v.getAsUINT64()) {
    return "";  // a fraction: the handler's parse refuses it as it always did
  }
  return path + ": " + os.str() + " is not a uinteger (0 to 2147483647)";
}

std::string walk(const json::Value& v, const std::string& path, int depth) {
  if (depth > 64) return "";
  if (const json::Object* o = v.getAsObject()) {
    // A Position: an object with both members.
    const json::Value* line = o->get("line");
    const json::Value* character = o->get("character");
    if (line && character) {
      if (std::string bad = checkUinteger(*line, join(path, "line")); !bad.empty()) return bad;
      if (std::string bad = checkUinteger(*character, join(path, "character")); !bad.empty()) return bad;
    }
    if (const json::Value* len = o->get("rangeLength"))
      if (std::string bad = checkUinteger(*len, join(path, "rangeLength")); !bad.empty()) return bad;
    for (const auto& [key, member] : *o) {
      // Document texts are strings: nothing to walk.
      if (member.kind() != json::Value::Object && member.kind() != json::Value::Array) continue;
      if (std::string bad = walk(member, join(path, key.str()), depth + 1); !bad.empty()) return bad;
    }
    return "";
  }
  if (const json::Array* a = v.getAsArray()) {
    for (size_t i = 0; i < a->size(); ++i)
      if (std::string bad = walk((*a)[i], path + "[" + std::to_string(i) + "]", depth + 1); !bad.empty()) return bad;
  }
  return "";
}

}  // namespace

bool validId(const json::Value& id) { return id.kind() == json::Value::Number || id.kind() == json::Value::String; }

std::string uintegerProblem(const json::Value& params) { return walk(params, "", 0); }

}  // namespace impact::lsp
