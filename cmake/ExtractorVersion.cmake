# generated/ExtractorVersion.h: IMPACT_EXTRACTOR_VERSION, a hash of every source that decides
# what extraction produces (core/extract, core/parse, core/queries, the facts model, the codec,
# the AOT producers' reading, whose runs are kept beside the facts).
# The on-disk extraction cache (core/cache) keys entries by it, so a build whose extractor
# differs never reads another build's facts; rebuilt whenever one of those files changes.
function(impact_extractor_version target)
  set(core "${PROJECT_SOURCE_DIR}/core")
  file(GLOB_RECURSE inputs CONFIGURE_DEPENDS
       "${core}/extract/*" "${core}/parse/*" "${core}/queries/*" "${core}/cache/FactsCodec.*"
       "${core}/model/Facts.h" "${core}/model/CppSymbols.h" "${core}/model/PythonModule.h"
       # the AOT producers' runs, kept beside the facts (DiskCache::sideFolder)
       "${core}/contracts/AotProducers.*" "${core}/model/AotFacts.h")
  list(SORT inputs)
  set(out "${CMAKE_BINARY_DIR}/generated/ExtractorVersion.h")
  string(REPLACE ";" "|" joined "${inputs}")
  add_custom_command(OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" "-DINPUTS=${joined}" -DROOT=${PROJECT_SOURCE_DIR} -DOUT=${out}
            -P "${PROJECT_SOURCE_DIR}/cmake/ExtractorVersionHash.cmake"
    DEPENDS ${inputs} "${PROJECT_SOURCE_DIR}/cmake/ExtractorVersionHash.cmake"
    VERBATIM)
  add_custom_target(${target}_extractor_version DEPENDS "${out}")
  add_dependencies(${target} ${target}_extractor_version)
  target_include_directories(${target} PUBLIC "${CMAKE_BINARY_DIR}/generated")
endfunction()
