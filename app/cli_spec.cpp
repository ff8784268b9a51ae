#include "cli_spec.h"

#include "util/text.h"

namespace modrec::cli {
namespace {

// CLI11 writes a set's members as "{a,b,c}" in the type name ("TEXT:{a,b,c}", IsMember's).
std::vector<std::string> choices_in(const std::string& type_name) {
  const size_t open = type_name.find(":{");
  const size_t close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return split(type_name.substr(open + 2, close - open - 2), ',');
}

ValueKind kind_of(const CLI::Option& option, const std::vector<std::string>& choices) {
  if (option.get_type_size() == 0) return ValueKind::none;
  if (!choices.empty()) return ValueKind::choice;
  const std::string base = option.get_type_name().substr(0, option.get_type_name().find(':'));
  if (base == "FILE") return ValueKind::file;
  if (base == "DIR") return ValueKind::dir;
  if (base == "PATH") return ValueKind::path;
  return ValueKind::other;
}

FlagSpec flag_spec(const CLI::Option& option) {
  FlagSpec flag;
  flag.positional = !option.nonpositional();
  if (flag.positional) {
    flag.names = {option.get_name(true, false)};
  } else {
    for (const auto& s : option.get_snames()) flag.names.push_back("-" + s);
    for (const auto& l : option.get_lnames()) flag.names.push_back("--" + l);
  }
  flag.value_name = value_name(option);
  flag.choices = choices_in(option.get_type_name());
  flag.kind = kind_of(option, flag.choices);
  flag.help = option.get_description();
  return flag;
}

std::string usage_of(const CLI::App& app) {
  std::string usage = app.get_parent() ? "modrec " + app.get_name() : "modrec";
  usage += " [OPTIONS]";
  for (const CLI::Option* o : app.get_options(
           [](const CLI::Option* o) { return !o->get_group().empty() && !o->nonpositional(); }))
    usage += " " + positional_usage(*o);
  if (!app.get_subcommands({}).empty()) usage += " SUBCOMMAND";
  return usage;
}

CommandSpec command_spec(const CLI::App& app) {
  CommandSpec command{app.get_parent() ? app.get_name() : "",
                      app.get_description(),
                      app.get_footer(),
                      {},
                      usage_of(app)};
  for (const CLI::Option* o :
       app.get_options([](const CLI::Option* o) { return !o->get_group().empty(); }))
    command.flags.push_back(flag_spec(*o));
  return command;
}

}  // namespace

CliSpec describe(const CLI::App& app) {
  CliSpec spec{command_spec(app), {}};
  for (const CLI::App* sub : app.get_subcommands({}))
    if (!sub->get_group().empty()) spec.commands.push_back(command_spec(*sub));
  return spec;
}

std::string flag_names(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const auto& s : option.get_snames()) names.push_back("-" + s);
  for (const auto& l : option.get_lnames()) names.push_back("--" + l);
  return join(names, ", ");
}

std::string positional_usage(const CLI::Option& option) {
  const std::string name = option.get_name(true, false);
  const int most = option.get_expected_max();
  if (most >= CLI::detail::expected_max_vector_size)
    return option.get_required() ? name + "..." : "[" + name + "...]";
  const int required = option.get_required() ? option.get_expected_min() : 0;
  std::vector<std::string> words;
  for (int i = 0; i < std::max(most, 1); ++i)
    words.push_back(i < required ? name : "[" + name + "]");
  return join(words, " ");
}

std::string value_name(const CLI::Option& option) {
  if (option.get_type_size() == 0) return "";
  std::string name = option.get_type_name();
  if (name.rfind("TEXT:{", 0) == 0) name = name.substr(5);
  return name;
}

}  // namespace modrec::cli
