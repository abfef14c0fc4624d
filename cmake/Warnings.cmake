# The warnings of the project's own code (core, emitter, cli, lsp; not the tree-sitter grammars,
# nor the test programs): -Wall -Wextra, and with IMPACT_WERROR every warning is an error. Off by
# default, so that a newcomer's other compiler never fails the build; CI turns it on (.ci/run
# exports IMPACT_WERROR=1 and scripts/setup.sh hands it to CMake).
option(IMPACT_WERROR "Make the warnings of the project's own code errors (CI)" OFF)

function(impact_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
                                           $<$<BOOL:${IMPACT_WERROR}>:-Werror>)
endfunction()
