# yaml-cpp and tree-sitter linked from Debian's archives (issue 37: the per-process start-up cost
# of shared libraries). Both archives are position independent. `impact` is one process start per
# CI report; each shared object it maps costs the dynamic loader its symbol lookups and
# relocations. With yaml-cpp static, `impact` links no C++ shared library but libstdc++ itself,
# so it also takes libstdc++ and libgcc statically (IMPACT_STATIC_CLI_RUNTIME, cli/CMakeLists.txt):
# libstdc++.so alone was about 3,300 of the 7,700 symbol relocations of every start.
# (impactd links LLVM's shared C++ library and keeps the shared libstdc++.) A missing archive
# keeps the shared library.
set(_impact_libdir "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
set(IMPACT_STATIC_YAML OFF)
if(TARGET yaml-cpp AND EXISTS "${_impact_libdir}/libyaml-cpp.a")
  get_target_property(_aliased yaml-cpp ALIASED_TARGET)
  set(_yt yaml-cpp)
  if(_aliased)
    set(_yt ${_aliased})
  endif()
  get_target_property(_configs ${_yt} IMPORTED_CONFIGURATIONS)
  foreach(_c IN LISTS _configs)
    set_target_properties(${_yt} PROPERTIES IMPORTED_LOCATION_${_c} "${_impact_libdir}/libyaml-cpp.a"
                                              IMPORTED_SONAME_${_c} "")
  endforeach()
  set_target_properties(${_yt} PROPERTIES IMPORTED_LOCATION "${_impact_libdir}/libyaml-cpp.a")
  set(IMPACT_STATIC_YAML ON)
endif()
if(TARGET PkgConfig::TREESITTER AND EXISTS "${_impact_libdir}/libtree-sitter.a")
  set_target_properties(PkgConfig::TREESITTER PROPERTIES INTERFACE_LINK_LIBRARIES "${_impact_libdir}/libtree-sitter.a")
endif()
