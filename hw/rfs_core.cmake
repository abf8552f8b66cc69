# RFS core (hw/rtl/fs_rfs_core.sv): Verilator model, its GoogleTest suite and lint.
# Meant to be included from hw/CMakeLists.txt:
#   include(${CMAKE_CURRENT_SOURCE_DIR}/rfs_core.cmake)
# Needs: find_package(verilator), GTest, include(GoogleTest), enable_testing() and the
# flowsteer_lib target (all provided by the top-level project). Paths are taken from this
# file's location, so it also works from a scratch project.
set(FS_RFS_HW_DIR ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(FS_RFS_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(FS_RFS_SOURCES ${FS_RFS_HW_DIR}/rtl/fs_rfs_core.sv ${FS_RFS_HW_DIR}/rtl/fs_ram_sdp.sv)
# the tests use NUM_CPUS=16, NUM_QUEUES=8, SLOT_LOG2_MAX=6, SOCK_LOG2_MAX=8, RPS_POOL_LOG2=8
# (small tables fill and collide)
# (the verilate() models are built at these sizes; lint covers the defaults and the minimum)
set(FS_RFS_TEST_PARAMS -GNUM_CPUS=16 -GNUM_QUEUES=8 -GSLOT_LOG2_MAX=6 -GSOCK_LOG2_MAX=8
    -GRPS_POOL_LOG2=8 -GTAG_WIDTH=32)
option(FS_RFS_MODEL_TRACE "FST tracing in the RFS core model (env FS_RFS_TRACE=file.fst at run time)" ON)
set(_fs_rfs_trace)
if(FS_RFS_MODEL_TRACE)
  set(_fs_rfs_trace TRACE_FST)
endif()

# one static library per model (the Verilator runtime compiled once per model)
function(fs_rfs_add_model lib)
  add_library(${lib} STATIC)
  verilate(${lib} SOURCES ${FS_RFS_SOURCES} TOP_MODULE fs_rfs_core PREFIX V${lib}
    ${_fs_rfs_trace} THREADS 1
    VERILATOR_ARGS -Wall --x-assign unique --x-initial unique ${ARGN}
    OPT_FAST -O2)
  target_compile_options(${lib} PRIVATE -w)
  target_compile_definitions(${lib} PUBLIC FS_RFS_HAS_TRACE=$<BOOL:${FS_RFS_MODEL_TRACE}>)
  get_target_property(_inc ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET ${lib} APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${_inc})
endfunction()
fs_rfs_add_model(vfs_rfs_core ${FS_RFS_TEST_PARAMS})
# counts that are not powers of two (queues 6, 7 exist on the port; CPU ids above NUM_CPUS)
set(FS_RFS_ODD_PARAMS -GNUM_CPUS=12 -GNUM_QUEUES=6 -GSLOT_LOG2_MAX=5 -GSOCK_LOG2_MAX=7
    -GRPS_POOL_LOG2=7 -GTAG_WIDTH=32)
fs_rfs_add_model(vfs_rfs_core_odd ${FS_RFS_ODD_PARAMS})

add_executable(test_rtl_rfs_core ${FS_RFS_ROOT}/testbench/rtl/test_fs_rfs_core.cpp)
target_include_directories(test_rtl_rfs_core PRIVATE ${FS_RFS_ROOT}/testbench/rtl ${FS_RFS_ROOT}/sim/common)
target_compile_options(test_rtl_rfs_core PRIVATE -Wall -Wextra -Werror)
target_link_libraries(test_rtl_rfs_core PRIVATE vfs_rfs_core vfs_rfs_core_odd flowsteer_lib
  GTest::gtest_main)
gtest_discover_tests(test_rtl_rfs_core DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 300 LABELS rtl)

# lint at the default and at the minimum parameters (verilator -Wall, warnings fatal)
add_test(NAME lint_rfs_core_default
  COMMAND ${VERILATOR_BIN} --lint-only -Wall --top-module fs_rfs_core ${FS_RFS_SOURCES})
add_test(NAME lint_rfs_core_min
  COMMAND ${VERILATOR_BIN} --lint-only -Wall --top-module fs_rfs_core
          -GNUM_CPUS=1 -GNUM_QUEUES=1 -GSLOT_LOG2_MAX=1 -GSOCK_LOG2_MAX=1 -GRPS_POOL_LOG2=1
          -GTAG_WIDTH=1
          ${FS_RFS_SOURCES})
add_test(NAME lint_rfs_core_odd
  COMMAND ${VERILATOR_BIN} --lint-only -Wall --top-module fs_rfs_core ${FS_RFS_ODD_PARAMS}
          ${FS_RFS_SOURCES})
set_tests_properties(lint_rfs_core_default lint_rfs_core_min lint_rfs_core_odd
  PROPERTIES LABELS lint TIMEOUT 60)
