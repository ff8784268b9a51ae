#include "summary/text.h"

#include <cstdio>

namespace modrec::text {

namespace {
// Inserts thousands separators into the digits before the decimal point.
std::string group_thousands(const std::string& digits) {
  size_t start = digits[0] == '-' ? 1 : 0;
  size_t end = digits.find('.');
  if (end == std::string::npos) end = digits.size();
  std::string out = digits.substr(0, start);
  for (size_t i = start; i < end; ++i) {
    if (i > start && (end - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out + digits.substr(end);
}

std::string printf_double(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}
}  // namespace

std::string with_commas(int64_t n) { return group_thousands(std::to_string(n)); }

std::string fixed2_commas(double x) { return group_thousands(fixed2(x)); }

std::string fixed2(double x) { return printf_double("%.2f", x); }

std::string percent7(double x) {
  std::string s = printf_double("%.2f", x * 100) + "%";
  return s.size() < 7 ? std::string(7 - s.size(), ' ') + s : s;
}

std::string list_repr(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

size_t display_len(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string pad_right(const std::string& s, size_t width) {
  size_t len = display_len(s);
  return len >= width ? s : s + std::string(width - len, ' ');
}

std::string rstrip(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.pop_back();
  return s;
}

}  // namespace modrec::text
