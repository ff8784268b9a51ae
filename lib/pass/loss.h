// The scalar a backward pass starts from when no gradient is given (torch-free): record's and
// summary's --loss, of the model's first output.
#pragma once
#include "util/enum_names.h"

namespace modrec {

enum class Loss { sum, mean };

const EnumNames<Loss>& loss_names();

}  // namespace modrec
