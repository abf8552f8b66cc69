# Runs hw/alveo/package_xo.tcl under plain tclsh with stand-ins for the Vivado commands it uses
# (no Vivado here): catches Tcl errors and checks what it would do: every RTL file and the
# generated include added (the include as a Verilog header), top = flowsteer, the interfaces
# associated with ap_clk, ap_rst_n as the clock's reset, a 64 KiB register block holding every
# register of the list, and package_xo called with the kernel name and kernel.xml.
# usage: tclsh test_package_xo.tcl REGS_TCL KERNEL_XML INCLUDE_VH RTL_FILE...
set calls {}
proc record {args} { lappend ::calls $args }
proc create_project {args} { record create_project {*}$args }
proc add_files {args} { record add_files {*}$args }
proc get_files {f} { return $f }
proc current_fileset {} { return sources_1 }
proc update_compile_order {args} {}
proc close_project {} {}
proc set_property {args} { record set_property {*}$args }
proc package_xo {args} {
    record package_xo {*}$args
    set i [lsearch $args -xo_path]
    close [open [lindex $args [expr {$i + 1}]] w]
}
namespace eval ipx {
    proc package_project {args} { ::record ipx::package_project {*}$args }
    proc current_core {} { return core }
    proc get_bus_interfaces {name args} {
        if {$name in {s_axi_control s_axis_frames m_axis_records ap_clk ap_rst_n}} { return "busif:$name" }
        return ""
    }
    proc associate_bus_interfaces {args} { ::record ipx::associate_bus_interfaces {*}$args }
    proc get_bus_parameters {args} { return "" }
    proc add_bus_parameter {name busif} { return "param:$busif:$name" }
    proc remove_bus_parameter {args} {}
    proc get_memory_maps {args} { return "" }
    proc add_memory_map {name core} { return "mm:$name" }
    proc get_address_blocks {args} { return "" }
    proc add_address_block {name mm} { return "blk:$name" }
    proc add_register {name blk} { ::record ipx::add_register $name $blk; return "reg:$name" }
    proc get_registers {name args} { return "reg:$name" }
    proc create_xgui_files {args} {}
    proc update_checksums {args} {}
    proc check_integrity {args} { ::record ipx::check_integrity {*}$args }
    proc save_core {args} { ::record ipx::save_core {*}$args }
}

set fails 0
proc check {cond what} {
    if {![uplevel 1 [list expr $cond]]} { puts "FAIL: $what"; incr ::fails }
}
proc called {pattern} {
    foreach c $::calls { if {[string match $pattern $c]} { return 1 } }
    return 0
}

lassign $argv regs_tcl kernel_xml include_vh
set rtl [lrange $argv 3 end]
set work [file join [pwd] package_xo_test]
file mkdir $work
set argv [list $work/flowsteer.xo $work xcu250-figd2104-2L-e $kernel_xml $regs_tcl {*}$rtl $include_vh]
set argc [llength $argv]
set here [file dirname [file normalize [info script]]]
if {[catch {source [file join $here package_xo.tcl]} err]} {
    puts "FAIL: package_xo.tcl raised: $err"
    exit 1
}

check {[called "create_project * -part xcu250-figd2104-2L-e"]} "project for the part"
foreach f $rtl {
    check {[called "add_files -norecurse *[file normalize $f]*"]} "adds $f"
}
check {[called "add_files -norecurse [file normalize $include_vh]"]} "adds the include"
check {[called "set_property file_type {Verilog Header} [file normalize $include_vh]"]} "include is a header"
check {[called "set_property top flowsteer sources_1"]} "top is flowsteer"
check {[called "set_property sdx_kernel true core"]} "sdx_kernel"
check {[called "set_property sdx_kernel_type rtl core"]} "sdx_kernel_type rtl"
foreach b {s_axi_control s_axis_frames m_axis_records} {
    check {[called "ipx::associate_bus_interfaces -busif $b -clock ap_clk core"]} "$b on ap_clk"
}
check {[called "set_property value ap_rst_n param:busif:ap_clk:ASSOCIATED_RESET"]} "ap_rst_n is ap_clk's reset"
check {[called "set_property value ACTIVE_LOW param:busif:ap_rst_n:POLARITY"]} "ap_rst_n active low"
check {[called "set_property range 65536 blk:reg0"]} "64 KiB register block"
source $regs_tcl
foreach r $FS_REGS {
    lassign $r name offset
    check {[called "ipx::add_register $name blk:reg0"]} "register $name"
    check {[called "set_property address_offset $offset reg:$name"]} "register $name at $offset"
}
check {[called "ipx::check_integrity -kernel core"]} "check_integrity -kernel"
check {[called "package_xo -xo_path $work/flowsteer.xo -kernel_name flowsteer -ip_directory $work/ip -kernel_xml [file normalize $kernel_xml]"]} "package_xo call"
if {$fails} {
    puts "$fails failure(s)"
    exit 1
}
puts "package_xo.tcl (stand-in Vivado): all checks passed, [llength $FS_REGS] registers"
