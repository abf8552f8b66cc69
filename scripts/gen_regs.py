#!/usr/bin/env python3
"""Generate the flowsteer register-map outputs from hw/regs/flowsteer_regs.json.

The map holds every fact the RTL, the host and the benches share: registers (with the size
that bounds each array), enums with their name tables, bit layouts (the 256-bit output record,
the fs_rfs_core SET_MODE word) and the fs_rfs_core op codes (enum rfs_op).

Outputs (any subset): the RTL constants include (--vh: addresses, fields, enums, layout
offsets, the decode table of fs_reg_file), the C++ header (--hpp: the same, pack/unpack of
each layout, enum name tables, the decode EngineRegisterFile uses), the register document
(--md), the register list of hw/alveo/package_xo.tcl (--tcl) and the layouts as C macros for
the Vitis HLS data movers (--layouts-h: bit offsets in a layout's flat word). Python standard library
only. Exit status 2 on a map error.

  gen_regs.py MAP.json [--vh OUT.vh] [--hpp OUT.h] [--md OUT.md] [--tcl OUT.tcl] [--check MD]
"""
import argparse
import json
import os
import sys

ACCESS = {
    "RW": "read/write",
    "RO": "read-only",
    "W1C": "read; write 1 to clear",
    "WO": "write-only (reads return 0)",
}


class MapError(Exception):
    pass


def num(v):
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        return int(v, 0)
    raise MapError(f"not a number: {v!r}")


def camel(name):
    return "".join(p.capitalize() for p in name.lower().split("_"))


ACCESS_CODE = {"RW": 0, "RO": 1, "W1C": 2, "WO": 3}


def log2(v):
    return v.bit_length() - 1


def size_code(m, name):
    """0: no bound; k: the k-th entry of the map's sizes."""
    if name is None:
        return 0
    return [z["name"] for z in m.get("sizes", [])].index(name) + 1


def vtable(entries, width):
    """A packed Verilog constant, entry i in bits [width*i +: width]."""
    v = 0
    for i, e in enumerate(entries):
        if e >> width:
            raise MapError(f"decode table entry {e} does not fit {width} bits")
        v |= e << (width * i)
    total = width * len(entries)
    return total, f"{total}'h{v:0{(total + 3) // 4}x}"


def lay_fields(lay):
    for f in lay["fields"]:
        yield f, num(f["word"]), num(f["lsb"]), num(f["width"])


def ctype_of(m, f, width):
    if f.get("enum"):
        return camel(f["enum"])
    if f.get("signed"):
        return "int32_t"
    if width == 1:
        return "bool"
    return "uint8_t" if width <= 8 else "uint16_t" if width <= 16 else "uint32_t"


def contiguous(e):
    return sorted(num(v["value"]) for v in e["values"]) == list(range(len(e["values"])))


