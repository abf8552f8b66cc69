# Steer driver (hw/rtl/fs_steer_driver.sv, fs_event_fifo.sv): Verilator model of its test top
# (driver + fs_filter_table), the GoogleTest suite against engine::EngineModel, and lint.
# Included from hw/CMakeLists.txt after its own definitions:
#   include(${CMAKE_CURRENT_SOURCE_DIR}/steer_driver.cmake)
# Uses from there: FS_GEN_DIR (generated flowsteer_regs.vh), FS_VERILATOR_ARGS, the targets
# flowsteer_regs_gen / flowsteer_regs; from the top level: flowsteer_lib, GTest, GoogleTest.
set(FS_SD_HW_DIR ${CMAKE_CURRENT_LIST_DIR})
get_filename_component(FS_SD_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(FS_SD_RTL ${FS_SD_HW_DIR}/rtl/fs_steer_driver.sv ${FS_SD_HW_DIR}/rtl/fs_event_fifo.sv
    ${FS_SD_HW_DIR}/rtl/fs_ram_sdp.sv)
set(FS_SD_TB_SOURCES ${FS_SD_ROOT}/testbench/rtl/tb_fs_steer_driver.sv ${FS_SD_RTL}
    ${FS_SD_HW_DIR}/rtl/fs_filter_table.sv)

# the test top at its defaults: BUCKET_BITS 3, WAYS 2 (FULL happens), ID_WIDTH 16 (the
# model's id space), event FIFO depth 8 (refusals happen)
add_library(vfs_steer_driver STATIC)
verilate(vfs_steer_driver SOURCES ${FS_SD_TB_SOURCES} TOP_MODULE tb_fs_steer_driver
  PREFIX Vvfs_steer_driver INCLUDE_DIRS ${FS_GEN_DIR} THREADS 1
  VERILATOR_ARGS ${FS_VERILATOR_ARGS} OPT_FAST -O2)
target_compile_options(vfs_steer_driver PRIVATE -w)
get_target_property(_fs_sd_inc vfs_steer_driver INTERFACE_INCLUDE_DIRECTORIES)
set_property(TARGET vfs_steer_driver APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
  ${_fs_sd_inc})
add_dependencies(vfs_steer_driver flowsteer_regs_gen)

add_executable(test_rtl_steer_driver ${FS_SD_ROOT}/testbench/rtl/test_fs_steer_driver.cpp)
target_include_directories(test_rtl_steer_driver PRIVATE ${FS_SD_ROOT}/testbench/rtl ${FS_SD_ROOT}/sim/common)
target_compile_options(test_rtl_steer_driver PRIVATE -Wall -Wextra -Werror)
target_link_libraries(test_rtl_steer_driver PRIVATE vfs_steer_driver flowsteer_lib
  flowsteer_regs GTest::gtest_main)
gtest_discover_tests(test_rtl_steer_driver DISCOVERY_TIMEOUT 60
  PROPERTIES TIMEOUT 300 LABELS rtl)

# lint (verilator -Wall, warnings fatal): each module at its defaults and at its minimum
set(FS_SD_LINT ${VERILATOR_BIN} --lint-only -Wall -I${FS_GEN_DIR})
add_test(NAME lint_steer_driver_default
  COMMAND ${FS_SD_LINT} --top-module fs_steer_driver ${FS_SD_RTL})
add_test(NAME lint_steer_driver_min
  COMMAND ${FS_SD_LINT} --top-module fs_steer_driver -GID_WIDTH=1 -GQUEUE_WIDTH=1
          -GEVT_DEPTH_LOG2=1 -GTAG_WIDTH=1 ${FS_SD_RTL})
add_test(NAME lint_event_fifo_default
  COMMAND ${FS_SD_LINT} --top-module fs_event_fifo ${FS_SD_RTL})
add_test(NAME lint_event_fifo_min
  COMMAND ${FS_SD_LINT} --top-module fs_event_fifo -GDATA_WIDTH=1 -GDEPTH_LOG2=1 ${FS_SD_RTL})
add_test(NAME lint_steer_driver_tb
  COMMAND ${FS_SD_LINT} --top-module tb_fs_steer_driver ${FS_SD_TB_SOURCES})
set_tests_properties(lint_steer_driver_default lint_steer_driver_min lint_event_fifo_default
  lint_event_fifo_min lint_steer_driver_tb PROPERTIES LABELS lint TIMEOUT 60)
