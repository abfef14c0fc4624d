// FileFacts as JSON, for `impact facts FILE` (seeing what impactd reads in a file).
#pragma once

#include <string>

#include "model/Facts.h"

namespace impact {

std::string renderFactsJson(const FileFacts& f);

}  // namespace impact
