# Fetches the pinned tree-sitter grammar source tarballs from the npm registry (npm pack),
# checks their sha512 against the pins below, and builds each grammar's src/ as a static C library.
# Only package/src is extracted; the tarballs' prebuilt binaries are ignored.

set(IMPACT_GRAMMAR_DIR "${CMAKE_BINARY_DIR}/_grammars")

function(impact_grammar target package version sha512)
  set(tgz "${IMPACT_GRAMMAR_DIR}/${package}-${version}.tgz")
  set(src "${IMPACT_GRAMMAR_DIR}/${package}-${version}")
  if(NOT EXISTS "${src}/package/src/parser.c")
    file(MAKE_DIRECTORY "${IMPACT_GRAMMAR_DIR}")
    if(NOT EXISTS "${tgz}")
      find_program(NPM npm REQUIRED)
      message(STATUS "impactd: npm pack ${package}@${version}")
      execute_process(COMMAND "${NPM}" pack "${package}@${version}" --silent
                      WORKING_DIRECTORY "${IMPACT_GRAMMAR_DIR}"
                      RESULT_VARIABLE rc OUTPUT_QUIET)
      if(NOT rc EQUAL 0 OR NOT EXISTS "${tgz}")
        message(FATAL_ERROR "npm pack ${package}@${version} failed (rc=${rc})")
      endif()
    endif()
    file(SHA512 "${tgz}" got)
    if(NOT got STREQUAL sha512)
      file(REMOVE "${tgz}")
      message(FATAL_ERROR "${package}@${version}: sha512 mismatch (got ${got})")
    endif()
    file(ARCHIVE_EXTRACT INPUT "${tgz}" DESTINATION "${src}" PATTERNS package/src)
  endif()
  add_library(${target} STATIC "${src}/package/src/parser.c" "${src}/package/src/scanner.c")
  set_target_properties(${target} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE "${src}/package/src")
  target_compile_options(${target} PRIVATE -w -O1)
endfunction()

impact_grammar(ts_python tree-sitter-python 0.23.6
  c8833dcf4a31288c53edb02d3ce860a1597a8135e59a5221b9eee58854f8a013c5fe585aec76b8750052f3602fea130c459a159c5248f0cea62fe4b05a82c3dc)
impact_grammar(ts_cpp tree-sitter-cpp 0.23.4
  a91e6a503ca16798c9e95f3fba6881c689116def3d6c21a672afdd93de3023890df3aa9f755f24d061c850429aa9681cbb8db029a97913decb2a92de556f2c2b)
