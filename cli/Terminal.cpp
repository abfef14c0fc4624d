#include "cli/Terminal.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace impact::cli {

TextStyle textStyleForStdout() {
  TextStyle style;
  if (!::isatty(STDOUT_FILENO)) return style;
  style.summary = true;
  const char* noColor = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  style.color = !(noColor && *noColor) && !(term && std::strcmp(term, "dumb") == 0);
  return style;
}

}  // namespace impact::cli
