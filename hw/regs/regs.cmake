# The register map's generated outputs, made once for the whole build from
# hw/regs/flowsteer_regs.json by scripts/gen_regs.py: the RTL include, the C++ header and the
# document (checked against the committed hw/regs/registers.md by regs_doc_fresh).
# Target flowsteer_regs (INTERFACE): links the include directory and the generation step.
set(FS_REGS_JSON ${CMAKE_CURRENT_LIST_DIR}/flowsteer_regs.json)
set(FS_GEN_REGS ${CMAKE_CURRENT_LIST_DIR}/../../scripts/gen_regs.py)
set(FS_REGS_GEN_DIR ${CMAKE_BINARY_DIR}/generated)
set(FS_REGS_VH ${FS_REGS_GEN_DIR}/flowsteer_regs.vh)
set(FS_REGS_H ${FS_REGS_GEN_DIR}/flowsteer/flowsteer_regs.h)
set(FS_REGS_MD ${FS_REGS_GEN_DIR}/registers.md)
set(FS_REGS_OUTPUTS ${FS_REGS_VH} ${FS_REGS_H} ${FS_REGS_MD})
set(FS_REGS_ARGS --vh ${FS_REGS_VH} --hpp ${FS_REGS_H} --md ${FS_REGS_MD})

# verilate() runs Verilator at configure time, so the RTL include must exist then too; the
# custom command keeps the outputs fresh when the map or the generator changes.
file(MAKE_DIRECTORY ${FS_REGS_GEN_DIR}/flowsteer)
execute_process(COMMAND ${Python3_EXECUTABLE} ${FS_GEN_REGS} ${FS_REGS_JSON} ${FS_REGS_ARGS}
  RESULT_VARIABLE _fs_gen_rc)
if(NOT _fs_gen_rc EQUAL 0)
  message(FATAL_ERROR "scripts/gen_regs.py failed on ${FS_REGS_JSON}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${FS_REGS_JSON} ${FS_GEN_REGS})
add_custom_command(OUTPUT ${FS_REGS_OUTPUTS}
  COMMAND ${Python3_EXECUTABLE} ${FS_GEN_REGS} ${FS_REGS_JSON} ${FS_REGS_ARGS}
  DEPENDS ${FS_REGS_JSON} ${FS_GEN_REGS}
  COMMENT "Generating the register map outputs")
add_custom_target(flowsteer_regs_gen ALL DEPENDS ${FS_REGS_OUTPUTS})
add_library(flowsteer_regs INTERFACE)
# installed next to the host headers (host/CMakeLists.txt install rules)
target_include_directories(flowsteer_regs INTERFACE $<BUILD_INTERFACE:${FS_REGS_GEN_DIR}> $<INSTALL_INTERFACE:include>)
add_dependencies(flowsteer_regs flowsteer_regs_gen)

add_test(NAME regs_doc_fresh
  COMMAND ${Python3_EXECUTABLE} ${FS_GEN_REGS} ${FS_REGS_JSON} --check ${CMAKE_CURRENT_LIST_DIR}/registers.md)
set_tests_properties(regs_doc_fresh PROPERTIES LABELS "lint;regs" TIMEOUT 30)
