# Turns each core/queries/<name>.scm into generated/queries/<name>.h:
#   namespace impact::queries { inline constexpr std::string_view <name> = R"scm(...)scm"; }
function(impact_embed_queries target dir)
  file(GLOB scms CONFIGURE_DEPENDS "${dir}/*.scm")
  set(outdir "${CMAKE_BINARY_DIR}/generated/queries")
  file(MAKE_DIRECTORY "${outdir}")
  foreach(scm ${scms})
    get_filename_component(name "${scm}" NAME_WE)
    set(out "${outdir}/${name}.h")
    add_custom_command(OUTPUT "${out}"
      COMMAND "${CMAKE_COMMAND}" -DIN=${scm} -DOUT=${out} -DNAME=${name}
              -P "${PROJECT_SOURCE_DIR}/cmake/EmbedOne.cmake"
      DEPENDS "${scm}" "${PROJECT_SOURCE_DIR}/cmake/EmbedOne.cmake")
    list(APPEND outs "${out}")
  endforeach()
  add_custom_target(${target}_queries DEPENDS ${outs})
  add_dependencies(${target} ${target}_queries)
  target_include_directories(${target} PUBLIC "${CMAKE_BINARY_DIR}/generated")
endfunction()
