# Precompiled headers: the standard library and Abseil headers most of the project's files
# include, and in the test programs GoogleTest's. Each target compiles its own (one header build
# per target, a few seconds), and every file of it skips parsing them again: about a third of a
# test file's compile time, a tenth of a core file's (docs/ci.md, "CI's own time").
# IMPACT_PCH=OFF builds without them (to check that every file includes what it uses).
option(IMPACT_PCH "Precompile the commonly included headers" ON)

set(IMPACT_PCH_HEADERS <algorithm> <functional> <map> <memory> <optional> <set> <sstream> <string>
    <string_view> <utility> <vector> <absl/strings/str_cat.h> <absl/strings/str_join.h>
    <absl/status/statusor.h>)

# impact_pch(TARGET [EXTRA_HEADER...]): TARGET's C++ files get the headers above, and EXTRA_HEADER.
function(impact_pch target)
  if(IMPACT_PCH)
    target_precompile_headers(${target} PRIVATE ${IMPACT_PCH_HEADERS} ${ARGN})
  endif()
endfunction()

# ccache caches a compile that uses a precompiled header only with this sloppiness (its manual,
# "Precompiled headers"); without it every such compile would be a miss.
if(IMPACT_PCH AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache$")
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CMAKE_COMMAND};-E;env;CCACHE_SLOPPINESS=pch_defines,time_macros;${CMAKE_CXX_COMPILER_LAUNCHER}")
endif()

# Clang (the sanitizer builds) with precompiled headers reports libstdc++ 12's own use of the
# deprecated std::get_temporary_buffer (inside std::stable_sort) at every call site: a system
# header's warning it would otherwise hide.
if(IMPACT_PCH)
  add_compile_options("$<$<COMPILE_LANG_AND_ID:CXX,Clang>:-Wno-deprecated-declarations>")
endif()
