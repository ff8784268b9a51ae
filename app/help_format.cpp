#include "help_format.h"

#include "cli_spec.h"

namespace modrec::cli {

std::string HelpFormatter::make_option_name(const CLI::Option* option, bool positional) const {
  return positional ? option->get_name(true, false) : flag_names(*option);
}

std::string HelpFormatter::make_option_usage(const CLI::Option* option) const {
  return positional_usage(*option);
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
  std::string out = CLI::Formatter::make_option_opts(option);
  const std::string type = option->get_type_name(), shown = value_name(*option);
  if (shown != type) {
    const size_t at = out.find(type);
    if (at != std::string::npos) out.replace(at, type.size(), shown);
  }
  return out;
}

}  // namespace modrec::cli
