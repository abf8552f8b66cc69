#include "flowsteer/quote.h"

#include <cstdio>

namespace flowsteer {

std::string quote_bytes(std::string_view bytes, size_t max) {
  std::string out = "'";
  size_t n = 0;
  for (unsigned char c : bytes) {
    char b[8];
    const char* e = b;
    switch (c) {
      case '\n': e = "\\n"; break;
      case '\r': e = "\\r"; break;
      case '\t': e = "\\t"; break;
      case '\0': e = "\\0"; break;
      case '\\': e = "\\\\"; break;
      case '\'': e = "\\'"; break;
      default:
        if (c < 0x20 || c >= 0x7f) std::snprintf(b, sizeof b, "\\x%02x", c);
        else b[0] = char(c), b[1] = '\0';
    }
    const std::string_view ev(e);
    if (n + ev.size() > max) {
      out += "...";
      break;
    }
    out += ev;
    n += ev.size();
  }
  return out + "'";
}

}  // namespace flowsteer
