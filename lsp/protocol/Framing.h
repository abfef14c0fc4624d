// Reads LSP messages (Content-Length framed) from a stream, recovering from garbage: header
// lines it does not know are skipped, a length that is absent or over the limit drops that
// message, and a new "Content-Length:" anywhere in a line starts the next one.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

namespace impact::lsp {

class FrameReader {
 public:
  explicit FrameReader(std::FILE* in, size_t maxBytes = 64u << 20) : in_(in), max_(maxBytes) {}
  // The next message body; nullopt at the end of input. `problem` says why a frame was dropped.
  std::optional<std::string> next(std::string& problem);

 private:
  bool readLine(std::string& line);
  std::FILE* in_;
  size_t max_;
};

// The deepest nesting of arrays and objects in a JSON text (strings skipped), stopping early
// once it passes `limit`. The JSON parser recurses per level: a body of a million '[' would
// overflow the stack, so deeper messages are refused before parsing.
size_t jsonNesting(const std::string& text, size_t limit);

}  // namespace impact::lsp
