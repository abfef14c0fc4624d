// Node helpers of the Python extractor: the same answers as parse/Syntax.h's `type`, `is` and
// `field`, without their per-call costs (a node's type read from a table of the grammar's
// symbol names instead of ts_node_type and strlen; a field's id looked up once per name instead
// of tree-sitter's linear scan of every field name on each call). Declared in impact::pyextract,
// they hide the generic ones in every file of the Python extractor that includes this header.
// Python trees only. (Listing children stays parse/Syntax.h's: with tree-sitter 0.20 a cursor
// step costs more than ts_node_named_child on the short child lists of a Python tree.)
#pragma once

#include <tree_sitter/api.h>

#include <string_view>
#include <vector>

#include "parse/Syntax.h"

namespace impact::pyextract {

struct PyGrammar {
  const TSLanguage* lang = nullptr;
  std::vector<std::string_view> names;  // symbol id -> ts_node_type's name
  static const PyGrammar& get();
};

inline std::string_view type(TSNode n) {
  if (ts_node_is_null(n)) return {};
  static const PyGrammar& g = PyGrammar::get();
  TSSymbol s = ts_node_symbol(n);  // the public symbol: its name is ts_node_type's
  if (s < g.names.size()) return g.names[s];
  return ts_language_symbol_name(g.lang, s);  // ERROR and other built-in symbols
}

inline bool is(TSNode n, std::string_view t) { return type(n) == t; }

// The id of a field of the Python grammar (0: no such field), looked up once per name.
TSFieldId fieldId(const char* name);

inline TSNode field(TSNode n, const char* name) {
  if (ts_node_is_null(n)) return TSNode{};
  TSFieldId id = fieldId(name);
  if (id == 0) return TSNode{};
  return ts_node_child_by_field_id(n, id);
}

}  // namespace impact::pyextract
