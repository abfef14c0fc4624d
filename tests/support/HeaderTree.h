// A pretend tree of C++ headers for extraction with a HeaderReader, and the real packs of
// ../shared/real-data/rocm-libraries read at test time (tests/unit/CppHeaderMacrosTest.cpp,
// CppListTypeFormsTest.cpp).
#pragma once

#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "extract/Extract.h"
#include "extract/cpp/Macros.h"
#include "parse/Syntax.h"
#include "support/RealCorpus.h"

namespace impact::testing {

inline constexpr const char* kPacks = "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/";

// A real pack's text ("" when ../shared is absent).
inline std::string readReal(const std::string& name) {
  std::ifstream in(realCorpusDir() + "/" + kPacks + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Headers of a pretend tree (path -> text), found beside the includer as the analysis finds them.
struct HeaderTree {
  std::map<std::string, std::string> files;
  std::vector<std::string> asked;
  cpp::HeaderReader reader() {
    return [this](const std::string& includer, const std::string& written) -> std::optional<cpp::HeaderText> {
      std::string dir = includer.empty() ? std::string(kPacks) : includer.substr(0, includer.rfind('/') + 1);
      asked.push_back(dir + written);
      auto it = files.find(dir + written);
      if (it == files.end()) return std::nullopt;
      return cpp::HeaderText{it->first, it->second};
    };
  }
};

// The pack `name` (under kPacks) extracted with the headers of `tree` (none when null).
inline FileFacts extractWith(const std::string& name, const std::string& src, HeaderTree* tree) {
  auto t = SyntaxTree::parse(Lang::Cpp, src);
  cpp::HeaderReader r = tree ? tree->reader() : cpp::HeaderReader{};
  return extractParsed(std::string(kPacks) + name, *t, tree ? &r : nullptr);
}

}  // namespace impact::testing
