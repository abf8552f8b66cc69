#!/usr/bin/env python3
"""Stimulus for the cross-simulator run of fs_engine_top (testbench/rtl/tb_engine_stream.sv).

Writes three $readmemh files into OUTDIR: setup.hex (AXI4-Lite writes: address << 32 | data),
beats.hex (one AXI4-Stream beat per line: tlast, tkeep, tdata) and meta.hex (counts). The
setup makes the engine steer: Toeplitz key, 16 CPUs and queues, slot tables, rmap, LUT, and a
sock-table entry per flow (the desired CPU of each flow), patched mode. Frames are IPv4/TCP
over FLOWS flows in a seeded random order. Standard library only.
"""
import argparse
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_regs  # noqa: E402

MS_KEY = bytes.fromhex(
    "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa")


def toeplitz(key, data):
    k = int.from_bytes(key, "big")
    kbits = len(key) * 8
    h = 0
    for i, byte in enumerate(data):
        for b in range(8):
            if byte & (0x80 >> b):
                pos = i * 8 + b
                h ^= (k >> (kbits - 32 - pos)) & 0xFFFFFFFF
    return h


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def tcp_frame(src, dst, sport, dport, payload_len):
    tcp = struct.pack("!HHIIBBHHH", sport, dport, 1, 0, 5 << 4, 0x10, 65535, 0, 0)
    tot = 20 + len(tcp) + payload_len
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, 0, 0x4000, 64, 6, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    eth = bytes.fromhex("02000000000102000000000208 00".replace(" ", ""))
    return eth + ip + tcp + bytes(payload_len)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--frames", type=int, default=2000)
    ap.add_argument("--flows", type=int, default=256)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data-width", type=int, default=512)
    ap.add_argument("--regs", default=os.path.join(os.path.dirname(__file__), "..", "hw", "regs",
                                                   "flowsteer_regs.json"))
    a = ap.parse_args()
    if a.frames < 1 or a.flows < 1 or a.data_width % 8:
        ap.error("--frames and --flows must be >= 1, --data-width a multiple of 8")
    _, regs, _ = gen_regs.load(a.regs)
    addr = {r["name"]: (r["addr"], r["stride"]) for r in regs}

    def reg(name, i=0):
        base, stride = addr[name]
        return base + i * stride

    rng = random.Random(a.seed)
    ncpu, mask, sock_log2, slot_log2, lut_log2 = 16, 15, 8, 6, 4
    key = MS_KEY + bytes(12)
    w = []
    for i in range(13):
        w.append((reg("RSS_KEY", i), int.from_bytes(key[4 * i:4 * i + 4], "big")))
    w += [(reg("HASH_CFG"), 0), (reg("NR_CPU_IDS"), ncpu), (reg("NUM_RX_QUEUES"), ncpu),
          (reg("RPS_CPU_MASK"), mask), (reg("CPU_ONLINE", 0), (1 << ncpu) - 1),
          (reg("SOCK_CFG"), sock_log2 | (1 << 8))]
    w += [(reg("RMAP", c), c) for c in range(ncpu)]
    w.append((reg("LUT_CFG"), lut_log2))
    w += [(reg("LUT", i), i % ncpu) for i in range(1 << lut_log2)]
    w += [(reg("RPS_FLOW_CNT", q), slot_log2 | (1 << 8)) for q in range(ncpu)]
    flows = []
    for f in range(a.flows):
        src = bytes([10, 0, f >> 8 & 255, f & 255])
        dst = bytes([10, 1, rng.randrange(256), rng.randrange(1, 255)])
        sport, dport = rng.randrange(1024, 65536), rng.choice([80, 443, 5201])
        h = toeplitz(key[:40], src + dst + struct.pack("!HH", sport, dport))
        cpu = rng.randrange(ncpu)
        flows.append((src, dst, sport, dport))
        if h:
            w += [(reg("SOCK_INDEX"), h & ((1 << sock_log2) - 1)),
                  (reg("SOCK_VALUE"), (h & ~mask & 0xFFFFFFFF) | cpu), (reg("SOCK_CMD"), 1)]
    w.append((reg("CTRL"), 0x6F))  # ENABLE PATCHED NTUPLE RMAP RPS FLT_LOOKUP

    nbytes = a.data_width // 8
    beats = []
    for _ in range(a.frames):
        fl = flows[rng.randrange(len(flows))]
        fr = tcp_frame(*fl, rng.choice([6, 64, 200]))
        for off in range(0, len(fr), nbytes):
            chunk = fr[off:off + nbytes]
            keep = (1 << len(chunk)) - 1
            data = int.from_bytes(chunk[::-1], "big")  # byte 0 in tdata[7:0]
            last = 1 if off + nbytes >= len(fr) else 0
            beats.append((last << (nbytes * 9)) | (keep << (nbytes * 8)) | data)
    os.makedirs(a.outdir, exist_ok=True)
    digits = (nbytes * 9 + 1 + 3) // 4
    with open(os.path.join(a.outdir, "setup.hex"), "w") as f:
        f.writelines(f"{ad:04x}{v:08x}\n" for ad, v in w)
    with open(os.path.join(a.outdir, "beats.hex"), "w") as f:
        f.writelines(f"{b:0{digits}x}\n" for b in beats)
    with open(os.path.join(a.outdir, "meta.hex"), "w") as f:
        f.write(f"{len(w):08x}\n{len(beats):08x}\n{a.frames:08x}\n")
    print(f"{len(w)} setup writes, {a.frames} frames, {len(beats)} beats -> {a.outdir}")


if __name__ == "__main__":
    main()