def load(path):
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    aw = num(m["addr_width"])
    sizes = m.get("sizes", [])
    size_names = [z["name"] for z in sizes]
    regs = []  # flattened, with absolute addresses
    names = set()
    spans = []
    for blk in m["blocks"]:
        base, size = num(blk["base"]), num(blk["size"])
        if base % 4 or size % 4 or base + size > (1 << aw):
            raise MapError(f"block {blk['name']}: bad base/size")
        for r in blk["registers"]:
            name = r["name"]
            if name in names:
                raise MapError(f"duplicate register name {name}")
            names.add(name)
            if r["access"] not in ACCESS:
                raise MapError(f"{name}: unknown access {r['access']}")
            off = num(r["offset"])
            count = num(r.get("count", 1))
            stride = num(r.get("stride", 4))
            if off % 4 or stride % 4 or stride == 0 or count < 1:
                raise MapError(f"{name}: offset/stride must be word aligned")
            last = off + (count - 1) * stride + 4
            if last > size:
                raise MapError(f"{name}: outside block {blk['name']}")
            addr = base + off
            bound = r.get("bound")
            if bound is not None and bound not in size_names:
                raise MapError(f"{name}: bound {bound} is not a size")
            if bound is not None and count < 2:
                raise MapError(f"{name}: only an array has a bound")
            per = num(r.get("bound_per", 1))
            if per & (per - 1):
                raise MapError(f"{name}: bound_per must be a power of two")
            for i in range(count):
                spans.append((addr + i * stride, name))
            reset = 0
            used = 0
            fnames = set()
            for fld in r["fields"]:
                lsb, width = num(fld["lsb"]), num(fld["width"])
                if width < 1 or lsb < 0 or lsb + width > 32:
                    raise MapError(f"{name}.{fld['name']}: field outside 32 bits")
                mask = ((1 << width) - 1) << lsb
                if used & mask:
                    raise MapError(f"{name}.{fld['name']}: overlaps another field")
                if fld["name"] in fnames:
                    raise MapError(f"{name}.{fld['name']}: duplicate field")
                fnames.add(fld["name"])
                used |= mask
                rv = num(fld.get("reset", 0))
                if rv >> width:
                    raise MapError(f"{name}.{fld['name']}: reset does not fit")
                reset |= rv << lsb
            regs.append(dict(r, block=blk["name"], addr=addr, count=count, stride=stride,
                             reset=reset, mask=used, bound=bound, bound_per=per,
                             nic_plane=bool(blk.get("nic_plane", False))))
    spans.sort()
    for (a, n), (b, n2) in zip(spans, spans[1:]):
        if a == b:
            raise MapError(f"address 0x{a:04x} used by {n} and {n2}")
    enums = m.get("enums", [])
    cnames = set(f"FS_{r['name']}" for r in regs)
    enames = set()
    for e in enums:
        enames.add(e["name"])
        if e.get("ctype", "uint32_t") not in ("uint8_t", "uint16_t", "uint32_t"):
            raise MapError(f"enum {e['name']}: bad ctype")
        if any(not isinstance(v.get("rtl_only", False), bool) for v in e["values"]):
            raise MapError(f"enum {e['name']}: rtl_only must be true or false")
        labelled = [v for v in e["values"] if "label" in v]
        if labelled and len(labelled) != len(e["values"]):
            raise MapError(f"enum {e['name']}: label every value or none")
        for v in e["values"]:
            c = f"FS_{e['name'].upper()}_{v['name']}"
            if c in cnames:
                raise MapError(f"constant {c} defined twice")
            cnames.add(c)
    for z in sizes:
        if "caps" in z:
            rn, fn = z["caps"].split(".")
            if not any(r["name"] == rn and any(f["name"] == fn for f in r["fields"]) for r in regs):
                raise MapError(f"size {z['name']}: no field {z['caps']}")
    for lay in m.get("layouts", []):
        ln = lay["name"].upper()
        if f"FS_{ln}" in cnames:
            raise MapError(f"layout {ln} clashes with a register")
        cnames.add(f"FS_{ln}")
        words = num(lay["words"])
        used = 0
        for fld in lay["fields"]:
            w, lsb, width = num(fld["word"]), num(fld["lsb"]), num(fld["width"])
            if w >= words or width < 1 or lsb < 0 or lsb + width > 32:
                raise MapError(f"{ln}.{fld['name']}: field outside its word")
            if fld.get("enum") is not None and fld["enum"] not in enames:
                raise MapError(f"{ln}.{fld['name']}: unknown enum {fld['enum']}")
            mask = ((1 << width) - 1) << (32 * w + lsb)
            if used & mask:
                raise MapError(f"{ln}.{fld['name']}: overlaps another field")
            used |= mask
    return m, regs, enums


def layout_constants(m, fmt):
    """Each layout's width and its fields' flat bit offsets and widths, as fmt.format(name, value)."""
    o = []
    for lay in m.get("layouts", []):
        ln = lay["name"].upper()
        o.append(f"// layout {lay['name']}: {lay['desc']}")
        o.append(fmt.format(f"FS_{ln}_WIDTH", 32 * num(lay["words"])))
        for f, w, lsb, width in lay_fields(lay):
            o.append(fmt.format(f"FS_{ln}_{f['name']}_LSB", 32 * w + lsb))
            o.append(fmt.format(f"FS_{ln}_{f['name']}_WIDTH", width))
    return o


