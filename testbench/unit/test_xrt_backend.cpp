// The XRT backend without a card: every failure is one clear DeviceError, never a crash.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <unistd.h>

#include "flowsteer/device/register_bus.h"

using flowsteer::device::DeviceError;
using flowsteer::device::open_xrt;

namespace {
std::string write_file(const char* name, const std::string& bytes) {
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string message_of(const std::string& xclbin) {
  try {
    open_xrt(xclbin);
  } catch (const DeviceError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(XrtBackend, MissingFileIsAClearError) {
  EXPECT_NE(message_of("/nonexistent/engine.xclbin").find("cannot read xclbin"), std::string::npos);
}

TEST(XrtBackend, NotAnXclbinIsAClearError) {
  std::string path = write_file("bad.xclbin", "this is not an xclbin at all");
  EXPECT_NE(message_of(path).find("is not an xclbin"), std::string::npos);
}

TEST(XrtBackend, TruncatedXclbinIsAClearError) {
  // The right magic but nothing after it: XRT must fail to parse it, we must report that.
  std::string path = write_file("trunc.xclbin", std::string("xclbin2\0", 8) + std::string(16, '\0'));
  std::string msg = message_of(path);
  ASSERT_FALSE(msg.empty());
  if (flowsteer::device::xrt_available()) {
    EXPECT_NE(msg.find("not a valid xclbin"), std::string::npos) << msg;
  } else {
    EXPECT_NE(msg.find("without XRT"), std::string::npos) << msg;
  }
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
}

#if FLOWSTEER_HAVE_XRT
#include "xclbin_writer.h"

TEST(XrtBackend, XclbinWithoutTheEngineKernel) {
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_other.xclbin";
  flowsteer::test::write_xclbin(path, "vadd");
  EXPECT_EQ(message_of(path), "xclbin '" + path + "' has no kernel 'flowsteer'");
}

TEST(XrtBackend, GoodXclbinButNoCard) {
  std::string path = "/tmp/flowsteer_test_" + std::to_string(getpid()) + "_fs.xclbin";
  flowsteer::test::write_xclbin(path, "flowsteer");
  unsetenv("XILINX_XRT");  // as on a machine with Debian's XRT and no card
  std::string msg = message_of(path);
  EXPECT_EQ(msg.rfind("no Alveo card 0", 0), 0u) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}
#endif
