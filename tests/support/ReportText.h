// Reading `impact report` output in end-to-end tests.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "support/FixtureRepo.h"

namespace impact::testing {

// `impact report --repo <repo> --base main <extra>`
RunResult report(const FixtureRepo& repo, const std::string& extra = "");

// The fields of one printed row, split at runs of two spaces:
// `status  contract  python  <->  mirror  message...` -> {status, contract, python, "<->", mirror, ...}.
std::vector<std::string> rowFields(const std::string& line);

// `s` split at every `sep` ("a|b|" -> {a, b, ""}).
std::vector<std::string> splitOn(const std::string& s, const std::string& sep);

// The last non-empty line (the rollup).
std::string lastLine(const std::string& out);

// The lines that start with `prefix` and contain every needle.
std::vector<std::string> rowsStarting(const std::string& out, const std::string& prefix,
                                      std::initializer_list<std::string> needles = {});

// The lines containing every needle; a first needle that is a status (mismatch, changed,
// inert, "mismatch (pre-existing)") must start the line.
std::vector<std::string> rowsWith(const std::string& out, std::initializer_list<std::string> needles);

}  // namespace impact::testing
