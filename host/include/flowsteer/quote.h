// Input bytes in an error message: between single quotes, escaped (\n \r \t \0
// \\ \' and \xNN for other control or non-ASCII bytes) and bounded to at most `max`
// characters of escaped text, then "...". A message quoting input this way is one line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace flowsteer {

std::string quote_bytes(std::string_view bytes, size_t max = 80);

}  // namespace flowsteer
