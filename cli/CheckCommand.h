// `impact check`: what impactd understood of a tree (core/analysis/Check.h).
#pragma once

#include <string>
#include <vector>

namespace impact::cli {

// `impact check ...` (args after "check"); returns the exit code: 0 everything on the surface is
// read and compared (or set aside with why), 1 something is not, 2 usage, 3 could not run.
int checkCommand(const std::vector<std::string>& args);

}  // namespace impact::cli
