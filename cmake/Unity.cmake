# Unity builds of the project's libraries and the `impact` program: CMake compiles their files in
# batches of eight, one translation unit per batch, so the headers every file includes (the
# standard library, Abseil, tree-sitter, the model) are parsed and their templates instantiated
# once per batch instead of once per file. The libraries are compiled three times in CI (the test
# build, ASan+UBSan, TSan): measured in docs/ci.md, "CI's own time". The test programs are not
# batched.
# A batch is one file to the compiler: two files of one target may not both define, in their
# anonymous namespaces, an entity of the same name (a `Reader`, a `usage`); the build says so.
# IMPACT_UNITY=OFF compiles file by file (a one-file edit then recompiles that file alone; it
# also checks that every file includes what it uses).
option(IMPACT_UNITY "Compile the libraries' files in batches (a unity build)" ON)

function(impact_unity target)
  if(IMPACT_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