def gen_vh(m, regs, enums):
    aw = num(m["addr_width"])
    o = ["// Generated by scripts/gen_regs.py from hw/regs/flowsteer_regs.json. Do not edit.",
         "// Include inside a module body: localparams only.",
         "// A module uses only some of these constants, so UNUSEDPARAM is waived for this file.",
         "/* verilator lint_off UNUSEDPARAM */",
         f"localparam integer FS_ADDR_WIDTH = {aw};",
         f"localparam [31:0] FS_MAP_VERSION = 32'h{num(m['version']):08x};"]
    for r in regs:
        n = r["name"]
        o.append(f"// {r['block']}.{n} ({r['access']}): {r['desc']}")
        o.append(f"localparam [{aw - 1}:0] FS_{n}_ADDR = {aw}'h{r['addr']:04x};")
        o.append(f"localparam integer FS_{n}_COUNT = {r['count']};")
        o.append(f"localparam integer FS_{n}_STRIDE = {r['stride']};")
        o.append(f"localparam [31:0] FS_{n}_RESET = 32'h{r['reset']:08x};")
        o.append(f"localparam [31:0] FS_{n}_MASK = 32'h{r['mask']:08x};")
        for f in r["fields"]:
            p = f"FS_{n}_{f['name']}"
            w = num(f["width"])
            o.append(f"localparam integer {p}_LSB = {num(f['lsb'])};")
            o.append(f"localparam integer {p}_WIDTH = {w};")
            o.append(f"localparam [{w - 1}:0] {p}_RESET = {w}'h{num(f.get('reset', 0)):x};")
    for e in enums:
        o.append(f"// enum {e['name']}: {e['desc']}")
        for v in e["values"]:
            o.append(f"localparam integer FS_{e['name'].upper()}_{v['name']} = {num(v['value'])};")
    o += layout_constants(m, "localparam integer {} = {};")
    # decode table of fs_reg_file: register i (kRegisters order) at [W*i +: W]
    o.append("// sizes that bound arrays (FS_DEC_BOUND codes; 0: no bound)")
    for i, z in enumerate(m.get("sizes", [])):
        o.append(f"localparam integer FS_SIZE_{z['name']} = {i + 1};")
    o.append("// decode table: entry i describes register FS_REG_<name> = i")
    o.append(f"localparam integer FS_DEC_N = {len(regs)};")
    for i, r in enumerate(regs):
        o.append(f"localparam integer FS_REG_{r['name']} = {i};")
    tables = [
        ("WADDR", [r["addr"] >> 2 for r in regs], aw - 2, "word address of element 0"),
        ("COUNT", [r["count"] for r in regs], 16, "elements in the map"),
        ("WSTRIDE_LOG2", [log2(r["stride"] // 4) for r in regs], 2, "log2 of the stride in words"),
        ("BOUND", [size_code(m, r["bound"]) for r in regs], 3, "FS_SIZE_* that bounds the array"),
        ("BOUND_PER_LOG2", [log2(r["bound_per"]) for r in regs], 5, "log2 of entries per element"),
        ("ACCESS", [ACCESS_CODE[r["access"]] for r in regs], 2, "0 RW, 1 RO, 2 W1C, 3 WO"),
        ("NIC", [int(r["nic_plane"]) for r in regs], 1, "implemented by the NIC plane build"),
        ("MASK", [r["mask"] for r in regs], 32, "bits that belong to a field"),
    ]
    for n, vals, w, d in tables:
        total, lit = vtable(vals, w)
        o.append(f"localparam integer FS_DEC_{n}_W = {w};  // {d}")
        o.append(f"localparam [{total - 1}:0] FS_DEC_{n} = {lit};")
    o.append("/* verilator lint_on UNUSEDPARAM */")
    # the sizing rule, once for the RTL (fs_reg_file's decode, the formal AXI4-Lite check)
    sizes = [z["name"] for z in m.get("sizes", [])]
    args = ", ".join(f"input integer {z.lower()}" for z in sizes)
    o.append("// elements of decode entry i a build implements, given its sizes: an array bounded")
    o.append("// by a size holds at most ceil(2^size / entries per element) elements")
    o.append(f"function automatic integer fs_dec_impl(input integer i, {args});")
    o.append("    integer cnt, bd, per, lg, nb;")
    o.append("    cnt = 32'(FS_DEC_COUNT[FS_DEC_COUNT_W*i +: FS_DEC_COUNT_W]);")
    o.append("    bd = 32'(FS_DEC_BOUND[FS_DEC_BOUND_W*i +: FS_DEC_BOUND_W]);")
    o.append("    per = 32'(FS_DEC_BOUND_PER_LOG2[FS_DEC_BOUND_PER_LOG2_W*i +: FS_DEC_BOUND_PER_LOG2_W]);")
    o.append("    lg = 0;")
    for z in sizes:
        o.append(f"    if (bd == FS_SIZE_{z}) lg = {z.lower()};")
    o.append("    nb = ((1 << lg) + (1 << per) - 1) >> per;")
    o.append("    fs_dec_impl = (bd == 0 || nb > cnt) ? cnt : nb;  // Yosys 0.23 reads no return")
    o.append("endfunction")
    return "\n".join(o) + "\n"


def gen_hpp(m, regs, enums):
    o = ["// Generated by scripts/gen_regs.py from hw/regs/flowsteer_regs.json. Do not edit.",
         "#pragma once", "", "#include <cstdint>", "",
         "namespace flowsteer::regs {", "",
         f"inline constexpr uint32_t kAddrWidth = {num(m['addr_width'])};",
         f"inline constexpr uint32_t kMapVersion = 0x{num(m['version']):08x};", "",
         "enum class Access : uint8_t { kRW, kRO, kW1C, kWO };", "",
         "struct Field {",
         "  uint32_t lsb;",
         "  uint32_t width;",
         "  constexpr uint32_t mask() const {",
         "    return (width >= 32 ? 0xFFFFFFFFu : ((1u << width) - 1u)) << lsb;",
         "  }",
         "  constexpr uint32_t get(uint32_t reg) const { return (reg & mask()) >> lsb; }",
         "  constexpr uint32_t put(uint32_t value) const { return (value << lsb) & mask(); }",
         "};", "",
         "// a field of a multi-word layout: word index and the field inside the word",
         "struct LayoutField {",
         "  uint32_t word;",
         "  Field f;",
         "  constexpr uint32_t get(const uint32_t* w) const { return f.get(w[word]); }",
         "  void put(uint32_t* w, uint32_t value) const { w[word] = (w[word] & ~f.mask()) | f.put(value); }",
         "};", "",
         "// the implemented sizes that bound arrays (kNone: the map's count)",
         "enum class Size : uint8_t {", "  kNone,"] + \
        [f"  k{camel(z['name'])},  // {z['desc']}" + (f" ({z['caps']})" if "caps" in z else "")
         for z in m.get("sizes", [])] + \
        ["};", "", "struct Sizes {"] + \
        [f"  uint32_t {z['name'].lower()} = 0;" for z in m.get("sizes", [])] + \
        ["  constexpr uint32_t log2(Size s) const {",
         "    switch (s) {"] + \
        [f"      case Size::k{camel(z['name'])}: return {z['name'].lower()};" for z in m.get("sizes", [])] + \
        ["      default: return 0;", "    }", "  }", "};", "",
         "struct RegInfo {",
         "  const char* name;",
         "  uint32_t addr;    // first element",
         "  uint32_t count;   // array elements (1 for a scalar)",
         "  uint32_t stride;  // bytes between elements",
         "  Access access;",
         "  uint32_t reset;   // reset value (all fields)",
         "  uint32_t mask;    // bits that belong to a field",
         "  Size bound;       // implemented elements: 2^sizes.log2(bound) / bound_per",
         "  uint32_t bound_per;",
         "  bool nic_plane;   // implemented by the NIC plane build",
         "  // elements implemented at these sizes",
         "  constexpr uint32_t limit(const Sizes& s) const {",
         "    if (bound == Size::kNone) return count;",
         "    uint32_t n = ((uint32_t(1) << s.log2(bound)) + bound_per - 1) / bound_per;",
         "    return n < count ? n : count;",
         "  }",
         "};", ""]
    for r in regs:
        n = r["name"]
        o.append(f"// {r['block']}.{n} ({r['access']}): {r['desc']}")
        o.append(f"namespace {n} {{")
        o.append(f"inline constexpr uint32_t kAddr = 0x{r['addr']:04x};")
        o.append(f"inline constexpr uint32_t kCount = {r['count']};")
        o.append(f"inline constexpr uint32_t kStride = {r['stride']};")
        o.append(f"inline constexpr uint32_t kReset = 0x{r['reset']:08x};")
        o.append(f"inline constexpr Access kAccess = Access::k{r['access']};")
        o.append("constexpr uint32_t addr(uint32_t i) { return kAddr + i * kStride; }")
        o.append("// off is element i of this register (the inverse of addr)")
        o.append("constexpr bool index_of(uint32_t off, uint32_t& i) {")
        o.append("  if (off < kAddr || off >= addr(kCount) || (off - kAddr) % kStride != 0) return false;")
        o.append("  i = (off - kAddr) / kStride;")
        o.append("  return true;")
        o.append("}")
        for f in r["fields"]:
            o.append(f"inline constexpr Field {f['name']}{{{num(f['lsb'])}, {num(f['width'])}}};"
                     f"  // {f['desc']}")
        o.append(f"}}  // namespace {n}")
    o.append("")
    for e in enums:
        cn = camel(e["name"])
        o.append(f"// {e['desc']}")
        o.append(f"enum class {cn} : {e.get('ctype', 'uint32_t')} {{")
        for v in e["values"]:
            o.append(f"  k{camel(v['name'])} = {num(v['value'])},  // {v['desc']}")
        o.append("};")
        if contiguous(e):
            o.append(f"inline constexpr int k{cn}Count = {len(e['values'])};")
        # the value's name in the map, for tables and messages
        o.append(f"inline const char* {e['name']}_map_name(uint32_t v) {{")
        o.append("  switch (v) {")
        for v in e["values"]:
            o.append(f"    case {num(v['value'])}: return \"{v['name']}\";")
        o.append("    default: return nullptr;")
        o.append("  }")
        o.append("}")
        if any(v.get("rtl_only") for v in e["values"]):
            # values that are properties of the RTL, not of the contract (the model reads 0)
            o.append(f"inline constexpr bool {e['name']}_rtl_only(uint32_t v) {{")
            o.append("  return " + " || ".join(f"v == {num(v['value'])}" for v in e["values"]
                                               if v.get("rtl_only")) + ";")
            o.append("}")
        if e["values"] and "label" in e["values"][0]:
            o.append(f"inline const char* {e['name']}_name({cn} v) {{")
            o.append("  switch (v) {")
            for v in e["values"]:
                o.append(f"    case {cn}::k{camel(v['name'])}: return \"{v['label']}\";")
            o.append("  }")
            o.append("  return \"invalid\";")
            o.append("}")
    o.append("")
    for lay in m.get("layouts", []):
        o += gen_hpp_layout(m, lay)
    o.append("inline constexpr RegInfo kRegisters[] = {")
    for r in regs:
        bound = f"Size::k{camel(r['bound'])}" if r["bound"] else "Size::kNone"
        o.append(f"    {{\"{r['name']}\", 0x{r['addr']:04x}, {r['count']}, {r['stride']}, "
                 f"Access::k{r['access']}, 0x{r['reset']:08x}, 0x{r['mask']:08x}, {bound}, "
                 f"{r['bound_per']}, {'true' if r['nic_plane'] else 'false'}}},")
    o.append("};")
    o.append("")
    o.append("// The register and element at a byte offset, or nullptr: unaligned, unmapped, or an")
    o.append("// element past the implemented size (the slave answers SLVERR).")
    o.append("inline const RegInfo* decode(uint32_t offset, const Sizes& s, uint32_t& index) {")
    o.append("  if (offset & 3) return nullptr;")
    o.append("  for (const RegInfo& reg : kRegisters) {")
    o.append("    if (offset < reg.addr || offset >= reg.addr + reg.count * reg.stride) continue;")
    o.append("    if ((offset - reg.addr) % reg.stride) continue;")
    o.append("    index = (offset - reg.addr) / reg.stride;")
    o.append("    return index < reg.limit(s) ? &reg : nullptr;")
    o.append("  }")
    o.append("  return nullptr;")
    o.append("}")
    o.append("")
    o.append("}  // namespace flowsteer::regs")
    return "\n".join(o) + "\n"


def gen_hpp_layout(m, lay):
    ln, cn, words = lay["name"].upper(), camel(lay["name"]), num(lay["words"])
    o = [f"// layout {lay['name']}: {lay['desc']}",
         f"namespace {ln} {{",
         f"inline constexpr uint32_t kWords = {words};"]
    reserved = [0xFFFFFFFF] * words
    for f, w, lsb, width in lay_fields(lay):
        o.append(f"inline constexpr LayoutField {f['name']}{{{w}, {{{lsb}, {width}}}}};  // {f['desc']}")
        reserved[w] &= ~(((1 << width) - 1) << lsb) & 0xFFFFFFFF
    o.append("inline constexpr uint32_t kReserved[kWords] = {" +
             ", ".join(f"0x{x:08x}" for x in reserved) + "};")
    o.append(f"}}  // namespace {ln}")
    o.append(f"struct {cn} {{")
    for f, w, lsb, width in lay_fields(lay):
        t = ctype_of(m, f, width)
        init = "false" if t == "bool" else f"{t}(0)" if f.get("enum") else "0"
        o.append(f"  {t} {f['name'].lower()} = {init};")
    o.append("  uint32_t reserved = 0;  // unpack: OR of the reserved bits found (must be 0)")
    o.append("};")
    o.append(f"inline {cn} unpack_{lay['name']}(const uint32_t w[{ln}::kWords]) {{")
    o.append(f"  {cn} r;")
    for f, w, lsb, width in lay_fields(lay):
        t = ctype_of(m, f, width)
        get = f"{ln}::{f['name']}.get(w)"
        o.append(f"  r.{f['name'].lower()} = " + (f"{get} != 0;" if t == "bool" else f"{t}({get});"))
    o.append(f"  for (uint32_t i = 0; i < {ln}::kWords; ++i) r.reserved |= w[i] & {ln}::kReserved[i];")
    o.append("  return r;")
    o.append("}")
    o.append(f"// reserved bits are written 0")
    o.append(f"inline void pack_{lay['name']}(const {cn}& r, uint32_t w[{ln}::kWords]) {{")
    o.append(f"  for (uint32_t i = 0; i < {ln}::kWords; ++i) w[i] = 0;")
    for f, w, lsb, width in lay_fields(lay):
        o.append(f"  {ln}::{f['name']}.put(w, uint32_t(r.{f['name'].lower()}));")
    o.append("}")
    if words == 1:
        o.append(f"inline uint32_t pack_{lay['name']}(const {cn}& r) {{")
        o.append("  uint32_t w[1];")
        o.append(f"  pack_{lay['name']}(r, w);")
        o.append("  return w[0];")
        o.append("}")
    o.append("")
    return o


def gen_md(m, regs, enums):
    o = ["# flowsteer register map", "",
         "<!-- Generated by scripts/gen_regs.py from hw/regs/flowsteer_regs.json. Do not edit. -->",
         "", m["desc"], "",
         f"Map version 0x{num(m['version']):08x}; {num(m['addr_width'])}-bit byte addresses; "
         "32-bit registers. Access: " +
         "; ".join(f"**{k}** {v}" for k, v in ACCESS.items()) + ".", "",
         "## Summary", "", "| address | name | access | count | reset | description |",
         "|---|---|---|---|---|---|"]
    for r in regs:
        arr = f"{r['count']} x {r['stride']} B" if r["count"] > 1 else "1"
        o.append(f"| 0x{r['addr']:04x} | {r['name']} | {r['access']} | {arr} | "
                 f"0x{r['reset']:08x} | {r['desc']} |")
    o.append("")
    for blk in m["blocks"]:
        o.append(f"## Block {blk['name']} (0x{num(blk['base']):04x}, "
                 f"0x{num(blk['size']):x} bytes)")
        o.append("")
        o.append(blk["desc"])
        o.append("")
        for r in [x for x in regs if x["block"] == blk["name"]]:
            arr = (f", {r['count']} elements, stride {r['stride']}" if r["count"] > 1 else "")
            o.append(f"### {r['name']} — 0x{r['addr']:04x} ({r['access']}{arr})")
            o.append("")
            o.append(r["desc"])
            o.append("")
            o.append("| bits | field | reset | description |")
            o.append("|---|---|---|---|")
            for f in r["fields"]:
                lsb, w = num(f["lsb"]), num(f["width"])
                bits = f"{lsb}" if w == 1 else f"{lsb + w - 1}:{lsb}"
                o.append(f"| {bits} | {f['name']} | 0x{num(f.get('reset', 0)):x} | {f['desc']} |")
            o.append("")
    sizes = m.get("sizes", [])
    if sizes:
        o.append("## Implemented sizes")
        o.append("")
        o.append("An array register with a bound has 2^size / per elements implemented (at most its "
                 "count); an element past that answers SLVERR.")
        o.append("")
        o.append("| size | reported in | bounds | description |")
        o.append("|---|---|---|---|")
        for z in sizes:
            users = ", ".join(r["name"] + (f" (/{r['bound_per']})" if r["bound_per"] > 1 else "")
                              for r in regs if r["bound"] == z["name"])
            o.append(f"| {z['name']} | {z.get('caps', '-')} | {users} | {z['desc']} |")
        o.append("")
    for lay in m.get("layouts", []):
        o.append(f"## Layout {lay['name']} ({num(lay['words'])} x 32 bits)")
        o.append("")
        o.append(lay["desc"])
        o.append("")
        o.append("| word | bits | field | description |")
        o.append("|---|---|---|---|")
        for f, w, lsb, width in lay_fields(lay):
            bits = f"{lsb}" if width == 1 else f"{lsb + width - 1}:{lsb}"
            d = f["desc"] + (f" (enum {f['enum']})" if f.get("enum") else "") + \
                (", signed" if f.get("signed") else "")
            o.append(f"| {w} | {bits} | {f['name']} | {d} |")
        o.append("")
    o.append("## Enumerations")
    o.append("")
    for e in enums:
        o.append(f"### {e['name']}")
        o.append("")
        o.append(e["desc"])
        o.append("")
        o.append("| value | name | description |")
        o.append("|---|---|---|")
        for v in e["values"]:
            rtl = " (RTL only: the model reads 0)" if v.get("rtl_only") else ""
            o.append(f"| {num(v['value'])} | {v['name']} | {v['desc']}{rtl} |")
        o.append("")
    return "\n".join(o)


# The engine window starts at s_axi_control offset 0 (hw/alveo/README.md).
TCL_ENGINE_BASE = 0x0000


def tcl_word(s):
    return "{" + "".join(c for c in s if c not in "{}\\[]$\"\n") + "}"


def gen_tcl(m, regs, map_name):
    o = [f"# Generated by scripts/gen_regs.py from {map_name}. Do not edit.",
         "# {name offset access count description}, offset inside s_axi_control",
         "set FS_REGS {"]
    for r in regs:
        o.append(f"  {{{r['name']} 0x{TCL_ENGINE_BASE + r['addr']:04x} {r['access']} {r['count']} "
                 f"{tcl_word(r.get('desc', ''))}}}")
    o.append("}")
    return "\n".join(o) + "\n"


def gen_layouts_h(m):
    """C preprocessor macros of every layout (HLS code cannot include the C++ header)."""
    o = ["// Generated by scripts/gen_regs.py from hw/regs/flowsteer_regs.json: do not edit.",
         "// Bit offsets count from bit 0 of a layout's whole word (word w, bit b = 32 * w + b).",
         "#pragma once"]
    o += layout_constants(m, "#define {} {}")
    return "\n".join(o) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map")
    ap.add_argument("--vh")
    ap.add_argument("--hpp")
    ap.add_argument("--md")
    ap.add_argument("--tcl", help="register list for hw/alveo/package_xo.tcl")
    ap.add_argument("--layouts-h", help="the layouts as C macros (the HLS data movers)")
    ap.add_argument("--check", metavar="MD",
                    help="exit 1 if MD differs from the document the map generates")
    a = ap.parse_args()
    try:
        m, regs, enums = load(a.map)
    except (MapError, KeyError, ValueError, OSError) as e:
        print(f"gen_regs: {a.map}: {e}", file=sys.stderr)
        return 2
    if a.vh:
        write_if_changed(a.vh, gen_vh(m, regs, enums))
    if a.hpp:
        write_if_changed(a.hpp, gen_hpp(m, regs, enums))
    if a.md:
        write_if_changed(a.md, gen_md(m, regs, enums))
    if a.tcl:
        write_if_changed(a.tcl, gen_tcl(m, regs, os.path.basename(a.map)))
    if a.layouts_h:
        write_if_changed(a.layouts_h, gen_layouts_h(m))
    if a.check:
        try:
            with open(a.check, encoding="utf-8") as f:
                cur = f.read()
        except OSError as e:
            print(f"gen_regs: {e}", file=sys.stderr)
            return 1
        if cur != gen_md(m, regs, enums):
            print(f"gen_regs: {a.check} is stale; regenerate it with "
                  f"scripts/gen_regs.py {a.map} --md {a.check}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
