// The validation layer every verb shares: strict numbers, bounded quoting of
// input bytes, a memory estimate checked before allocating, output files that are checked
// before the run and committed (temporary file + rename) after it, and one line for every
// error. Exit codes: DESIGN.md "The command line" (0 ok, 1 failed check, 2 bad usage/input).
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace flowsteer::cli {

// A bad argument or input, or an output that cannot be written: exit 2 with what() as the
// one line after "flowsteer <verb>: ".
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `bytes` between single quotes, escaped (\n \r \t \0 \\ \' and \xNN for other control or
// non-ASCII bytes) and bounded: at most `max` characters of escaped text, then "...".
std::string quote(std::string_view bytes, size_t max = 80);
// `message` with every control character escaped, so it is one line.
std::string one_line(std::string_view message);

// Exact number parsing: decimal or 0x hex, no sign, no whitespace, no wrap or saturation.
// Throws UsageError naming `what` and quoting the text.
uint64_t parse_u64(std::string_view text, const std::string& what, uint64_t max = UINT64_MAX);
// A finite decimal floating-point number (no nan, no inf, no overflow to inf), no whitespace.
double parse_finite(std::string_view text, const std::string& what);
// Empty string if `text` is a valid value for a CLI11 option of type name `type` (INT, UINT,
// FLOAT; anything else is accepted), else the reason.
std::string check_number_text(const std::string& text, const std::string& type);

// Adds the strict number check to every numeric option of `app` (called by parse()).
void harden_numbers(CLI::App& app);

// Memory the run may use: FLOWSTEER_MEM_LIMIT (bytes, decimal) or half the physical memory.
uint64_t memory_limit();
// Refuses (UsageError, one line with the estimate and the limit) when `bytes` > limit.
void check_memory(uint64_t bytes, const std::string& what);
std::string human_bytes(uint64_t bytes);

// An output file of a run. open() (before the run) creates a temporary file next to the
// target, so an unwritable target is refused before any work; commit() (after it) checks
// every write and the close and renames the temporary onto the target. Without commit()
// the temporary is removed: a failed run leaves no partial or empty file. A target that
// exists and is not a regular file (/dev/stdout, /dev/full, a fifo) is written in place,
// with its writes and close checked.
class OutputFile {
 public:
  OutputFile() = default;
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Throws UsageError ("cannot write '<path>': <reason>"). `what` names the option (--json).
  void open(const std::string& path, const std::string& what);
  bool is_open() const { return stream_ != nullptr; }
  std::ostream& stream() { return *stream_; }
  const std::string& path() const { return path_; }
  // The path a library writes itself (a waveform): the temporary, or the target in place.
  const std::string& write_path() const { return tmp_.empty() ? path_ : tmp_; }
  // Closes the stream (if the file was written through it) and renames; UsageError on a
  // failed write, close or rename.
  void commit();
  // For a file a library wrote at write_path(): checks it exists, then renames.
  void commit_external();

 private:
  void discard();
  std::string path_, what_, tmp_;
  std::unique_ptr<std::ofstream> stream_;
  bool committed_ = false;
};

// A writability probe for a file another program writes (the SystemC bench's --trace):
// refuses a path whose directory cannot take a new file. Creates nothing that stays.
void check_writable(const std::string& path, const std::string& what);

// Flushes stdout (std::cout and stdio); false when a write to it failed.
bool flush_stdout();

}  // namespace flowsteer::cli
