file(READ "${IN}" body)
file(WRITE "${OUT}" "// Generated from ${IN}; edit the .scm file.\n#pragma once\n#include <string_view>\nnamespace impact::queries {\ninline constexpr std::string_view ${NAME} = R\"scm(${body})scm\";\n}\n")
