# The host runtime's `verilator` backend (host/src/device/verilator_port.cpp): the simulated
# engine (sim/verilator EngineSim, target fs_engine_sim) as an EnginePort for `flowsteer
# device` and the system tests. Included at the end of the top-level CMakeLists.txt, after
# host/, hw/ (which includes sim/verilator/verilator.cmake) and testbench/ exist. Without the
# harness (FLOWSTEER_WITH_RTL=OFF, or no Verilator) nothing here is built and the verilator
# parts of the CLI and the tests are compiled out.
if(TARGET fs_engine_sim)
  add_library(fs_device_verilator STATIC ${CMAKE_CURRENT_LIST_DIR}/src/device/verilator_port.cpp)
  target_compile_definitions(fs_device_verilator PUBLIC FLOWSTEER_HAVE_VERILATOR=1)
  target_compile_options(fs_device_verilator PRIVATE ${FLOWSTEER_WARNINGS})
  target_include_directories(fs_device_verilator PRIVATE ${CMAKE_SOURCE_DIR}/sim/verilator)
  target_link_libraries(fs_device_verilator PUBLIC flowsteer_model fs_engine_sim)
  target_link_libraries(flowsteer PRIVATE fs_device_verilator)
  if(TARGET flowsteer_system_tests)
    target_link_libraries(flowsteer_system_tests PRIVATE fs_device_verilator)
  endif()
endif()
