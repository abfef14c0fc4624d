// How `impact` dresses its text for where stdout goes: a terminal gets colors and a summary
// line; a pipe or file gets plain text; NO_COLOR (https://no-color.org) turns colors off.
#pragma once

#include "report/Render.h"

namespace impact::cli {

TextStyle textStyleForStdout();

}  // namespace impact::cli
