// What a pickle (the data.pkl of a torch.save archive) starts with: enough to tell a tensor, a
// state_dict, a list/dict and an eager module apart without unpickling. Header-only and torch-free:
// file_kind.cpp and tensor_files/ read it.
#pragma once
#include <string>

namespace modrec {

struct PickleHead {
  int protocol = 0;    // 0 when there is no PROTO opcode
  char first_op = 0;   // the first opcode after PROTO/FRAME: ']' list, '}' dict, 'c' class, ...
  std::string global;  // "module.name" of a leading class reference, e.g. "collections.OrderedDict"
};

inline PickleHead read_pickle_head(const std::string& b) {
  PickleHead h;
  size_t at = 0;
  auto byte = [&](size_t i) { return i < b.size() ? static_cast<unsigned char>(b[i]) : 0u; };
  if (byte(0) == 0x80) h.protocol = static_cast<int>(byte(1)), at = 2;
  if (byte(at) == 0x95) at += 9;  // FRAME (protocol 4+) and its 8-byte length
  h.first_op = static_cast<char>(byte(at));
  if (h.first_op == 'c') {  // GLOBAL "module\nname\n"
    size_t nl1 = b.find('\n', at + 1), nl2 = nl1 == std::string::npos ? nl1 : b.find('\n', nl1 + 1);
    if (nl2 != std::string::npos)
      h.global = b.substr(at + 1, nl1 - at - 1) + "." + b.substr(nl1 + 1, nl2 - nl1 - 1);
    return h;
  }
  // Protocol 4: SHORT_BINUNICODE module, [MEMOIZE], SHORT_BINUNICODE name, [MEMOIZE], STACK_GLOBAL.
  std::string parts[2];
  for (auto& part : parts) {
    if (byte(at) != 0x8c) return h;
    size_t len = byte(at + 1);
    part = b.substr(std::min(b.size(), at + 2), len);
    at += 2 + len;
    if (byte(at) == 0x94) ++at;
  }
  if (byte(at) == 0x93) h.global = parts[0] + "." + parts[1];
  return h;
}

}  // namespace modrec
