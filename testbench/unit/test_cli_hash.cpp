// `flowsteer hash` end to end: runs the built binary (build/flowsteer, found as
// ../flowsteer next to this test binary's directory) and checks stdout, stderr and
// the exit status (DESIGN "The command line").
#include <gtest/gtest.h>

#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "flowsteer/hash/hash.h"
#include "flowsteer/tuple.h"

namespace {

std::string flowsteer_binary() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  std::string self(buf, size_t(n));
  std::string dir = self.substr(0, self.rfind('/'));
  return dir + "/../flowsteer";
}

struct CliRun {
  int rc = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// fork + execv with stdout/stderr in temporary files; no shell, no quoting issues.
CliRun run_cli(const std::vector<std::string>& args) {
  CliRun r;
  const std::string bin = flowsteer_binary();
  char out_path[] = "/tmp/flowsteer_cli_out_XXXXXX";
  char err_path[] = "/tmp/flowsteer_cli_err_XXXXXX";
  int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
  if (out_fd < 0 || err_fd < 0) return r;
  std::vector<std::string> argv_s = {bin, "hash"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    execv(bin.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
    r.rc = WEXITSTATUS(status);
  close(out_fd);
  close(err_fd);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  unlink(out_path);
  unlink(err_path);
  return r;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x\n", v);
  return buf;
}

class CliHash : public ::testing::Test {
 protected:
  void SetUp() override {
    struct stat st;
    if (stat(flowsteer_binary().c_str(), &st) != 0)
      GTEST_SKIP() << "flowsteer binary not built at " << flowsteer_binary()
                   << " (build the `flowsteer` target)";
  }
  void expect_ok(const std::vector<std::string>& args, const std::string& out) {
    CliRun r = run_cli(args);
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, out);
    EXPECT_EQ(r.err, "");
  }
  // Exit 2, nothing on stdout, exactly one line "flowsteer hash: ..." on stderr
  // containing `mention`.
  void expect_usage(const std::vector<std::string>& args, const std::string& mention) {
    CliRun r = run_cli(args);
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    SCOPED_TRACE(joined);
    EXPECT_EQ(r.rc, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("flowsteer hash: ", 0), 0u) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.back(), '\n');
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
  }
};

}  // namespace

TEST_F(CliHash, ToeplitzMicrosoftVectors) {
  expect_ok({"--algo", "toeplitz", "--src", "66.9.149.187", "--dst", "161.142.100.80",
             "--sport", "2794", "--dport", "1766"},
            "0x51ccc178\n");
  expect_ok({"--algo", "toeplitz", "--src", "66.9.149.187", "--dst", "161.142.100.80"},
            "0x323e8fc2\n");
  expect_ok({"--algo", "toeplitz", "--src", "3ffe:2501:200:1fff::7", "--dst",
             "3ffe:2501:200:3::1", "--sport", "2794", "--dport", "1766"},
            "0x40207d3d\n");
  expect_ok({"--algo", "toeplitz", "--src", "3ffe:2501:200:1fff::7", "--dst",
             "3ffe:2501:200:3::1"},
            "0x2cc18cd5\n");
  // Explicit key (same Microsoft key, with 0x) and numbers in hex.
  expect_ok({"--algo", "toeplitz", "--key",
             "0x6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa",
             "--src", "66.9.149.187", "--dst", "161.142.100.80", "--sport", "0xaea", "--dport",
             "0x6e6"},
            "0x51ccc178\n");
}

TEST_F(CliHash, ToeplitzRawInput) {
  expect_ok({"--algo", "toeplitz", "--input-hex", "420995bba18e64500aea06e6"}, "0x51ccc178\n");
  expect_ok({"--algo", "toeplitz", "--input-hex", "0x420995BBA18E6450"}, "0x323e8fc2\n");
  const std::vector<uint8_t> key = {1, 2, 3, 4, 5, 6};
  const std::vector<uint8_t> in = {0x80, 0x01};
  expect_ok({"--algo", "toeplitz", "--key", "010203040506", "--input-hex", "8001"},
            hex32(flowsteer::hash::toeplitz(in, key)));
}

TEST_F(CliHash, SymmetricAlgorithms) {
  expect_ok({"--algo", "toeplitz-symxor", "--src", "66.9.149.187", "--dst", "161.142.100.80",
             "--sport", "2794", "--dport", "1766"},
            "0xac2b58ca\n");
  expect_ok({"--algo", "toeplitz-symxor", "--src", "161.142.100.80", "--dst", "66.9.149.187",
             "--sport", "1766", "--dport", "2794"},
            "0xac2b58ca\n");
  flowsteer::FlowTuple t = flowsteer::make_tuple("10.1.2.3", "192.168.7.9", 5555, 80);
  const std::string with = hex32(flowsteer::hash::jhash_sym_2010(t, 0xabcdef));
  expect_ok({"--algo", "jhash-sym", "--seed", "0xabcdef", "--src", "10.1.2.3", "--dst",
             "192.168.7.9", "--sport", "5555", "--dport", "80"},
            with);
  expect_ok({"--algo", "jhash-sym", "--seed", "11259375", "--src", "192.168.7.9", "--dst",
             "10.1.2.3", "--sport", "80", "--dport", "5555"},
            with);
  t.sport = t.dport = 0;
  expect_ok({"--algo", "jhash-sym", "--src", "10.1.2.3", "--dst", "192.168.7.9"},
            hex32(flowsteer::hash::jhash_sym_2010(t, 0)));
  flowsteer::FlowTuple t6 = flowsteer::make_tuple("2001:db8::5", "2001:db8::9", 1, 2);
  expect_ok({"--algo", "jhash-sym", "--src", "2001:db8::9", "--dst", "2001:db8::5", "--sport",
             "2", "--dport", "1", "--seed", "7"},
            hex32(flowsteer::hash::jhash_sym_2010(t6, 7)));
}

