#include "protocol/Framing.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace impact::lsp {

bool FrameReader::readLine(std::string& line) {
  line.clear();
  for (int c; (c = std::fgetc(in_)) != EOF;) {
    line.push_back(static_cast<char>(c));
    if (c == '\n') return true;
    if (line.size() > (1u << 20)) return true;  // an absurd header line: hand it over in pieces
  }
  return !line.empty();
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
std::string trimmed(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n\"'"), b = s.find_last_not_of(" \t\r\n\"'");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
// The charset parameter of a Content-Type header line ("" when it has none).
std::string charsetOf(const std::string& line) {
  std::string l = lower(line);
  size_t at = l.find("charset=");
  if (at == std::string::npos) return "";
  std::string v = l.substr(at + 8);
  if (size_t semi = v.find(';'); semi != std::string::npos) v.resize(semi);
  return trimmed(v);
}
}  // namespace

bool isUtf8Charset(const std::string& charset) { return charset.empty() || charset == "utf-8" || charset == "utf8"; }

std::optional<std::string> FrameReader::next(std::string& problem) {
  problem.clear();
  for (;;) {
    long long length = -1, conflicting = -1;
    std::string line;
    bool sawHeader = false;
    size_t headerBytes = 0;  // read of this message's headers (for the message when input ends)
    charset_.clear();
    for (;;) {
      if (!readLine(line)) {
        if (std::ferror(in_))
          problem = std::string("reading the input failed: ") + std::strerror(errno);
        else if (headerBytes > 0)
          problem = "Input was aborted in the headers of a message (" + std::to_string(headerBytes) +
                    " bytes read, no blank line ended them).";
        return std::nullopt;
      }
      headerBytes += line.size();
      if (lower(line).rfind("content-type:", 0) == 0) charset_ = charsetOf(line);
      auto pos = line.find("Content-Length:");
      if (pos != std::string::npos) {
        // Digits only, between optional blanks ("12abc", "0x20", "1 2", "+3" are malformed).
        const char* p = line.c_str() + pos + 15;
        while (*p == ' ' || *p == '\t') ++p;
        char* end = nullptr;
        errno = 0;
        long long v = std::isdigit(static_cast<unsigned char>(*p)) ? std::strtoll(p, &end, 10) : -1;
        if (end)
          while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n') ++end;
        v = (!end || *end != '\0' || errno != 0 || v < 0) ? -2 : v;
        if (sawHeader && v != length && length >= 0 && v >= 0) conflicting = v;
        else if (!sawHeader || length >= 0) length = v;
        sawHeader = true;
        continue;
      }
      bool blank = true;
      for (char c : line) blank = blank && (c == '\r' || c == '\n');
      if (blank && sawHeader) break;  // end of the headers
      // Any other header (Content-Type) or stray bytes: skipped.
    }
    if (conflicting >= 0) {
      problem = "a message with two different Content-Length headers (" + std::to_string(length) + " and " +
                std::to_string(conflicting) + ") was dropped";
      return std::string();
    }
    if (length < 0) {
      problem = "a message without a valid Content-Length was dropped";
      return std::string();
    }
    if (static_cast<unsigned long long>(length) > max_) {
      problem = "a message of " + std::to_string(length) + " bytes (limit " + std::to_string(max_) +
                ") was dropped";
      return std::string();
    }
    std::string body(static_cast<size_t>(length), '\0');
    size_t got = std::fread(body.data(), 1, body.size(), in_);
    if (got < body.size()) {  // truncated: the input ended (or failed) inside the body
      problem = std::ferror(in_) ? std::string("reading the input failed: ") + std::strerror(errno) + "; read only " +
                                       std::to_string(got) + " bytes of expected " + std::to_string(length) + "."
                                 : "Input was aborted. Read only " + std::to_string(got) + " bytes of expected " +
                                       std::to_string(length) + ".";
      return std::nullopt;
    }
    return body;
  }
}

size_t jsonNesting(const std::string& text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

}  // namespace impact::lsp
