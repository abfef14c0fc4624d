// Text of the real gfx950 conv pack that the C++ list-form tests rewrite (unit and e2e), and the
// comparison of open ends across rewrites that move lines.
#pragma once

#include <string>

namespace impact::testing {

// The real conv signature's two loops over literal lists, as they stand in the real file.
inline constexpr const char* kConvLoops = R"CPP(    for(const auto* name : {"A", "B", "D"})
    {
        signature.push_back({"global_buffer", POINTER_BYTES, offset, name});
        offset += POINTER_BYTES;
    }
    for(const auto* name : {"A_bytes", "B_bytes", "D_bytes"})
    {
        signature.push_back({"by_value", I32_BYTES, offset, name});
        offset += I32_BYTES;
    }
)CPP";

// The X-macro kept in a header of the tree beside the pack (issue 36 item 3): read from the
// snapshot analysed, at each revision; a header change is a change of the copy.
inline constexpr const char* kConvHeaderText = R"CPP(#ifndef GFX950_CONV_ARGUMENTS_HPP
#define GFX950_CONV_ARGUMENTS_HPP
#define CONV_LEADING_ARGUMENTS(X)                \
    X("global_buffer", POINTER_BYTES, "A")         \
    X("global_buffer", POINTER_BYTES, "B")         \
    X("global_buffer", POINTER_BYTES, "D")         \
    X("by_value", I32_BYTES, "A_bytes")            \
    X("by_value", I32_BYTES, "B_bytes")            \
    X("by_value", I32_BYTES, "D_bytes")
#define CONV_APPEND_ARGUMENT(kind, size, name)     \
    signature.push_back({kind, size, offset, name}); \
    offset += size;
#endif
)CPP";
inline constexpr const char* kConvHeader =
    "dnn-providers/hip-kernel-provider/src/engines/kernel_ingestor_engine/packs/Gfx950ConvArguments.hpp";

// An open end's text with its line numbers left out (a rewrite moves lines).
inline std::string noLines(std::string s) {
  for (size_t at = s.find("(line "); at != std::string::npos; at = s.find("(line ", at + 1)) {
    size_t end = s.find(')', at);
    if (end != std::string::npos) s.replace(at, end - at + 1, "(line)");
  }
  return s;
}

}  // namespace impact::testing
