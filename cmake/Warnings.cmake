# The warnings of the project's own code (core, emitter, cli, lsp; not the tree-sitter grammars,
# nor the test programs): -Wall -Wextra, and with IMPACT_WERROR every warning is an error. Off by
# default, so that a newcomer's other compiler never fails the build; CI turns it on (.ci/run
# exports IMPACT_WERROR=1 and scripts/setup.sh hands it to CMake).
option(IMPACT_WERROR "Make the warnings of the project's own code errors (CI)" OFF)

function(impact_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
                                           $<$<BOOL:${IMPACT_WERROR}>:-Werror>)
endfunction()

# GCC 12 (Debian 12's) reports std::string's `operator+(string&&, const char*)` as a memcpy out
# of bounds or overflowing at -O2 (false positives of GCC 12's -Warray-bounds and
# -Wstringop-overflow) wherever the inliner's choices fall;
# the precompiled headers (cmake/Pch.cmake) move those choices, so the false report comes and
# goes with unrelated edits (in the test programs too). Both stay on for every other compiler.
add_compile_options("$<$<AND:$<COMPILE_LANG_AND_ID:CXX,GNU>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-array-bounds;-Wno-stringop-overflow>")
