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

// The real conv loops' six appends as an X-macro (issue 36 item 3): the list of (kind, size, name)
// and the append, each kept once; the forms below compose them.
inline const std::string kConvLeadingArguments = R"CPP(#define CONV_LEADING_ARGUMENTS(X)                \
    X("global_buffer", POINTER_BYTES, "A")         \
    X("global_buffer", POINTER_BYTES, "B")         \
    X("global_buffer", POINTER_BYTES, "D")         \
    X("by_value", I32_BYTES, "A_bytes")            \
    X("by_value", I32_BYTES, "B_bytes")            \
    X("by_value", I32_BYTES, "D_bytes")
)CPP";
inline const std::string kConvAppendArgument = R"CPP(#define CONV_APPEND_ARGUMENT(kind, size, name)     \
    signature.push_back({kind, size, offset, name}); \
    offset += size;
)CPP";

// In the pack itself, in place of the loops: both macros, then the expansion.
inline const std::string kConvXMacro =
    kConvLeadingArguments + kConvAppendArgument + "    CONV_LEADING_ARGUMENTS(CONV_APPEND_ARGUMENT)\n";

// The X-macro kept in a header of the tree beside the pack: read from the snapshot analysed, at
// each revision; a header change is a change of the copy.
inline const std::string kConvHeaderText = "#ifndef GFX950_CONV_ARGUMENTS_HPP\n#define GFX950_CONV_ARGUMENTS_HPP\n" +
                                           kConvLeadingArguments + kConvAppendArgument + "#endif\n";
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
