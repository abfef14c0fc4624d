#include "extract/python/Nodes.h"

#include <cstring>
#include <string>
#include <unordered_map>

#include "parse/Syntax.h"

namespace impact::pyextract {

const PyGrammar& PyGrammar::get() {
  static const PyGrammar g = [] {
    PyGrammar p;
    p.lang = language(Lang::Python);
    uint32_t n = ts_language_symbol_count(p.lang);
    p.names.reserve(n);
    for (uint32_t s = 0; s < n; ++s) {
      const char* name = ts_language_symbol_name(p.lang, static_cast<TSSymbol>(s));
      p.names.emplace_back(name ? std::string_view(name) : std::string_view{});
    }
    return p;
  }();
  return g;
}

TSFieldId fieldId(const char* name) {
  static const std::unordered_map<std::string_view, TSFieldId> ids = [] {
    std::unordered_map<std::string_view, TSFieldId> m;
    const TSLanguage* lang = PyGrammar::get().lang;
    for (uint32_t f = 1, c = ts_language_field_count(lang); f <= c; ++f)
      if (const char* nm = ts_language_field_name_for_id(lang, static_cast<TSFieldId>(f)))
        m.emplace(nm, static_cast<TSFieldId>(f));
    return m;
  }();
  auto it = ids.find(std::string_view(name, std::strlen(name)));
  return it == ids.end() ? 0 : it->second;
}

}  // namespace impact::pyextract
