#include "extract/Extract.h"

#include <algorithm>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cache/FactsCodec.h"
#include "extract/CppFacts.h"
#include "extract/CppFunctions.h"
#include "extract/Descriptor.h"
#include "extract/GeneratorConfig.h"
#include "extract/Manifest.h"
#include "extract/PythonFacts.h"
#include "extract/TextChecks.h"
#include "parse/Syntax.h"

namespace impact {

namespace {
// A git blob id: 40 (SHA-1) or 64 (SHA-256) lower-case hex digits.
bool isBlobId(std::string_view id) {
  if (id.size() != 40 && id.size() != 64) return false;
  for (char c : id)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool isSourceFile(std::string_view path, std::initializer_list<const char*> exts) {
  for (const char* e : exts)
    if (path.ends_with(e)) return true;
  return false;
}
}  // namespace

std::string unreadableReason(FileKind kind, std::string_view content) {
  return TextChecks::of(content).reason(kind, content);
}

FileKind classify(std::string_view path) {
  if (path.ends_with(".profile.yaml") || path.ends_with(".profile.yml")) return FileKind::Manifest;
  if (isGeneratorConfigPath(path)) return FileKind::GeneratorConfig;
  if (!descriptorType(path).empty() || isAotCatalog(path)) return FileKind::Descriptor;
  if (path.ends_with(".py")) return FileKind::Python;
  if (isSourceFile(path, {".cpp", ".cc", ".cxx", ".hpp", ".hh", ".h", ".hxx", ".inl"})) return FileKind::Cpp;
  return FileKind::Other;
}

FileFacts extractFile(std::string_view path, std::string_view content) {
  FileFacts f;
  f.path = std::string(path);
  f.kind = classify(path);
  f.fingerprint = fnv1a(content);
  if (f.kind == FileKind::Other) return f;

  if (std::string why = unreadableReason(f.kind, content); !why.empty()) {
    f.ok = false;
    f.error = why;
    return f;
  }

  switch (f.kind) {
    case FileKind::Python:
    case FileKind::Cpp: {
      Lang lang = f.kind == FileKind::Python ? Lang::Python : Lang::Cpp;
      return extractParsed(path, *SyntaxTree::parse(lang, std::string(content)));
    }
    case FileKind::Manifest: {
      auto m = parseManifest(content, &f.fingerprint);
      if (m.ok()) f.manifest = std::move(*m);
      else { f.ok = false; f.error = std::string(m.status().message()); }
      break;
    }
    case FileKind::Descriptor:
      extractDescriptor(path, content, f);
      break;
    case FileKind::GeneratorConfig: {
      auto c = parseGeneratorConfig(content, &f.fingerprint);
      if (c.ok()) f.generator = std::move(*c);
      else { f.ok = false; f.error = std::string(c.status().message()); }
      break;
    }
    case FileKind::Other:
      break;
  }
  return f;
}

FileFacts extractParsed(std::string_view path, const SyntaxTree& tree) { return extractParsed(path, tree, nullptr); }

FileFacts extractParsed(std::string_view path, const SyntaxTree& tree, const cpp::HeaderReader* headers) {
  FileFacts f;
  f.path = std::string(path);
  f.kind = tree.lang() == Lang::Python ? FileKind::Python : FileKind::Cpp;
  f.fingerprint = codeFingerprint(tree);
  if (std::string err = tree.firstError(); !err.empty()) {
    f.ok = false;
    f.error = err;
  }
  if (tree.lang() == Lang::Python) extractPython(tree, f);
  else {
    extractCpp(tree, f, headers);
    extractCppFunctions(tree, f);
  }
  return f;
}

std::shared_ptr<const FileFacts> ExtractCache::insertLocked(std::string key, std::shared_ptr<const FileFacts> facts) {
  auto [it, fresh] = map_.try_emplace(std::move(key));
  Entry& e = it->second;
  if (!fresh) bytes_ -= e.bytes;
  e.facts = std::move(facts);
  e.used = ++tick_;
  e.bytes = 0;
  std::shared_ptr<const FileFacts> out = e.facts;  // held while the sweep runs: never the one evicted
  if (bound_) {
    // The facts' encoded size and the key: what the entry costs, give or take the containers.
    e.bytes = encodeFacts(*e.facts).size() + it->first.size() + sizeof(Entry) + sizeof(FileFacts);
    bytes_ += e.bytes;
    sinceSweep_ += e.bytes;
    // A sweep walks every entry: one per eighth of the bound inserted keeps its cost linear.
    if (sinceSweep_ > bound_ / 8) sweepLocked();
  }
  return out;
}

void ExtractCache::sweepLocked() {
  sinceSweep_ = 0;
  // The entries only the cache holds (use_count 1: no facts of a tree or buffer point at them).
  std::vector<std::pair<uint64_t, const std::string*>> unheld;
  size_t unheldBytes = 0;
  for (const auto& [key, e] : map_)
    if (e.facts.use_count() == 1) {
      unheld.emplace_back(e.used, &key);
      unheldBytes += e.bytes;
    }
  if (unheldBytes <= bound_) return;
  std::sort(unheld.begin(), unheld.end());
  std::vector<std::string> evict;
  for (const auto& [used, key] : unheld) {
    if (unheldBytes <= bound_) break;
    unheldBytes -= map_.find(*key)->second.bytes;
    evict.push_back(*key);
  }
  for (const auto& k : evict) {
    auto it = map_.find(k);
    bytes_ -= it->second.bytes;
    map_.erase(it);
    ++evictions_;
  }
}

void ExtractCache::setBound(size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (bytes && !bound_)
    for (auto& [key, e] : map_) {
      e.bytes = encodeFacts(*e.facts).size() + key.size() + sizeof(Entry) + sizeof(FileFacts);
      bytes_ += e.bytes;
    }
  bound_ = bytes;
  if (bound_) sweepLocked();
}

size_t ExtractCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

size_t ExtractCache::evictions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return evictions_;
}

std::shared_ptr<const FileFacts> ExtractCache::put(const std::string& path, const std::string& contentId,
                                                   FileFacts facts) {
  auto p = std::make_shared<const FileFacts>(std::move(facts));
  std::lock_guard<std::mutex> lock(mu_);
  ++extractions_;
  return insertLocked(absl::StrCat(path, "\n", contentId), std::move(p));
}

std::shared_ptr<const FileFacts> ExtractCache::get(
    const std::string& path, const std::string& contentId,
    const std::function<absl::StatusOr<std::string>()>& read) {
  std::string key = absl::StrCat(path, "\n", contentId);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = map_.find(key); it != map_.end()) {
      it->second.used = ++tick_;
      return it->second.facts;
    }
  }
  std::shared_ptr<const FileFacts> facts;
  const bool stored = store_ && isBlobId(contentId);
  if (stored) {
    if (auto f = store_->load(path, contentId)) {
      auto p = std::make_shared<const FileFacts>(std::move(*f));
      std::lock_guard<std::mutex> lock(mu_);
      ++fromStore_;
      if (auto it = map_.find(key); it != map_.end()) return it->second.facts;  // another thread was first
      return insertLocked(std::move(key), std::move(p));
    }
  }
  if (auto content = read(); content.ok()) {
    facts = std::make_shared<const FileFacts>(extractFile(path, *content));
    if (stored) store_->store(path, contentId, *facts);
  } else {
    FileFacts f;
    f.path = path;
    f.kind = classify(path);
    f.ok = false;
    f.error = std::string(content.status().message());
    // Not cached: the next request reads again (and its caller learns of the failure).
    return std::make_shared<const FileFacts>(std::move(f));
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++extractions_;
  if (auto it = map_.find(key); it != map_.end()) return it->second.facts;  // another thread was first
  return insertLocked(std::move(key), std::move(facts));
}

std::shared_ptr<const FileFacts> ExtractCache::find(const std::string& path, const std::string& contentId) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(absl::StrCat(path, "\n", contentId));
  if (it == map_.end()) return nullptr;
  const_cast<Entry&>(it->second).used = ++tick_;
  return it->second.facts;
}

size_t ExtractCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.size();
}

}  // namespace impact
