// `modrec completion bash|zsh|fish`: a completion script made from the CLI's definition
// (cli_spec.h), so that it completes the subcommands and flags as they are: flag names, each
// choice flag's values, and files or directories where a flag or positional takes one.
#pragma once
#include <string>

#include "cli_spec.h"
#include "util/enum_names.h"

namespace modrec::cli {

enum class Shell { bash, zsh, fish };
const EnumNames<Shell>& shell_names();

std::string completion_script(const CliSpec& spec, Shell shell);

}  // namespace modrec::cli
