// A walk over a pickle's opcodes that checks every length-prefixed argument (strings, bytes,
// longs) against the bytes that follow it. LibTorch 1.13's unpickler allocates and zero-fills the
// length a file claims before reading it, so a 1 KB data.pkl claiming a 4 GB string costs 4 GB
// (found by tests/fuzz/tensor_file_fuzz.cpp). Torch-free.
#pragma once
#include <cstdint>
#include <string>

namespace modrec {

struct PickleOverrun {
  size_t at = 0;         // offset of the opcode whose argument runs past the end
  uint64_t claimed = 0;  // bytes it claims
};

// True, filling `overrun`, when an argument claims more bytes than remain. The walk ends at STOP,
// at the end, or at an opcode it does not know (the unpickler rejects that one itself).
bool find_pickle_overrun(const std::string& pickle, PickleOverrun& overrun);

}  // namespace modrec
