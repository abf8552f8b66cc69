// The part of an sk_buff that RFS/aRFS reads (spec 1.2).
#pragma once

#include <cstdint>

#include "flowsteer/tuple.h"

namespace flowsteer::kernel {

struct Skb {
  uint32_t hash = 0;          // skb->hash (skb_get_hash); 0 = no hash (spec G4)
  int32_t rx_queue = -1;      // recorded RX queue (skb_record_rx_queue); -1 = none (spec G2)
  FlowTuple tuple;            // what the flow dissector finds (driver input, spec 7.2 R3)
  bool encapsulation = false; // skb->encapsulation (spec 7.2 R2)
  bool ipv4_fragment = false; // IPv4 MF or offset != 0 (spec 7.2 R4)
  bool dissect_ok = true;     // flow dissector succeeded (spec 7.2 R3)
};

}  // namespace flowsteer::kernel
