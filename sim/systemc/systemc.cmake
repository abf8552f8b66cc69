# SystemC conformance benches (sim/systemc/): the Verilated SystemC model of a DUT, driven by
# SC_THREADs and checked packet by packet against the golden model (flowsteer_lib).
# Meant to be included from hw/CMakeLists.txt, after rfs_core.cmake:
#   include(${CMAKE_SOURCE_DIR}/sim/systemc/systemc.cmake)
# Needs find_package(verilator), enable_testing() and the flowsteer_lib target (all provided
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
target_include_directories(sc_rfs_core PRIVATE ${FS_SC_DIR} ${FS_SC_ROOT}/sim/common)
target_compile_options(sc_rfs_core PRIVATE -Wall -Wextra -Werror)
target_link_libraries(sc_rfs_core PRIVATE vsc_rfs_core flowsteer_lib)

# 100,000 random packets (plus commands) for each of two fixed seeds; one process per seed
# (a SystemC simulation cannot be restarted in one process)
add_test(NAME sc_rfs_core
  COMMAND sh -c "$<TARGET_FILE:sc_rfs_core> --packets 100000 --seed 1 && $<TARGET_FILE:sc_rfs_core> --packets 100000 --seed 2")
set_tests_properties(sc_rfs_core PROPERTIES LABELS rtl TIMEOUT 300
  ENVIRONMENT SC_COPYRIGHT_MESSAGE=DISABLE)  # the variable libsystemc 2.3.4 reads

# ---------------------------------------------------------------- the whole engine
# sc_engine_top: the Verilated SystemC model of hw/rtl/fs_engine_top.sv at the sizes of the
# Verilator harness's standard build (sim/verilator), driven by AXI4-Lite / frame / record
# threads and checked against flowsteer::engine::EngineRegisterFile (docs/engine-top.md).
# hw/engine_top.cmake (included before this file) sets FS_ENGINE_STD_PARAMS and
# FS_ENGINE_SOURCES; the fallbacks keep this file usable on its own.
if(DEFINED FS_ENGINE_STD_PARAMS)
  set(FS_SC_ENGINE_PARAMS ${FS_ENGINE_STD_PARAMS})
else()
  set(FS_SC_ENGINE_PARAMS -GCPU_LOG2=4 -GQUEUE_LOG2=4 -GSLOT_LOG2=10 -GSOCK_LOG2=12 -GLUT_LOG2=7
      -GRPS_POOL_LOG2=8 -GFLT_BUCKET_BITS=9 -GFLT_WAYS=4 -GEVT_LOG2=5 -GTAG_LOG2=6
      -GDATA_WIDTH=512 -GUSER_WIDTH=16)
endif()
# the same sizes for the golden model: -GNAME=value -> FS_SC_ENG_NAME=value
set(_fs_sc_eng_defs FS_SC_ENG_FLT_ID_WIDTH=16)  # the top's default (not in the list)
foreach(_p ${FS_SC_ENGINE_PARAMS})
  if(_p MATCHES "^-G([A-Z0-9_]+)=([0-9]+)$")
    list(APPEND _fs_sc_eng_defs FS_SC_ENG_${CMAKE_MATCH_1}=${CMAKE_MATCH_2})
  endif()
endforeach()

# sc_engine_top_selftest: the bench on a stand-in of the engine built on the golden model
# (engine_model_dut.h), no RTL: it must pass for every seed (a failure is a bench bug).
add_executable(sc_engine_top_selftest ${FS_SC_DIR}/sc_engine_top.cpp)
target_include_directories(sc_engine_top_selftest PRIVATE ${FS_SC_DIR} ${FS_SC_ROOT}/sim/common)
target_compile_definitions(sc_engine_top_selftest PRIVATE FS_SC_ENGINE_MODEL_DUT=1 ${_fs_sc_eng_defs})
target_compile_options(sc_engine_top_selftest PRIVATE -Wall -Wextra -Werror)
target_link_libraries(sc_engine_top_selftest PRIVATE flowsteer_lib PkgConfig::SystemC)
add_test(NAME sc_engine_top_selftest
  COMMAND sh -c "$<TARGET_FILE:sc_engine_top_selftest> --packets 50000 --seed 3 && $<TARGET_FILE:sc_engine_top_selftest> --packets 50000 --seed 4")
set_tests_properties(sc_engine_top_selftest PROPERTIES LABELS sim TIMEOUT 120
  ENVIRONMENT SC_COPYRIGHT_MESSAGE=DISABLE)

set(FS_SC_ENGINE_TOP ${FS_SC_ROOT}/hw/rtl/fs_engine_top.sv)
if(EXISTS ${FS_SC_ENGINE_TOP})
  if(DEFINED FS_ENGINE_SOURCES)
    set(_fs_sc_eng_src ${FS_ENGINE_SOURCES})
  else()
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
    execute_process(
      COMMAND ${Python3_EXECUTABLE} ${FS_SC_ROOT}/scripts/rtl-deps.py ${FS_SC_ROOT}/hw/rtl fs_engine_top
      OUTPUT_VARIABLE _fs_sc_eng_src OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _fs_sc_rc)
    if(NOT _fs_sc_rc EQUAL 0)
      message(FATAL_ERROR "rtl-deps.py failed for fs_engine_top")
    endif()
    separate_arguments(_fs_sc_eng_src UNIX_COMMAND "${_fs_sc_eng_src}")
  endif()
  fs_sc_add_model(vsc_engine_top fs_engine_top SOURCES ${_fs_sc_eng_src} PARAMS ${FS_SC_ENGINE_PARAMS})

  add_executable(sc_engine_top ${FS_SC_DIR}/sc_engine_top.cpp)
  target_include_directories(sc_engine_top PRIVATE ${FS_SC_DIR} ${FS_SC_ROOT}/sim/common)
  target_compile_definitions(sc_engine_top PRIVATE ${_fs_sc_eng_defs})
  target_compile_options(sc_engine_top PRIVATE -Wall -Wextra -Werror)
  target_link_libraries(sc_engine_top PRIVATE vsc_engine_top flowsteer_lib)

  # two seeds (1: symmetric-XOR hash, patched, light register traffic; 2: Toeplitz, original,
  # heavy register traffic, event FIFO left to fill), one process per seed
  set(FS_SC_ENGINE_TEST_PACKETS 60000)  # packets per seed (budget: the test under 90 s)
  add_test(NAME sc_engine_top
    COMMAND sh -c "$<TARGET_FILE:sc_engine_top> --packets ${FS_SC_ENGINE_TEST_PACKETS} --seed 1 && $<TARGET_FILE:sc_engine_top> --packets ${FS_SC_ENGINE_TEST_PACKETS} --seed 2")
  set_tests_properties(sc_engine_top PROPERTIES LABELS rtl TIMEOUT 300
    ENVIRONMENT SC_COPYRIGHT_MESSAGE=DISABLE)

else()
  message(STATUS "sim/systemc: hw/rtl/fs_engine_top.sv not there yet: no sc_engine_top")
endif()
