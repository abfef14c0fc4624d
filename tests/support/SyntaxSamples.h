// Source samples the parse-layer tests run over: the real files of ../shared/real-data (by
// extension; none when it is absent) and a C++ file of shapes the real files lack.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace impact::testing {

std::string readFile(const std::filesystem::path& p);
// Every file below ../shared/real-data with one of the extensions, sorted.
std::vector<std::filesystem::path> realFilesWithExtension(const std::vector<std::string>& exts);
// Nested classes, lambdas inside initializers, several declarators, a launch inside a lambda
// inside a class method, a broken declaration.
extern const char* const kOwnCppShapes;

}  // namespace impact::testing
