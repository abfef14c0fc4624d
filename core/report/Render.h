// Renders a Report as text (one line per row, then the rollup) or JSON (docs/report-json.md).
#pragma once

#include <string>

#include "model/Report.h"

namespace impact {

// How text is dressed for a terminal (cli decides: stdout is a tty, NO_COLOR unset).
struct TextStyle {
  bool color = false;    // status words, [merged] and the verdict in ANSI colors
  bool summary = false;  // one line of counts per status before the verdict
};

std::string renderText(const Report& r, const TextStyle& style = {});
// "summary: 1 mismatch (1 pre-existing), 3 changed, 1 inert" ("summary: no rows" when none).
std::string summaryLine(const Report& r);
std::string renderJson(const Report& r);

}  // namespace impact
