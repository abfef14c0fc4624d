#include "extract/Extract.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
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
      f.fingerprint = yamlValueFingerprint(content);
      auto m = parseManifest(content);
      if (m.ok()) f.manifest = std::move(*m);
      else { f.ok = false; f.error = std::string(m.status().message()); }
      break;
    }
    case FileKind::Descriptor:
      extractDescriptor(path, content, f);
      break;
    case FileKind::GeneratorConfig: {
      f.fingerprint = yamlValueFingerprint(content);
      auto c = parseGeneratorConfig(content);
      if (c.ok()) f.generator = std::move(*c);
      else { f.ok = false; f.error = std::string(c.status().message()); }
      break;
    }
    case FileKind::Other:
      break;
  }
  return f;
}

FileFacts extractParsed(std::string_view path, const SyntaxTree& tree) {
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
    extractCpp(tree, f);
    extractCppFunctions(tree, f);
  }
  return f;
}

std::shared_ptr<const FileFacts> ExtractCache::put(const std::string& path, const std::string& contentId,
                                                   FileFacts facts) {
  auto p = std::make_shared<const FileFacts>(std::move(facts));
  std::lock_guard<std::mutex> lock(mu_);
  ++extractions_;
  map_[absl::StrCat(path, "\n", contentId)] = p;
  return p;
}

std::shared_ptr<const FileFacts> ExtractCache::get(
    const std::string& path, const std::string& contentId,
    const std::function<absl::StatusOr<std::string>()>& read) {
  std::string key = absl::StrCat(path, "\n", contentId);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = map_.find(key); it != map_.end()) return it->second;
  }
  std::shared_ptr<const FileFacts> facts;
  const bool stored = store_ && isBlobId(contentId);
  if (stored) {
    if (auto f = store_->load(path, contentId)) {
      auto p = std::make_shared<const FileFacts>(std::move(*f));
      std::lock_guard<std::mutex> lock(mu_);
      ++fromStore_;
      return map_.emplace(std::move(key), std::move(p)).first->second;
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
  return map_.emplace(std::move(key), std::move(facts)).first->second;
}

std::shared_ptr<const FileFacts> ExtractCache::find(const std::string& path, const std::string& contentId) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(absl::StrCat(path, "\n", contentId));
  return it == map_.end() ? nullptr : it->second;
}

size_t ExtractCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.size();
}

}  // namespace impact
