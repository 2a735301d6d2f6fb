# The one helper that defines a layer (docs/dev/architecture.md §1) and registers its unit tests.
#
#   cqld_layer(NAME <layer> [DEPS <layer>...] [LIBS <external>...])
#
# Builds every `*.cc` in the calling folder except `*_test.cc` into the static library
# `cqld_<layer>`, linked PUBLIC to the declared layer dependencies and external libraries.
# Every `*_test.cc` beside it goes into one GoogleTest binary `<layer>_unit_tests`, registered
# with CTest as `unit.<layer>`. Source lists are globbed with CONFIGURE_DEPENDS so adding a
# file needs no CMake edit. `scripts/check-layers` (a CTest of its own) enforces that no
# source includes a header from a layer it did not declare.
#
# A layer split into sub-folders calls it once per folder, named `<layer>_<folder>`: src/cql/
# has `cql_types`, `cql_parser` and `cql_functions` (`cqld_cql_types`, `unit.cql_types`, ...),
# and `cqld_cql`, the library the other layers link, depends on all of them.

set(CQLD_SOURCE_ROOT ${CMAKE_SOURCE_DIR}/src)

function(cqld_layer)
  cmake_parse_arguments(ARG "" "NAME" "DEPS;LIBS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  if(tests)
    list(REMOVE_ITEM sources ${tests})
  endif()
  set(target cqld_${ARG_NAME})
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC ${CQLD_SOURCE_ROOT})
  set(dep_targets "")
  foreach(dep ${ARG_DEPS})
    list(APPEND dep_targets cqld_${dep})
  endforeach()
  target_link_libraries(${target} PUBLIC ${dep_targets} ${ARG_LIBS})
  set_property(GLOBAL APPEND PROPERTY CQLD_LAYER_DEPS "${ARG_NAME}:${ARG_DEPS}")

  if(CQLD_TESTS AND tests)
    set(test_target ${ARG_NAME}_unit_tests)
    add_executable(${test_target} ${tests})
    target_link_libraries(${test_target} PRIVATE ${target} GTest::gtest GTest::gmock GTest::gtest_main)
    target_compile_definitions(${test_target} PRIVATE CQLD_TEST_DATA_DIR="${CMAKE_SOURCE_DIR}/tests/data")
    add_test(NAME unit.${ARG_NAME} COMMAND ${test_target} --gtest_brief=1)
  endif()
endfunction()
