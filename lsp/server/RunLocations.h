// The editor locations of a report's rows (impact.run answers them beside the JSON report, so
// no client parses the text): absolute paths and LSP ranges (UTF-16) at each side's focus.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/Report.h"
#include "server/Types.h"

namespace impact::server {

// root: the work tree with a trailing '/'. A file's text is the open buffer (overlay, by
// repository-relative path) else the file on disk; a file that is in neither (deleted in the
// working tree, or only in a commit) keeps the report's own line and byte columns.
std::vector<RowLocations> rowLocations(const Report& report, const std::string& root,
                                       const std::map<std::string, std::string>& overlay);

}  // namespace impact::server
