// Which inputs a model is given: --input, --arg, --input-size, --seed, --high, --shard. Plain
// data (torch-free), filled by the CLI, bound to forward's arguments by forward_inputs.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sources/shard.h"

namespace modrec {

// NAME=TEXT: --input NAME=PATH (a tensor bound to forward's argument NAME) or --arg NAME=VALUE.
struct NamedText {
  std::string name, text;
};
// "NAME=TEXT" where NAME is a Python identifier; nullopt for any other text (a path: a file whose
// name holds '=' after such a prefix is given as ./NAME=...).
std::optional<NamedText> split_named(const std::string& text);
// --arg's text: NAME=VALUE, else Error(usage) naming --arg.
NamedText parse_arg_flag(const std::string& text);

struct InputOptions {
  // --input, in forward argument order: a tensor file (.pt, read whole; a tuple gives one
  // argument per item), a .npy (memory-mapped), or a directory or glob of .pt/.npy files
  // (samples along dim 0, in sorted order); see sources/sample_source.h.
  std::vector<std::string> files;
  std::vector<NamedText> named_files;  // --input NAME=PATH: the argument NAME, whatever its place
  std::vector<NamedText> args;         // --arg NAME=VALUE: parsed by the argument's declared type
  std::vector<std::string> sizes;      // --input-size SHAPE[:DTYPE]
  uint64_t seed = 0;                   // --seed
  int64_t high = 2;                    // --high: integer inputs are drawn from [0, high)
  std::optional<Shard> shard;          // --shard K/N
  // Floating-point inputs cast to the model's floating dtype (its first floating parameter's):
  // diff runs one input through a float32 model and its bfloat16 copy.
  bool in_model_dtype = false;

  bool given() const {
    return !files.empty() || !sizes.empty() || !named_files.empty() || !args.empty();
  }
  // Every --input path, positional and named.
  std::vector<std::string> all_files() const;
};

}  // namespace modrec
