#include "tensor_files/pickle_lengths.h"

#include <cstring>

namespace modrec {

namespace {

// How an opcode's argument is laid out (Python's pickletools): `fixed` bytes, or a little-endian
// length of `len_bytes` followed by that many bytes, or `lines` newline-terminated lines.
struct ArgShape {
  int fixed = 0, len_bytes = 0, lines = 0;
  bool known = true;
};

ArgShape arg_shape(unsigned char op) {
  if (std::strchr("(.012NRabd}el]ost)uQ", op) && op) return {};
  switch (op) {
    case 0x81:
    case 0x85:
    case 0x86:
    case 0x87:
    case 0x88:
    case 0x89:
    case 0x8f:
    case 0x90:
    case 0x91:
    case 0x92:
    case 0x93:
    case 0x94:
    case 0x97:
    case 0x98:
      return {};
    case 'K':
    case 'h':
    case 'q':
    case 0x80:
    case 0x82:
      return {1, 0, 0};
    case 'M':
    case 0x83:
      return {2, 0, 0};
    case 'J':
    case 'j':
    case 'r':
    case 0x84:
      return {4, 0, 0};
    case 'G':
    case 0x95:
      return {8, 0, 0};  // BINFLOAT; FRAME's length only groups the opcodes after it
    case 'U':
    case 'C':
    case 0x8c:
    case 0x8a:
      return {0, 1, 0};
    case 'T':
    case 'X':
    case 'B':
    case 0x8b:
      return {0, 4, 0};
    case 0x8d:
    case 0x8e:
    case 0x96:
      return {0, 8, 0};
    case 'I':
    case 'L':
    case 'S':
    case 'V':
    case 'F':
    case 'p':
    case 'g':
    case 'P':
      return {0, 0, 1};
    case 'c':
    case 'i':
      return {0, 0, 2};
    default:
      return {0, 0, 0, false};
  }
}

uint64_t little_endian(const std::string& b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
  return v;
}

}  // namespace

bool find_pickle_overrun(const std::string& p, PickleOverrun& overrun) {
  for (size_t at = 0; at < p.size();) {
    unsigned char op = static_cast<unsigned char>(p[at]);
    ArgShape arg = arg_shape(op);
    if (!arg.known || op == '.') return false;
    size_t next = at + 1;
    for (int line = 0; line < arg.lines && next != std::string::npos; ++line) {
      next = p.find('\n', next);
      if (next != std::string::npos) ++next;
    }
    if (next == std::string::npos) return false;  // an unterminated line: the unpickler reports it
    if (arg.len_bytes) {
      if (p.size() - next < static_cast<size_t>(arg.len_bytes)) return false;
      uint64_t claimed = little_endian(p, next, arg.len_bytes);
      next += arg.len_bytes;
      if (claimed > p.size() - next) {
        overrun = {at, claimed};
        return true;
      }
      next += claimed;
    }
    at = next + arg.fixed;
  }
  return false;
}

}  // namespace modrec
