# Abseil linked statically. Debian ships position-independent archives beside the shared
# libraries (libabsl-dev); linking them drops ~30 shared objects that every start of `impact` and
# `impactd` would map and relocate (in a CI job, `impact report` is one process start per run:
# docs/ci.md "How fast"). An absl target whose archive is missing keeps its shared library.
get_directory_property(_impact_imported IMPORTED_TARGETS)
foreach(_t IN LISTS _impact_imported)
  if(NOT _t MATCHES "^absl::")
    continue()
  endif()
  get_target_property(_type ${_t} TYPE)
  if(NOT _type STREQUAL "SHARED_LIBRARY")
    continue()
  endif()
  get_target_property(_configs ${_t} IMPORTED_CONFIGURATIONS)
  foreach(_c IN LISTS _configs)
    get_target_property(_so ${_t} IMPORTED_LOCATION_${_c})
    string(REGEX REPLACE "\\.so[.0-9]*$" ".a" _a "${_so}")
    if(_so AND EXISTS "${_a}")
      set_target_properties(${_t} PROPERTIES IMPORTED_LOCATION_${_c} "${_a}" IMPORTED_SONAME_${_c} "")
    endif()
  endforeach()
endforeach()
