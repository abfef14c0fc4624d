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
  // The next message body; nullopt at the end of input. `problem` says why a frame was dropped,
  // and at the end of input how it ended when that was early (clangd's words: "Input was
  // aborted. Read only N bytes of expected M."; in the headers; a read error); "" when the input
  // ended between messages.
  std::optional<std::string> next(std::string& problem);
  // The charset named by the last message's Content-Type (lower case; "" when none was given).
  const std::string& charset() const { return charset_; }

 private:
  bool readLine(std::string& line);
  std::FILE* in_;
  size_t max_;
  std::string charset_;
};

// Whether a Content-Type charset is UTF-8 (LSP: "utf-8"; "utf8" is accepted for old clients, as
// vscode-jsonrpc does); "" (none given) is UTF-8.
bool isUtf8Charset(const std::string& charset);

// The deepest nesting of arrays and objects in a JSON text (strings skipped), stopping early
// once it passes `limit`. The JSON parser recurses per level: a body of a million '[' would
// overflow the stack, so deeper messages are refused before parsing.
size_t jsonNesting(const std::string& text, size_t limit);

}  // namespace impact::lsp
