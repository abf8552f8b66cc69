# Package the flowsteer RTL kernel (hw/alveo/flowsteer_kernel.sv + the engine RTL) into a Vitis
# object (.xo). Run by scripts/build-xclbin.sh:
#   vivado -mode batch -source hw/alveo/package_xo.tcl -tclargs \
#       XO WORK_DIR PART KERNEL_XML REGS_TCL FILE...
# XO          output .xo (flowsteer.xo)
# WORK_DIR    scratch directory (Vivado project and packaged IP)
# PART        FPGA part of the platform (xcu250-figd2104-2L-e, xcu280-fsvh2892-2L-e, ...)
# KERNEL_XML  hw/alveo/kernel.xml (ap_ctrl_none, ports, the 64 KiB s_axi_control range)
# REGS_TCL    register list written by scripts/gen_regs.py --tcl (set FS_REGS {...})
# FILE...     every RTL file (scripts/rtl-deps.py flowsteer) and the generated flowsteer_regs.vh
# Interfaces: ap_clk (ASSOCIATED_RESET ap_rst_n, ASSOCIATED_BUSIF all three), s_axi_control
# (AXI4-Lite slave, 64 KiB, the engine's registers), s_axis_frames and m_axis_records (AXI4-Stream).

if {[llength $argv] < 6} {
    puts "usage: package_xo.tcl XO WORK_DIR PART KERNEL_XML REGS_TCL FILE..."
    exit 2
}
set xo_path    [file normalize [lindex $argv 0]]
set work_dir   [file normalize [lindex $argv 1]]
set part       [lindex $argv 2]
set kernel_xml [file normalize [lindex $argv 3]]
set regs_tcl   [file normalize [lindex $argv 4]]
set sources    [lrange $argv 5 end]

set kernel     flowsteer
set ip_dir     [file join $work_dir ip]
set ctrl_range 65536

source $regs_tcl

# ---------------------------------------------------------------- project with the sources
file delete -force $work_dir/prj $ip_dir
create_project -force flowsteer_pkg $work_dir/prj -part $part
set rtl_files {}
set headers {}
foreach f $sources {
    set f [file normalize $f]
    if {![file exists $f]} {
        puts "ERROR: package_xo.tcl: no such source file $f"
        exit 1
    }
    if {[string match *.vh $f] || [string match *.svh $f]} {
        lappend headers $f
    } else {
        lappend rtl_files $f
    }
}
if {[llength $headers] == 0} {
    puts "ERROR: package_xo.tcl: the generated flowsteer_regs.vh is not among the sources"
    exit 1
}
add_files -norecurse $rtl_files
add_files -norecurse $headers
foreach h $headers {
    # `include "flowsteer_regs.vh" is resolved by name inside the module bodies
    set_property file_type {Verilog Header} [get_files $h]
}
foreach f $rtl_files {
    set_property file_type SystemVerilog [get_files $f]
}
set_property top $kernel [current_fileset]
update_compile_order -fileset sources_1

# ---------------------------------------------------------------- package the IP
ipx::package_project -root_dir $ip_dir -vendor flowsteer.dev -library kernel -taxonomy /KernelIP \
    -import_files -set_current true
set core [ipx::current_core]
set_property name $kernel $core
set_property display_name "flowsteer flow-steering engine" $core
set_property description "flowsteer RTL kernel: ap_ctrl_none, engine registers on s_axi_control" $core
set_property version 1.0 $core
set_property core_revision 1 $core
set_property sdx_kernel true $core
set_property sdx_kernel_type rtl $core
set_property ipi_drc {ignore_freq_hz true} $core
# the Vitis DRC property exists from Vivado 2021.2 on; older releases take the protocol from
# kernel.xml alone
catch {set_property vitis_drc {ctrl_protocol ap_ctrl_none} $core}

# interfaces: package_project infers them from the port names; make sure of each
foreach busif {s_axi_control s_axis_frames m_axis_records} {
    if {[ipx::get_bus_interfaces $busif -of_objects $core] eq ""} {
        puts "ERROR: package_xo.tcl: interface $busif was not inferred from the port names"
        exit 1
    }
    ipx::associate_bus_interfaces -busif $busif -clock ap_clk $core
}
set clk_if [ipx::get_bus_interfaces ap_clk -of_objects $core]
if {$clk_if eq ""} {
    puts "ERROR: package_xo.tcl: clock interface ap_clk was not inferred"
    exit 1
}
set p [ipx::get_bus_parameters ASSOCIATED_RESET -of_objects $clk_if]
if {$p eq ""} {set p [ipx::add_bus_parameter ASSOCIATED_RESET $clk_if]}
set_property value ap_rst_n $p
set rst_if [ipx::get_bus_interfaces ap_rst_n -of_objects $core]
if {$rst_if ne ""} {
    set p [ipx::get_bus_parameters POLARITY -of_objects $rst_if]
    if {$p eq ""} {set p [ipx::add_bus_parameter POLARITY $rst_if]}
    set_property value ACTIVE_LOW $p
}
# the platform sets the kernel clock at link time
set p [ipx::get_bus_parameters FREQ_HZ -of_objects $clk_if]
if {$p ne ""} {ipx::remove_bus_parameter FREQ_HZ $clk_if}

# ---------------------------------------------------------------- s_axi_control register map
set mm [ipx::get_memory_maps s_axi_control -of_objects $core]
if {$mm eq ""} {set mm [ipx::add_memory_map s_axi_control $core]}
set_property slave_memory_map_ref s_axi_control [ipx::get_bus_interfaces s_axi_control -of_objects $core]
set blk [ipx::get_address_blocks reg0 -of_objects $mm]
if {$blk eq ""} {set blk [ipx::add_address_block reg0 $mm]}
set_property range $ctrl_range $blk
set_property width 32 $blk
set_property usage register $blk
foreach r $FS_REGS {
    lassign $r name offset access count desc
    set reg [ipx::add_register $name $blk]
    set_property address_offset $offset $reg
    set_property size 32 $reg
    if {$count > 1} {
        set_property description "$desc (first of $count, stride 4 or 8: hw/regs/registers.md)" $reg
    } else {
        set_property description $desc $reg
    }
}
# the argument kernel.xml declares on s_axi_control (XRT sizes the register range from it)
set_property description "engine_id: the engine's ID register (magic 'FSTE'), offset 0x0" \
    [ipx::get_registers ID -of_objects $blk]

ipx::create_xgui_files $core
ipx::update_checksums $core
ipx::check_integrity -kernel $core
ipx::save_core $core
close_project

# ---------------------------------------------------------------- the .xo
file delete -force $xo_path
package_xo -xo_path $xo_path -kernel_name $kernel -ip_directory $ip_dir -kernel_xml $kernel_xml
if {![file exists $xo_path]} {
    puts "ERROR: package_xo.tcl: package_xo did not write $xo_path"
    exit 1
}
puts "package_xo.tcl: wrote $xo_path"
