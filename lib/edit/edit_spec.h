// `--edit SELECTOR=OP`: how to rewrite the output of the selected calls as the model runs (scio's
// activation_postproc), parsed once into a type (torch-free).
//   zero           every element 0
//   scale:K        multiplied by K
//   add:K          K added
//   clamp:LO:HI    clamped to [LO, HI]
//   noise:SIGMA    N(0, SIGMA^2) noise added, drawn from a generator seeded with --seed
//   replace:FILE   the tensor in FILE (torch.save or .npy), of the output's shape and dtype
//   keep:I,J,...   every channel (dim 1) zeroed but those listed
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/layer_match.h"

namespace modrec {

enum class EditKind { zero, scale, add, clamp, noise, replace, keep };

struct EditOp {
  EditKind kind = EditKind::zero;
  double a = 0, b = 0;            // K, SIGMA, or LO and HI
  std::string file;               // replace
  std::vector<int64_t> channels;  // keep
};

struct EditSpec {
  LayerMatcher selectors;  // --layers syntax (model/layer_match.h)
  EditOp op;
  std::string text;  // as given, for messages
};

struct EditOptions {
  std::vector<EditSpec> specs;  // --edit, in the order given
  uint64_t seed = 0;            // noise's generator: --seed
};

// Splits at the last '=' (selectors may hold commas; no OP holds '='). Throws Error(usage, ...,
// "--edit") naming what is wrong and the accepted forms.
EditSpec parse_edit(const std::string& text);

}  // namespace modrec
