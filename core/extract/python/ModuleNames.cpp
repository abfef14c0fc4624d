// Names of modules and words in module text, for the builder evaluator (DeclEval.h): relative
// imports resolved, module paths, which modules may hold declaring helpers, and the conservative
// text filters (`hasWord`, `calledIn`) that keep the evaluator off code that cannot declare.
#include <cctype>

#include "extract/python/DeclEvalImpl.h"

namespace impact::pyextract {

std::string resolveRelative(const std::string& from, const std::string& mod) {
  if (mod.empty() || mod[0] != '.' || from.empty()) return mod;  // not relative, or no package to be relative to
  size_t dots = mod.find_first_not_of('.');
  std::string rest = dots == std::string::npos ? "" : mod.substr(dots);
  std::string base = from;
  for (size_t i = 0; i < (dots == std::string::npos ? mod.size() : dots); ++i) {
    size_t cut = base.rfind('.');
    base = cut == std::string::npos ? "" : base.substr(0, cut);
  }
  if (base.empty()) return rest;
  return rest.empty() ? base : base + "." + rest;
}

namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool calledIn(std::string_view text, std::string_view name, bool function) {
  for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
    if (at > 0 && (isIdent(text[at - 1]) || text[at - 1] == '.')) continue;
    size_t e = at + name.size();
    if (e < text.size() && isIdent(text[e])) continue;
    if (function && e < text.size() && text[e] == '(') return true;
    if (!function && e < text.size() && text[e] == '.') {
      size_t k = e + 1;
      while (k < text.size() && isIdent(text[k])) ++k;
      if (k < text.size() && k > e + 1 && text[k] == '(') return true;
    }
  }
  return false;
}

bool hasWord(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    bool before = at == 0 || !isIdent(word[0]) || !isIdent(text[at - 1]);
    bool after = at + word.size() >= text.size() || !isIdent(text[at + word.size()]);
    if (before && after) return true;
  }
  return false;
}

std::string dottedOfPath(std::string path) {
  if (path.ends_with(".py")) path.resize(path.size() - 3);
  for (char& c : path)
    if (c == '/') c = '.';
  return path;
}

std::string helperPathInTree(const std::string& builderPath, const std::string& tailModule) {
  if (tailModule.empty()) return "";
  if (tailModule.front() == '.') {
    // Relative to the builder's own package, as Python resolves it: one dot is the builder's
    // folder, each further dot the folder above (whatever the import root: the library's
    // `rocke/library/`, the platform package's `rocke/platform/python/`).
    size_t dots = tailModule.find_first_not_of('.');
    if (dots == std::string::npos) return "";  // the package itself
    size_t slash = builderPath.rfind('/');
    std::string dir = slash == std::string::npos ? "" : builderPath.substr(0, slash);
    for (size_t i = 1; i < dots; ++i) {
      if (dir.empty()) return "";  // above the tree
      size_t cut = dir.rfind('/');
      dir = cut == std::string::npos ? "" : dir.substr(0, cut);
    }
    std::string rest = modulePathOf(tailModule.substr(dots));
    return dir.empty() ? rest : dir + "/" + rest;
  }
  const std::string root = "rocke/library/";
  size_t at = builderPath.rfind(root);
  if (at == std::string::npos) return "";
  std::string lib = builderPath.substr(0, at + root.size());
  if (tailModule.front() != '.') return lib + tailModule;
  std::string abs = resolveRelative(dottedOfPath(builderPath.substr(lib.size())), tailModule);
  return abs.empty() || abs.front() == '.' ? "" : lib + modulePathOf(abs);
}

bool mayHoldDeclaringHelpers(const std::string& dotted) {
  return !dotted.empty() && dotted != "rocke" && dotted.rfind("rocke.", 0) != 0;
}

std::string modulePathOf(const std::string& dotted) {
  if (dotted.empty() || dotted.front() == '.') return dotted;
  std::string p = dotted;
  for (char& ch : p)
    if (ch == '.') ch = '/';
  return p + ".py";
}

}  // namespace impact::pyextract
