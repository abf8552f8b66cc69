#include "cli_validate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "flowsteer/quote.h"
#include <vector>

namespace flowsteer::cli {

namespace {

std::string escape_byte(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    case '\0': return "\\0";
    case '\\': return "\\\\";
    case '\'': return "\\'";
    default: break;
  }
  if (c < 0x20 || c >= 0x7f) {
    char b[8];
    std::snprintf(b, sizeof b, "\\x%02x", c);
    return b;
  }
  return std::string(1, char(c));
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Exact unsigned parse of decimal or 0x hex digits; false on anything else or overflow.
bool exact_u64(std::string_view t, uint64_t& out, bool& overflow) {
  overflow = false;
  unsigned base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (t.empty()) return false;
  uint64_t v = 0;
  for (char c : t) {
    const int d = base == 16 ? hex_value(c) : (c >= '0' && c <= '9' ? c - '0' : -1);
    if (d < 0) return false;
    if (v > (UINT64_MAX - uint64_t(d)) / base) overflow = true;
    v = v * base + uint64_t(d);
  }
  out = v;
  return !overflow;
}

}  // namespace

std::string quote(std::string_view bytes, size_t max) { return quote_bytes(bytes, max); }

std::string one_line(std::string_view message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.remove_suffix(1);
  std::string out;
  for (unsigned char c : message) {
    if (c < 0x20 || c == 0x7f) out += escape_byte(c);
    else out += char(c);
  }
  return out;
}

uint64_t parse_u64(std::string_view text, const std::string& what, uint64_t max) {
  uint64_t v = 0;
  bool overflow = false;
  if (!exact_u64(text, v, overflow)) {
    if (overflow)
      throw UsageError(what + ": " + quote(text) + " is out of range (max " + std::to_string(max) + ")");
    throw UsageError(what + ": " + quote(text) + " is not an unsigned number (decimal or 0x hex)");
  }
  if (v > max) throw UsageError(what + ": " + quote(text) + " is out of range (max " + std::to_string(max) + ")");
  return v;
}

std::string check_number_text(const std::string& text, const std::string& type) {
  if (type == "UINT") {
    uint64_t v;
    bool overflow;
    if (exact_u64(text, v, overflow)) return "";
    return overflow ? quote(text) + " is out of range (max " + std::to_string(UINT64_MAX) + ")"
                    : quote(text) + " is not an unsigned number (decimal or 0x hex)";
  }
  if (type == "INT") {
    std::string_view t = text;
    if (!t.empty() && t[0] == '-') t.remove_prefix(1);
    uint64_t v;
    bool overflow;
    if (exact_u64(t, v, overflow) && v <= uint64_t(INT64_MAX) + (t.size() < text.size() ? 1 : 0)) return "";
    return quote(text) + " is not an integer in range (decimal or 0x hex)";
  }
  if (type == "FLOAT") {
    try {
      parse_finite(text, "");
    } catch (const UsageError&) {
      return quote(text) + " is not a finite number";
    }
  }
  return "";
}

double parse_finite(std::string_view text, const std::string& what) {
  const std::string t(text);
  const std::string prefix = what.empty() ? "" : what + ": ";
  if (t.empty() || std::isspace(static_cast<unsigned char>(t[0])) || t.find('\0') != std::string::npos)
    throw UsageError(prefix + quote(text) + " is not a finite number");
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v) || (errno == ERANGE && std::fabs(v) > 1.0))
    throw UsageError(prefix + quote(text) + " is not a finite number");
  return v;
}

void harden_numbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options()) {
    std::string type = o->get_type_name();  // "FLOAT" or "FLOAT:<validator description>"
    type = type.substr(0, type.find(':'));
    if (type != "UINT" && type != "INT" && type != "FLOAT") continue;
    o->check(CLI::Validator([type](std::string& s) { return check_number_text(s, type); }, "", "strict-number"));
  }
}

