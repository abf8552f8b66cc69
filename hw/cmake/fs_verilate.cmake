# The one way this project builds and lints RTL. Sources come from scripts/rtl-deps.py (a
# module's file and every module it instantiates), parameters from hw/params.json through
# scripts/rtl-params.py, Verilator flags from FS_VERILATOR_ARGS below. Needs
# find_package(verilator), Python3 and the flowsteer_regs_gen target (hw/regs/regs.cmake).

set(FS_VERILATOR_ARGS -Wall --x-assign unique --x-initial unique CACHE STRING
    "Verilator arguments of every engine model")
option(FS_MODEL_TRACE "FST tracing compiled into the engine models (switched on at run time)" ON)
option(FS_MODEL_FORMAL "the `ifdef FORMAL properties (hw/formal) checked in every engine model" ON)
get_filename_component(FS_ROOT ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
set(FS_RTL_SEARCH ${FS_ROOT}/hw/rtl:${FS_ROOT}/hw/alveo:${FS_ROOT}/testbench/rtl)
# the models also find the property checkers the RTL instantiates under FORMAL
set(FS_MODEL_SEARCH ${FS_RTL_SEARCH})
set(FS_MODEL_ARGS)
if(FS_MODEL_FORMAL)
  set(FS_MODEL_SEARCH ${FS_RTL_SEARCH}:${FS_ROOT}/hw/formal)
  set(FS_MODEL_ARGS --assert -DFORMAL)   # a failed property aborts the simulation
endif()

# fs_rtl_sources(<out> <top> [<search path>]): the files of <top> and of every module below it.
function(fs_rtl_sources out top)
  set(_search ${FS_RTL_SEARCH})
  if(ARGC GREATER 2)
    set(_search ${ARGV2})
  endif()
  execute_process(COMMAND ${Python3_EXECUTABLE} ${FS_ROOT}/scripts/rtl-deps.py ${_search} ${top}
    OUTPUT_VARIABLE _files OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR _files STREQUAL "")
    message(FATAL_ERROR "scripts/rtl-deps.py: no RTL for module ${top}")
  endif()
  separate_arguments(_files UNIX_COMMAND "${_files}")
  foreach(f ${_files})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${f})  # a new instance re-resolves
  endforeach()
  set(${out} ${_files} PARENT_SCOPE)
endfunction()

# fs_rtl_params(<out> <module> <set>): -GNAME=value for <set> of <module> (empty: defaults).
function(fs_rtl_params out module set)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${FS_ROOT}/scripts/rtl-params.py ${module} ${set}
    OUTPUT_VARIABLE _p OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_err}")
  endif()
  separate_arguments(_p UNIX_COMMAND "${_p}")
  set(${out} ${_p} PARENT_SCOPE)
endfunction()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FS_ROOT}/hw/params.json)

# fs_param_definitions(<target> <scope> <module> <set> <prefix>): the set's parameters as
# compile definitions <prefix>_<NAME>=<value>, so C++ benches size themselves from the table.
function(fs_param_definitions target scope module set prefix)
  fs_rtl_params(_params ${module} ${set})
  _fs_define_params(${target} ${scope} ${prefix} ${_params})
endfunction()

# _fs_define_params(<target> <scope> <prefix> -GNAME=value...): the definitions themselves.
function(_fs_define_params target scope prefix)
  foreach(p ${ARGN})
    if(p MATCHES "^-G([A-Z0-9_]+)=(.*)$")
      target_compile_definitions(${target} ${scope} ${prefix}_${CMAKE_MATCH_1}=${CMAKE_MATCH_2})
    endif()
  endforeach()
endfunction()

# fs_verilate(<lib> TOP <module> [SET <set>] [SYSTEMC] [TRACE] [NO_FORMAL]): a Verilated model of <module>
# at parameter set <set> as a static library (the Verilator runtime compiled once per model);
# TRACE compiles FST tracing in (when FS_MODEL_TRACE is on), switched on at run time;
# FS_MODEL_FORMAL compiles the FORMAL properties in as assertions (assumptions included),
# except for a model marked NO_FORMAL (its bench breaks an input rule; say why there).
# Its users see the parameters as definitions <LIB>_<NAME> (e.g. VFS_ENGINE_TOP_CPU_LOG2) and
# FS_MODEL_HAS_TRACE.
function(fs_verilate lib)
  cmake_parse_arguments(A "SYSTEMC;TRACE;NO_FORMAL" "TOP;SET" "" ${ARGN})
  if(NOT A_SET)
    set(A_SET default)
  endif()
  set(_fsearch ${FS_MODEL_SEARCH})
  set(_fargs ${FS_MODEL_ARGS})
  if(A_NO_FORMAL)
    set(_fsearch ${FS_RTL_SEARCH})
    set(_fargs)
  endif()
  fs_rtl_sources(_src ${A_TOP} ${_fsearch})
  fs_rtl_params(_params ${A_TOP} ${A_SET})
  # Verilator gets the top's file and finds the modules below it on the search path (-y: each
  # lives in <module>.sv): ninja may rerun this step with its last arguments before it
  # reconfigures, so a module instantiated or deleted since then must not break it. The
  # resolved list still makes a change to any of these files reconfigure (fs_rtl_sources).
  list(GET _src 0 _top_file)
  string(REPLACE ":" ";" _dirs "${_fsearch}")
  set(_ydirs)
  foreach(d ${_dirs})
    list(APPEND _ydirs -y ${d})
  endforeach()
  set(_kind)
  set(_trace)
  if(A_SYSTEMC)
    set(_kind SYSTEMC)
  endif()
  if(A_TRACE AND FS_MODEL_TRACE)
    set(_trace TRACE_FST)
  endif()
  add_library(${lib} STATIC)
  verilate(${lib} ${_kind} SOURCES ${_top_file} TOP_MODULE ${A_TOP} PREFIX V${lib}
    INCLUDE_DIRS ${FS_REGS_GEN_DIR} ${_trace} THREADS 1
    VERILATOR_ARGS ${FS_VERILATOR_ARGS} ${_fargs} ${_ydirs} ${_params} OPT_FAST -O2)
  target_compile_options(${lib} PRIVATE -w)   # generated code is not held to -Wall
  if(A_SYSTEMC)
    target_link_libraries(${lib} PUBLIC PkgConfig::SystemC)
  endif()
  if(_trace)
    target_compile_definitions(${lib} INTERFACE FS_MODEL_HAS_TRACE=1)
  else()
    target_compile_definitions(${lib} INTERFACE FS_MODEL_HAS_TRACE=0)
  endif()
  string(TOUPPER ${lib} _prefix)
  _fs_define_params(${lib} INTERFACE ${_prefix} ${_params})  # the set read above, not read again
  get_target_property(_inc ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET ${lib} APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${_inc})
  add_dependencies(${lib} flowsteer_regs_gen)
endfunction()

# fs_lint_tests(<module>): one CTest per parameter set of <module> (label lint), all through
# scripts/lint-rtl.sh.
function(fs_lint_tests module)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${FS_ROOT}/scripts/rtl-params.py ${module} --sets
    OUTPUT_VARIABLE _sets OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(_sets UNIX_COMMAND "${_sets}")
  foreach(s ${_sets})
    add_test(NAME lint_${module}_${s}
      COMMAND ${FS_ROOT}/scripts/lint-rtl.sh --inc ${FS_REGS_GEN_DIR} --set ${s} ${module})
    set_tests_properties(lint_${module}_${s} PROPERTIES LABELS lint TIMEOUT 120)
  endforeach()
endfunction()
