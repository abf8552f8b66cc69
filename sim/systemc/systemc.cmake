# SystemC conformance benches (sim/systemc/): the Verilated SystemC model of a DUT, driven by
# SC_THREADs and checked packet by packet against the golden model (flowsteer_model).
# Meant to be included from hw/CMakeLists.txt, after rfs_core.cmake:
#   include(${CMAKE_SOURCE_DIR}/sim/systemc/systemc.cmake)
# Needs find_package(verilator), enable_testing() and the flowsteer_model target (all provided
# by the top-level project and hw/CMakeLists.txt). SystemC comes from pkg-config (Debian
# libsystemc-dev 2.3.4, built as C++17: the project must stay on CMAKE_CXX_STANDARD 17).
find_package(PkgConfig REQUIRED)
pkg_check_modules(SystemC REQUIRED IMPORTED_TARGET systemc)

set(FS_SC_DIR ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(FS_SC_ROOT ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)

# the RFS core at the sizes its GoogleTest suite uses (hw/rfs_core.cmake defines both lists;
# the fallbacks keep this file usable on its own)
if(NOT DEFINED FS_RFS_SOURCES)
  set(FS_RFS_SOURCES ${FS_SC_ROOT}/hw/rtl/fs_rfs_core.sv ${FS_SC_ROOT}/hw/rtl/fs_ram_sdp.sv)
endif()
if(NOT DEFINED FS_RFS_TEST_PARAMS)
  set(FS_RFS_TEST_PARAMS -GNUM_CPUS=16 -GNUM_QUEUES=8 -GSLOT_LOG2_MAX=6 -GSOCK_LOG2_MAX=8
      -GRPS_POOL_LOG2=8 -GTAG_WIDTH=32)
endif()
set(_fs_sc_inc)
if(DEFINED FS_GEN_DIR)
  set(_fs_sc_inc INCLUDE_DIRS ${FS_GEN_DIR})  # the generated register map (flowsteer_regs.vh)
endif()

# fs_sc_add_model(<lib> <top> SOURCES ... PARAMS ...): a Verilated SystemC model (FST tracing
# compiled in, switched on at run time) as a static library.
function(fs_sc_add_model lib top)
  cmake_parse_arguments(A "" "" "SOURCES;PARAMS" ${ARGN})
  add_library(${lib} STATIC)
  verilate(${lib} SYSTEMC SOURCES ${A_SOURCES} TOP_MODULE ${top} PREFIX V${lib}
    TRACE_FST THREADS 1 ${_fs_sc_inc}
    VERILATOR_ARGS -Wall --x-assign unique --x-initial unique ${A_PARAMS}
    OPT_FAST -O2)
  target_compile_options(${lib} PRIVATE -w)
  target_link_libraries(${lib} PUBLIC PkgConfig::SystemC)
  get_target_property(_inc ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET ${lib} APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${_inc})
  if(TARGET flowsteer_regs_gen)
    add_dependencies(${lib} flowsteer_regs_gen)
  endif()
endfunction()

fs_sc_add_model(vsc_rfs_core fs_rfs_core SOURCES ${FS_RFS_SOURCES} PARAMS ${FS_RFS_TEST_PARAMS})

add_executable(sc_rfs_core ${FS_SC_DIR}/sc_rfs_core.cpp)
target_include_directories(sc_rfs_core PRIVATE ${FS_SC_DIR} ${FS_SC_ROOT}/testbench/rtl)
target_compile_options(sc_rfs_core PRIVATE -Wall -Wextra -Werror)
target_link_libraries(sc_rfs_core PRIVATE vsc_rfs_core flowsteer_model)

# 100,000 random packets (plus commands) for each of two fixed seeds; one process per seed
# (a SystemC simulation cannot be restarted in one process)
add_test(NAME sc_rfs_core
  COMMAND sh -c "$<TARGET_FILE:sc_rfs_core> --packets 100000 --seed 1 && $<TARGET_FILE:sc_rfs_core> --packets 100000 --seed 2")
set_tests_properties(sc_rfs_core PROPERTIES LABELS rtl TIMEOUT 300
  ENVIRONMENT SC_COPYRIGHT_MESSAGE=DISABLE)  # the variable libsystemc 2.3.4 reads
