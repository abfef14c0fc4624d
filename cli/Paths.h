// Path options made absolute where impact parses them. The emitter's children run in a home of
// their own, so a relative path handed on would name a file there, not the one the user meant:
// every path option is resolved against the working directory impact was started in.
#pragma once

#include <string>

namespace impact::cli {

// `path` against the working directory (an absolute one as given); "" stays "" (the option's default).
std::string absolutePath(const std::string& path);

}  // namespace impact::cli
