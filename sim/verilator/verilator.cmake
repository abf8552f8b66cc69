# The Verilator harness of the engine top (sim/verilator): EngineSim, Scoreboard, Stimulus.
# Included from hw/CMakeLists.txt after hw/engine_top.cmake, which defines the two
# Verilated builds of hw/rtl/fs_engine_top.sv (vfs_engine_top, vfs_engine_top_small).
# Without them (RTL not there yet) nothing is defined and the CLI reports that it was built
# without the Verilator engine.
set(FS_SIM_VERILATOR_DIR ${CMAKE_CURRENT_LIST_DIR})
if(TARGET vfs_engine_top AND TARGET vfs_engine_top_small)
  add_library(fs_engine_sim STATIC
    ${FS_SIM_VERILATOR_DIR}/engine_sim.cpp
    ${FS_SIM_VERILATOR_DIR}/scoreboard.cpp
    ${FS_SIM_VERILATOR_DIR}/stimulus.cpp
    ${FS_SIM_VERILATOR_DIR}/replay_verilator.cpp
    ${FS_SIM_VERILATOR_DIR}/verilator_port.cpp)
  target_include_directories(fs_engine_sim PUBLIC ${FS_SIM_VERILATOR_DIR} ${CMAKE_SOURCE_DIR}/sim/common)
  target_compile_options(fs_engine_sim PRIVATE ${FLOWSTEER_WARNINGS})
  target_compile_definitions(fs_engine_sim PUBLIC FLOWSTEER_HAVE_VERILATOR=1)
  target_link_libraries(fs_engine_sim PUBLIC vfs_engine_top vfs_engine_top_small flowsteer_runs
    flowsteer_regs)
else()
  message(STATUS "sim/verilator: vfs_engine_top not defined (hw/engine_top.cmake): no fs_engine_sim")
endif()
