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
