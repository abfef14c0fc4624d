// The tool's name, version and home, as `impact --version` and the SARIF driver state them.
#pragma once

namespace impact {

inline constexpr const char* kToolName = "impact";
inline constexpr const char* kToolVersion = "0.1.0";  // keep equal to project(VERSION) in CMakeLists.txt
// Where a reader of a SARIF log or an annotation learns what impactd is (SARIF informationUri).
inline constexpr const char* kToolInformationUri = "https://github.com/ROCm/impactd";

}  // namespace impact
