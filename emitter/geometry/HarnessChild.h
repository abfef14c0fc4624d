// One child of the geometry harness (the compile, the run), confined like the emitter's child
// (process/Confine.h): reads the system, the compiler and `reads`; writes `scratch`; `env` is
// added to the allow-listed environment. Internal to geometry/Harness*.cpp.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "process/Confine.h"
#include "process/Sandbox.h"

namespace impact::emitter {

ChildResult confinedChild(std::vector<std::string> argv, const std::string& stdinText, const Confinement& c,
                          std::vector<std::string> reads, const std::string& scratch,
                          std::chrono::steady_clock::time_point deadline,
                          const std::map<std::string, std::string>& env = {});

}  // namespace impact::emitter
