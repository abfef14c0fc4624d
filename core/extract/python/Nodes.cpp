#include "extract/python/Nodes.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>

#include "absl/container/flat_hash_map.h"

#include "parse/Syntax.h"

namespace impact::pyextract {

const PyGrammar& PyGrammar::get() {
  static const PyGrammar g{language(Lang::Python), symbolNames(Lang::Python)};
  return g;
}

namespace {
TSFieldId lookUpField(const char* name) {
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
}  // namespace

TSFieldId fieldId(const char* name) {
  // Names are string literals: a small per-thread cache keyed by their address answers first.
  struct Slot {
    const char* name = nullptr;
    TSFieldId id = 0;
  };
  thread_local Slot cache[64];
  Slot& s = cache[(reinterpret_cast<uintptr_t>(name) >> 2) & 63];
  if (s.name != name) s = Slot{name, lookUpField(name)};
  return s.id;
}

namespace {
thread_local ChildListing* tCurrent = nullptr;
constexpr size_t kChunk = 4096;  // nodes per arena chunk
// From this many named children on, a node's list is read with a cursor (a cursor step costs
// about as much as three ts_node_named_child steps).
constexpr uint32_t kCursorFrom = 8;
}  // namespace

struct ChildListing::Impl {
  absl::flat_hash_map<const void*, std::pair<const TSNode*, uint32_t>> lists;  // node id -> its children
  std::vector<std::unique_ptr<TSNode[]>> chunks;  // the lists, never moved
  absl::flat_hash_map<std::pair<const void*, TSFieldId>, TSNode> fields;  // (node id, field) -> child
  size_t used = kChunk;  // in the last chunk
  TSTreeCursor cursor{};
  bool hasCursor = false;

  ~Impl() {
    if (hasCursor) ts_tree_cursor_delete(&cursor);
  }
  TSTreeCursor* cursorAt(TSNode n) {
    if (hasCursor) ts_tree_cursor_reset(&cursor, n);
    else cursor = ts_tree_cursor_new(n), hasCursor = true;
    return &cursor;
  }

  TSNode* room(size_t n) {
    if (n > kChunk) return chunks.emplace_back(new TSNode[n]).get();
    if (used + n > kChunk) {
      chunks.emplace_back(new TSNode[kChunk]);
      used = 0;
    }
    TSNode* at = chunks.back().get() + used;
    used += n;
    return at;
  }
};

ChildListing::ChildListing() : impl_(std::make_unique<Impl>()), outer_(tCurrent) { tCurrent = this; }
ChildListing::~ChildListing() { tCurrent = outer_; }

NodeList ChildListing::of(TSNode n) {
  auto [it, fresh] = impl_->lists.try_emplace(n.id);
  if (fresh) {
    uint32_t c = ts_node_named_child_count(n);
    TSNode* out = impl_->room(c);
    if (c < kCursorFrom) {
      for (uint32_t i = 0; i < c; ++i) out[i] = ts_node_named_child(n, i);
    } else {
      // ts_node_named_child(n, i) walks from the first child: quadratic on a long list (a
      // table of thousands of entries). A cursor steps once per child.
      TSTreeCursor* cur = impl_->cursorAt(n);
      uint32_t k = 0;
      if (ts_tree_cursor_goto_first_child(cur)) do {
          TSNode ch = ts_tree_cursor_current_node(cur);
          if (ts_node_is_named(ch) && k < c) out[k++] = ch;
        } while (ts_tree_cursor_goto_next_sibling(cur));
      for (; k < c; ++k) out[k] = ts_node_named_child(n, k);  // not expected: the count said so
    }
    it->second = {out, c};
  }
  return NodeList(it->second.first, it->second.second);
}

TSNode ChildListing::fieldOf(TSNode n, TSFieldId id) {
  auto [it, fresh] = impl_->fields.try_emplace(std::make_pair(n.id, id));
  if (fresh) it->second = ts_node_child_by_field_id(n, id);
  return it->second;
}

TSNode fieldChild(TSNode n, TSFieldId id) {
  if (tCurrent) return tCurrent->fieldOf(n, id);
  return ts_node_child_by_field_id(n, id);
}

NodeList namedChildren(TSNode n) {
  if (ts_node_is_null(n) || ts_node_named_child_count(n) == 0) return NodeList();
  if (tCurrent) return tCurrent->of(n);
  return NodeList(impact::namedChildren(n));
}

}  // namespace impact::pyextract
