#include "flowsteer/nic/nic.h"

namespace flowsteer::nic {

Nic::Nic(uint16_t num_queues, HashMode mode, size_t lut_size, size_t filter_capacity)
    : rss_(num_queues, mode, lut_size), filters_(filter_capacity) {}

RxResult Nic::receive(const uint8_t* frame, size_t len) {
  return steer(parse_frame(frame, len));
}

RxResult Nic::steer(const ParsedFrame& parsed) {
  RxResult r;
  r.parsed = parsed;
  r.hash = rss_.hash(parsed);
  const FilterEntry* hit = parsed.is_ip() ? filters_.lookup(parsed.tuple) : nullptr;
  if (hit) {
    r.filter_hit = true;
    r.fd_id = hit->fd_id;
    r.queue = hit->queue;
  } else {
    r.queue = rss_.queue(r.hash);
  }
  ++counters_.packets;
  ++counters_.by_class[size_t(parsed.cls)];
  if (r.filter_hit) ++counters_.filter_hits;
  if (r.hash == 0) ++counters_.no_hash;
  return r;
}

void Nic::reset_counters() {
  counters_ = NicCounters{};
  filters_.reset_counters();
}

}  // namespace flowsteer::nic