uint64_t memory_limit() {
  if (const char* e = std::getenv("FLOWSTEER_MEM_LIMIT")) {
    uint64_t v = 0;
    bool overflow = false;
    if (exact_u64(e, v, overflow) && v > 0) return v;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return uint64_t(4) << 30;
  return uint64_t(pages) * uint64_t(page) / 2;
}

std::string human_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 6) v /= 1024.0, ++u;
  char b[32];
  std::snprintf(b, sizeof b, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return b;
}

void check_memory(uint64_t bytes, const std::string& what) {
  const uint64_t limit = memory_limit();
  if (bytes > limit)
    throw UsageError(what + " needs about " + human_bytes(bytes) + " of memory, more than the limit of " +
                     human_bytes(limit) + " (half the physical memory; FLOWSTEER_MEM_LIMIT sets it)");
}

// ---- output files ----

namespace {

std::string dir_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A new empty file next to `path`; its name, or throws.
std::string make_temp(const std::string& path, const std::string& what) {
  std::string name = dir_of(path) + "/." + base_of(path) + ".tmp-XXXXXX";
  std::vector<char> buf(name.begin(), name.end());
  buf.push_back('\0');
  const int fd = mkstemp(buf.data());
  if (fd < 0) throw UsageError(what + ": cannot write " + quote(path) + ": " + std::strerror(errno));
  const mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, 0666 & ~mask);
  close(fd);
  return std::string(buf.data());
}

}  // namespace

OutputFile::~OutputFile() {
  if (!committed_) discard();
}

void OutputFile::discard() {
  stream_.reset();
  if (!tmp_.empty()) std::remove(tmp_.c_str());
  tmp_.clear();
}

void OutputFile::open(const std::string& path, const std::string& what) {
  path_ = path;
  what_ = what;
  if (path.empty()) throw UsageError(what + ": empty file name");
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw UsageError(what + ": cannot write " + quote(path) + ": it is a directory");
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    // a device or a fifo: written in place (a rename would replace the node)
    stream_ = std::make_unique<std::ofstream>(path, std::ios::out | std::ios::binary);
    if (!*stream_) throw UsageError(what + ": cannot write " + quote(path) + ": " + std::strerror(errno));
    return;
  }
  tmp_ = make_temp(path, what);
  stream_ = std::make_unique<std::ofstream>(tmp_, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!*stream_) {
    const int e = errno;
    discard();
    throw UsageError(what + ": cannot write " + quote(path) + ": " + std::strerror(e));
  }
}

void OutputFile::commit() {
  if (!stream_) return;
  stream_->flush();
  bool ok = bool(*stream_);
  int e = errno;
  stream_->close();
  if (ok && stream_->fail()) ok = false, e = errno;
  if (!ok) {
    discard();
    throw UsageError(what_ + ": error writing " + quote(path_) + ": " + std::strerror(e ? e : EIO));
  }
  stream_.reset();
  if (!tmp_.empty()) {
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
      e = errno;
      discard();
      throw UsageError(what_ + ": cannot rename the output onto " + quote(path_) + ": " + std::strerror(e));
    }
    tmp_.clear();
  }
  committed_ = true;
}

void OutputFile::commit_external() {
  stream_.reset();
  if (tmp_.empty()) {
    committed_ = true;
    return;
  }
  struct stat st {};
  if (stat(tmp_.c_str(), &st) != 0) {
    discard();
    throw UsageError(what_ + ": " + quote(path_) + " was not written");
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int e = errno;
    discard();
    throw UsageError(what_ + ": cannot rename the output onto " + quote(path_) + ": " + std::strerror(e));
  }
  tmp_.clear();
  committed_ = true;
}

void check_writable(const std::string& path, const std::string& what) {
  OutputFile probe;
  probe.open(path, what);  // removed again by the destructor
}

bool flush_stdout() {
  std::cout.flush();
  const bool cpp_ok = bool(std::cout);
  const bool c_ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
  return cpp_ok && c_ok;
}

}  // namespace flowsteer::cli
