# The Vitis RTL kernel wrapper's packaging and link scripts, checked without Vitis (label
# alveo). Its lint and Icarus compile are in hw/CMakeLists.txt, its Verilated model and
# GoogleTest suite in testbench/rtl. Included from hw/CMakeLists.txt.
set(FS_ALVEO_DIR ${CMAKE_CURRENT_LIST_DIR})

# scripts/build-xclbin.sh without Vitis: exit 2 and one line per missing piece; --check and
# --dry-run with stand-in tools (hw/alveo/test_build_xclbin.sh)
add_test(NAME build_xclbin_without_vitis COMMAND ${FS_ALVEO_DIR}/test_build_xclbin.sh)
set_tests_properties(build_xclbin_without_vitis PROPERTIES LABELS "lint;alveo" TIMEOUT 120
  SKIP_RETURN_CODE 77)

# hw/alveo/package_xo.tcl under tclsh with stand-ins for the Vivado commands, on the files
# of the kernel and the engine below it
find_program(FS_ALVEO_TCLSH NAMES tclsh tclsh8.6)
if(FS_ALVEO_TCLSH)
  fs_rtl_sources(_fs_alveo_pkg_files flowsteer)
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
