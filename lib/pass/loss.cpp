#include "pass/loss.h"

namespace modrec {

const EnumNames<Loss>& loss_names() {
  static const EnumNames<Loss> names{{"sum", Loss::sum}, {"mean", Loss::mean}};
  return names;
}

}  // namespace modrec
