// The Microsoft "Verifying the RSS Hash Calculation" table (40-byte key, spec 6.5; also the
// 82599 datasheet), shared by the C++ hash tests and the RTL hash-unit tests.
#pragma once

#include <cstdint>

namespace flowsteer::test {

struct MsRssVector {
  const char* src;
  uint16_t sport;
  const char* dst;
  uint16_t dport;
  uint32_t addr_only;   // 2-tuple hash
  uint32_t with_ports;  // 4-tuple hash
};

// Rows 0..4 IPv4, 5..7 IPv6.
inline constexpr MsRssVector kMsRssVectors[] = {
    {"66.9.149.187", 2794, "161.142.100.80", 1766, 0x323e8fc2, 0x51ccc178},
    {"199.92.111.2", 14230, "65.69.140.83", 4739, 0xd718262a, 0xc626b0ea},
    {"24.19.198.95", 12898, "12.22.207.184", 38024, 0xd2d0a5de, 0x5c2b394a},
    {"38.27.205.30", 48228, "209.142.163.6", 2217, 0x82989176, 0xafc7327f},
    {"153.39.163.191", 44251, "202.188.127.2", 1303, 0x5d1809c5, 0x10e828a2},
    {"3ffe:2501:200:1fff::7", 2794, "3ffe:2501:200:3::1", 1766, 0x2cc18cd5, 0x40207d3d},
    {"3ffe:501:8::260:97ff:fe40:efab", 14230, "ff02::1", 4739, 0x0f0c461c, 0xdde51bbf},
    {"3ffe:1900:4545:3:200:f8ff:fe21:67cf", 44251, "fe80::200:f8ff:fe21:67cf", 38024,
     0x4b61e985, 0x02d1feef},
};
inline constexpr size_t kMsRssIpv4Rows = 5;

}  // namespace flowsteer::test
