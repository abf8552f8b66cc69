# Engine top (hw/rtl/fs_engine_top.sv): the two Verilated models the harness links
# (sim/verilator/), the bring-up test and lint. Included from hw/CMakeLists.txt (needs
# FS_GEN_DIR, flowsteer_regs_gen, fs_add_rtl_test from there).
set(FS_ENGINE_HW_DIR ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(FS_ENGINE_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(FS_ENGINE_MODULES fs_engine_top fs_axil_regs fs_parser fs_hash fs_filter_table fs_rss_lut
  fs_rfs_core fs_steer_driver fs_event_fifo fs_ram_sdp fs_skid fs_record_pack fs_flt_forward)
set(FS_ENGINE_SOURCES)
foreach(m ${FS_ENGINE_MODULES})
  list(APPEND FS_ENGINE_SOURCES ${FS_ENGINE_HW_DIR}/rtl/${m}.sv)
endforeach()

# the harness builds: standard (512-bit frames) and small (64-bit frames, tiny tables)
set(FS_ENGINE_STD_PARAMS -GCPU_LOG2=4 -GQUEUE_LOG2=4 -GSLOT_LOG2=10 -GSOCK_LOG2=12 -GLUT_LOG2=7
    -GRPS_POOL_LOG2=8 -GFLT_BUCKET_BITS=9 -GFLT_WAYS=4 -GEVT_LOG2=5 -GTAG_LOG2=6 -GDATA_WIDTH=512
    -GUSER_WIDTH=16)
set(FS_ENGINE_SMALL_PARAMS -GCPU_LOG2=3 -GQUEUE_LOG2=3 -GSLOT_LOG2=6 -GSOCK_LOG2=8 -GLUT_LOG2=5
    -GRPS_POOL_LOG2=6 -GFLT_BUCKET_BITS=3 -GFLT_WAYS=2 -GEVT_LOG2=2 -GTAG_LOG2=5 -GDATA_WIDTH=64
    -GUSER_WIDTH=16)
# minimum parameters (lint only)
set(FS_ENGINE_MIN_PARAMS -GCPU_LOG2=0 -GQUEUE_LOG2=0 -GSLOT_LOG2=1 -GSOCK_LOG2=1 -GLUT_LOG2=1
    -GRPS_POOL_LOG2=1 -GFLT_BUCKET_BITS=1 -GFLT_WAYS=1 -GFLT_ID_WIDTH=1 -GEVT_LOG2=1 -GTAG_LOG2=1
    -GDATA_WIDTH=64 -GUSER_WIDTH=1)
option(FS_ENGINE_MODEL_TRACE "FST tracing in the engine-top models" ON)

# fs_engine_add_model(<lib> <PREFIX_TAG> <params...>): one static library per model; the
# parameters are also INTERFACE definitions FS_ENGINE_<TAG>_<NAME>=<value> for the harness
function(fs_engine_add_model lib tag)
  set(_trace)
  if(FS_ENGINE_MODEL_TRACE)
    set(_trace TRACE_FST)
  endif()
  add_library(${lib} STATIC)
  verilate(${lib} SOURCES ${FS_ENGINE_SOURCES} TOP_MODULE fs_engine_top PREFIX V${lib}
    INCLUDE_DIRS ${FS_GEN_DIR} ${_trace} THREADS 1
    VERILATOR_ARGS -Wall --x-assign unique --x-initial unique ${ARGN}
    OPT_FAST -O2)
  target_compile_options(${lib} PRIVATE -w)
  target_compile_definitions(${lib} PUBLIC FS_ENGINE_HAS_TRACE=$<BOOL:${FS_ENGINE_MODEL_TRACE}>)
  foreach(p ${ARGN})
    if(p MATCHES "^-G([A-Z0-9_]+)=(.*)$")
      target_compile_definitions(${lib} INTERFACE FS_ENGINE_${tag}_${CMAKE_MATCH_1}=${CMAKE_MATCH_2})
    endif()
  endforeach()
  get_target_property(_inc ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET ${lib} APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${_inc})
  add_dependencies(${lib} flowsteer_regs_gen)
endfunction()
fs_engine_add_model(vfs_engine_top STD ${FS_ENGINE_STD_PARAMS})
fs_engine_add_model(vfs_engine_top_small SMALL ${FS_ENGINE_SMALL_PARAMS})

# bring-up test against engine::EngineRegisterFile (label rtl)
fs_add_rtl_test(test_rtl_engine_top SOURCES ${FS_ENGINE_ROOT}/testbench/rtl/test_fs_engine_top.cpp
  LIBS vfs_engine_top vfs_engine_top_small)

# lint: the default parameters run as lint_fs_engine_top (scripts/lint-rtl.sh, hw/CMakeLists.txt);
# here the harness builds and the minimum parameters. Icarus: iverilog_compile_rtl.
foreach(set STD SMALL MIN)
  string(TOLOWER ${set} _s)
  add_test(NAME lint_engine_top_${_s}
    COMMAND ${VERILATOR_BIN} --lint-only -Wall -I${FS_GEN_DIR} --top-module fs_engine_top
            ${FS_ENGINE_${set}_PARAMS} ${FS_ENGINE_SOURCES})
  set_tests_properties(lint_engine_top_${_s} PROPERTIES LABELS lint TIMEOUT 120)
endforeach()
