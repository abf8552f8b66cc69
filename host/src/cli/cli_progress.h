// Progress of a long run on stderr: only when enabled (stderr is a terminal, or
// --progress), so tests and pipelines stay quiet. On a terminal one line redrawn in place,
// at most a few times a second; otherwise a line per 10%.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace flowsteer::cli {

class Progress {
 public:
  Progress(std::string verb, bool enabled, uint64_t total, std::string unit = "frames")
      : verb_(std::move(verb)), unit_(std::move(unit)), on_(enabled), tty_(isatty(STDERR_FILENO)), total_(total),
        t0_(std::chrono::steady_clock::now()), last_(t0_) {}
  ~Progress() { done(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void set_total(uint64_t total) { total_ = total; }
  void update(uint64_t n) {
    if (!on_) return;
    const int pct = total_ ? int(100.0 * double(n) / double(total_)) : 0;
    if (tty_) {
      if ((n & 63) != 0 && n != total_) return;
      const auto now = std::chrono::steady_clock::now();
      if (now - last_ < std::chrono::milliseconds(250) && n != total_) return;
      last_ = now;
      std::fprintf(stderr, "\r%s: %llu/%llu %s (%d%%), %.0f s", verb_.c_str(), (unsigned long long)n,
                   (unsigned long long)total_, unit_.c_str(), pct, seconds());
      drawn_ = true;
    } else if (pct / 10 != last_pct_ / 10) {
      last_pct_ = pct;
      std::fprintf(stderr, "%s: %llu/%llu %s (%d%%), %.0f s\n", verb_.c_str(), (unsigned long long)n,
                   (unsigned long long)total_, unit_.c_str(), pct, seconds());
    }
  }
  void done() {
    if (drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
  }

 private:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }
  std::string verb_, unit_;
  bool on_, tty_;
  uint64_t total_;
  std::chrono::steady_clock::time_point t0_, last_;
  bool drawn_ = false;
  int last_pct_ = 0;
};

}  // namespace flowsteer::cli