TEST_F(CliHash, RawJhash) {
  expect_ok({"--algo", "jhash3", "--words", "1,2,3"}, "0xa46158f5\n");
  expect_ok({"--algo", "jhash3", "--words", "0,0,0", "--seed", "0"}, "0x1b68e557\n");
  expect_ok({"--algo", "jhash3", "--words", "0x0100007F,0x0200007F,0x5000D204", "--seed",
             "0x12345678"},
            "0x0aa906e7\n");
  expect_ok({"--algo", "jhash2", "--words", "1,2,3"}, "0xa46158f5\n");
  const uint32_t w[5] = {5, 4, 3, 2, 0xffffffff};
  expect_ok({"--algo", "jhash2", "--words", "5,4,3,2,0xffffffff", "--seed", "9"},
            hex32(flowsteer::hash::jhash2(w, 5, 9)));
}

TEST_F(CliHash, HelpExitsZero) {
  CliRun r = run_cli({"--help"});
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("--algo"), std::string::npos);
}

TEST_F(CliHash, BadUsageExitsTwoWithOneLine) {
  expect_usage({"--algo", "crc32", "--src", "1.2.3.4", "--dst", "5.6.7.8"}, "crc32");
  expect_usage({}, "--algo");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.4"}, "--dst");
  expect_usage({"--algo", "toeplitz", "--dst", "1.2.3.4"}, "--src");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.400", "--dst", "1.2.3.4"}, "1.2.3.400");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.4", "--dst", "fe80::zz"}, "fe80::zz");
  expect_usage({"--algo", "jhash-sym", "--src", "1.2.3.4", "--dst", "::1"}, "famil");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.4", "--dst", "5.6.7.8", "--sport",
                "65536", "--dport", "1"},
               "65536");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.4", "--dst", "5.6.7.8", "--sport", "1"},
               "--dport");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.4", "--dst", "5.6.7.8", "--sport", "x1",
                "--dport", "1"},
               "x1");
  expect_usage({"--algo", "toeplitz", "--key", "6d5g", "--src", "1.2.3.4", "--dst", "5.6.7.8"},
               "--key");
  expect_usage({"--algo", "toeplitz", "--input-hex", "abc"}, "--input-hex");
  expect_usage({"--algo", "toeplitz", "--input-hex", "nothex"}, "--input-hex");
  // Key too short for the input: 40-byte key, IPv6 with ports needs exactly 40 -> fine;
  // a 16-byte key for IPv4 with ports (needs 16) is fine, 15 is not.
  expect_usage({"--algo", "toeplitz", "--key", "000102030405060708090a0b0c0d0e", "--src",
                "1.2.3.4", "--dst", "5.6.7.8", "--sport", "1", "--dport", "2"},
               "too short");
  expect_ok({"--algo", "toeplitz", "--key", "000102030405060708090a0b0c0d0e0f", "--src",
             "1.2.3.4", "--dst", "5.6.7.8", "--sport", "1", "--dport", "2"},
            hex32(flowsteer::hash::toeplitz_tuple(
                flowsteer::make_tuple("1.2.3.4", "5.6.7.8", 1, 2),
                flowsteer::hash::RssKey{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                true)));
  expect_usage({"--algo", "toeplitz", "--input-hex", std::string(74, 'a')}, "too short");
  expect_usage({"--algo", "jhash3", "--words", "1,2"}, "3");
  expect_usage({"--algo", "jhash3", "--words", "1,2,3,4"}, "3");
  expect_usage({"--algo", "jhash3"}, "--words");
  expect_usage({"--algo", "jhash2", "--words", "1,,2"}, "--words");
  expect_usage({"--algo", "jhash2", "--words", "1,0x1ffffffff"}, "0x1ffffffff");
  expect_usage({"--algo", "jhash3", "--words", "1,2,3", "--seed", "-1"}, "--seed");
  expect_usage({"--algo", "jhash3", "--words", "1,2,3", "--src", "1.2.3.4"}, "--src");
  expect_usage({"--algo", "jhash2", "--words", "1", "--key", "00"}, "--key");
  expect_usage({"--algo", "toeplitz", "--seed", "1", "--src", "1.2.3.4", "--dst", "5.6.7.8"},
               "--seed");
  expect_usage({"--algo", "toeplitz-symxor", "--input-hex", "00"}, "--input-hex");
  expect_usage({"--algo", "toeplitz", "--input-hex", "00", "--src", "1.2.3.4"}, "--src");
  expect_usage({"--algo", "toeplitz", "--src", "1.2.3.4", "--dst", "5.6.7.8", "--bogus"},
               "--bogus");
  expect_usage({"--algo", "jhash3", "--words", "1,2,3", "stray"}, "stray");
}
