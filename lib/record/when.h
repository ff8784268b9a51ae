// `record --when`: which batches or samples a recording keeps (torchfunc's `condition`), parsed
// once into a type (torch-free).
//   batch:2,5-7   the batches with these numbers (from 1, --batch-size's order); others are not run
//   target:3      the samples whose --targets label is 3: every capture keeps only their rows
//   nonfinite     a batch only when some recorded value in it is NaN or ±Inf (a flight recorder)
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace modrec {

struct When {
  enum class Kind { always, batch, target, nonfinite };
  Kind kind = Kind::always;
  std::vector<std::pair<int64_t, int64_t>> batches;  // inclusive ranges, for batch:
  int64_t target = 0;                                // for target:
  std::string text;                                  // as given ("" for always)

  // Throws Error(usage, ..., "--when") naming the accepted forms.
  static When parse(const std::string& text);
  // Whether batch `number` (from 1) is run at all.
  bool runs_batch(int64_t number) const;
};

}  // namespace modrec
