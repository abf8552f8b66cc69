# The Vitis RTL kernel wrapper (hw/alveo): lint, Icarus compile, Verilator model + GoogleTest,
# and the Vivado/Vitis scripts checked without Vitis. Included at the end of hw/CMakeLists.txt:
#   include(${CMAKE_CURRENT_SOURCE_DIR}/alveo/alveo.cmake)
# Uses from there: FS_GEN_DIR (generated flowsteer_regs.vh), FS_VERILATOR_ARGS, FS_TB_DIR, the
# targets flowsteer_regs_gen / flowsteer_regs; from the top level: flowsteer_lib, GTest,
# GoogleTest. The tests that need the engine (hw/rtl/fs_engine_top.sv) are defined only once
# that file exists (re-run CMake after it lands).
set(FS_ALVEO_DIR ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(FS_ALVEO_ROOT ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)
set(FS_ALVEO_WRAPPER ${FS_ALVEO_DIR}/flowsteer_kernel.sv)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FS_ALVEO_WRAPPER})

# the wrapper and every engine file it instantiates (scripts/rtl-deps.py), at configure time
execute_process(
  COMMAND ${Python3_EXECUTABLE} ${FS_ALVEO_ROOT}/scripts/rtl-deps.py
          ${FS_ALVEO_ROOT}/hw/rtl:${FS_ALVEO_DIR} flowsteer
  OUTPUT_VARIABLE _fs_alveo_deps OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _fs_alveo_rc)
separate_arguments(FS_ALVEO_RTL UNIX_COMMAND "${_fs_alveo_deps}")

# the small engine build of the tests (docs/engine-top.md parameters)
set(FS_ALVEO_SMALL_PARAMS -GDATA_WIDTH=64 -GCPU_LOG2=3 -GQUEUE_LOG2=3 -GSLOT_LOG2=6 -GSOCK_LOG2=8
    -GLUT_LOG2=5 -GRPS_POOL_LOG2=6 -GFLT_BUCKET_BITS=3 -GFLT_WAYS=2 -GEVT_LOG2=2 -GTAG_LOG2=5)

if(EXISTS ${FS_ALVEO_ROOT}/hw/rtl/fs_engine_top.sv AND _fs_alveo_rc EQUAL 0)
  # lint: verilator -Wall at default and minimum parameters (scripts/lint-rtl.sh finds hw/alveo)
  add_test(NAME lint_flowsteer_kernel
    COMMAND ${FS_ALVEO_ROOT}/scripts/lint-rtl.sh --inc ${FS_GEN_DIR} flowsteer)
  set_tests_properties(lint_flowsteer_kernel PROPERTIES LABELS "lint;alveo" TIMEOUT 120)

  # the same files compile in Icarus 11 (TOOLCHAIN.md section 6)
  find_program(FS_ALVEO_IVERILOG iverilog)
  if(FS_ALVEO_IVERILOG)
    add_test(NAME iverilog_compile_flowsteer_kernel
      COMMAND ${FS_ALVEO_IVERILOG} -g2012 -I${FS_GEN_DIR} -s flowsteer
              -o ${CMAKE_CURRENT_BINARY_DIR}/iverilog_flowsteer_kernel.vvp ${FS_ALVEO_RTL})
    set_tests_properties(iverilog_compile_flowsteer_kernel PROPERTIES LABELS "lint;alveo"
      TIMEOUT 120 FAIL_REGULAR_EXPRESSION "error|Error")
  endif()

  # Verilator model of the kernel at the small engine parameters and its GoogleTest suite
  add_library(vfs_flowsteer_kernel STATIC)
  verilate(vfs_flowsteer_kernel SOURCES ${FS_ALVEO_RTL} TOP_MODULE flowsteer
    PREFIX Vvfs_flowsteer_kernel INCLUDE_DIRS ${FS_GEN_DIR} THREADS 1
    VERILATOR_ARGS ${FS_VERILATOR_ARGS} ${FS_ALVEO_SMALL_PARAMS} OPT_FAST -O2)
  target_compile_options(vfs_flowsteer_kernel PRIVATE -w)
  get_target_property(_fs_alveo_inc vfs_flowsteer_kernel INTERFACE_INCLUDE_DIRECTORIES)
  set_property(TARGET vfs_flowsteer_kernel APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
    ${_fs_alveo_inc})
  add_dependencies(vfs_flowsteer_kernel flowsteer_regs_gen)

  add_executable(test_flowsteer_kernel ${FS_ALVEO_ROOT}/testbench/rtl/test_flowsteer_kernel.cpp)
  target_include_directories(test_flowsteer_kernel PRIVATE ${FS_ALVEO_ROOT}/testbench/rtl ${FS_ALVEO_ROOT}/sim/common)
  target_compile_options(test_flowsteer_kernel PRIVATE -Wall -Wextra -Werror)
  target_link_libraries(test_flowsteer_kernel PRIVATE vfs_flowsteer_kernel flowsteer_lib
    flowsteer_regs GTest::gtest_main)
  gtest_discover_tests(test_flowsteer_kernel DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT 300 LABELS rtl)
else()
  message(STATUS "hw/alveo: hw/rtl/fs_engine_top.sv not there yet: no kernel lint/model/test")
endif()

# scripts/build-xclbin.sh without Vitis: exit 2 and one line per missing piece; --check and
# --dry-run with stand-in tools (hw/alveo/test_build_xclbin.sh)
add_test(NAME build_xclbin_without_vitis COMMAND ${FS_ALVEO_DIR}/test_build_xclbin.sh)
set_tests_properties(build_xclbin_without_vitis PROPERTIES LABELS "lint;alveo" TIMEOUT 120
  SKIP_RETURN_CODE 77)

# hw/alveo/package_xo.tcl under tclsh with stand-ins for the Vivado commands
find_program(FS_ALVEO_TCLSH NAMES tclsh tclsh8.6)
if(FS_ALVEO_TCLSH)
  set(_fs_alveo_pkg_files ${FS_ALVEO_RTL})
  if(NOT _fs_alveo_pkg_files)
    set(_fs_alveo_pkg_files ${FS_ALVEO_WRAPPER})
  endif()
  set(_fs_alveo_pkg_dir ${CMAKE_CURRENT_BINARY_DIR}/alveo_package_xo)
  file(MAKE_DIRECTORY ${_fs_alveo_pkg_dir})
  add_test(NAME package_xo_tcl_standin
    COMMAND sh -c "\"$1\" \"$2\" \"$3\" regs.tcl && shift 3 && exec \"$@\"" sh
            ${Python3_EXECUTABLE} ${FS_ALVEO_DIR}/gen_regs_tcl.py ${FS_REGS_JSON}
            ${FS_ALVEO_TCLSH} ${FS_ALVEO_DIR}/test_package_xo.tcl regs.tcl
            ${FS_ALVEO_DIR}/kernel.xml ${FS_REGS_VH} ${_fs_alveo_pkg_files}
    WORKING_DIRECTORY ${_fs_alveo_pkg_dir})
  set_tests_properties(package_xo_tcl_standin PROPERTIES LABELS "lint;alveo" TIMEOUT 60)
endif()
