// Renders a Report as text (one line per row, then the rollup) or JSON (docs/report-json.md).
#pragma once

#include <string>

#include "model/Report.h"

namespace impact {

std::string renderText(const Report& r);
std::string renderJson(const Report& r);

}  // namespace impact
