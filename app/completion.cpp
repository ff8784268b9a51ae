#include "completion.h"

#include <map>
#include <sstream>

#include "util/text.h"

namespace modrec::cli {

const EnumNames<Shell>& shell_names() {
  static const EnumNames<Shell> names{
      {"bash", Shell::bash}, {"zsh", Shell::zsh}, {"fish", Shell::fish}};
  return names;
}

namespace {

// A flag's help cut to its first clause, for a shell's one-line description.
std::string short_help(const std::string& help) {
  std::string text = help.substr(0, help.find("; "));
  constexpr size_t most = 70;
  if (text.size() > most) text = text.substr(0, text.rfind(' ', most)) + " ...";
  return text;
}

// `text` with every `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// Inside single quotes: a quote closes them, is written escaped, and opens them again.
std::string in_quotes(const std::string& text) { return replaced(text, "'", "'\\''"); }

std::vector<std::string> names_of_commands(const CliSpec& spec) {
  std::vector<std::string> names;
  for (const auto& c : spec.commands) names.push_back(c.name);
  return names;
}

std::vector<std::string> flag_words(const std::vector<FlagSpec>& flags) {
  std::vector<std::string> words;
  for (const auto& f : flags)
    if (!f.positional) words.insert(words.end(), f.names.begin(), f.names.end());
  return words;
}

// The first positional of a command: what its words that are no flag complete to.
const FlagSpec* positional(const CommandSpec& command) {
  for (const auto& f : command.flags)
    if (f.positional) return &f;
  return nullptr;
}

// ---- bash: one function; the subcommand is the first word that names one.

std::string bash_action(const FlagSpec& flag) {
  switch (flag.kind) {
    case ValueKind::choice:
      return "_modrec_words '" + join(flag.choices, " ") + "'";
    case ValueKind::file:
    case ValueKind::path:
      return "_modrec_files";
    case ValueKind::dir:
      return "_modrec_dirs";
    default:
      return "COMPREPLY=()";
  }
}

// The case lines completing the values of `command`'s flags: "$sub $prev" matched by `pattern`
// (`"summary` or `*"`, any subcommand) and the flag's name, then the closing quote.
void bash_values(std::ostream& out, const CommandSpec& command, const std::string& pattern) {
  std::map<std::string, std::vector<std::string>> by_action;
  for (const auto& f : command.flags)
    if (!f.positional && f.kind != ValueKind::none)
      for (const auto& name : f.names)
        by_action[bash_action(f)].push_back(pattern + " " + name + "\"");
  for (const auto& [action, patterns] : by_action)
    out << "    " << join(patterns, "|") << ") " << action << "; return ;;\n";
}

std::string bash(const CliSpec& spec) {
  const std::string globals = join(flag_words(spec.root.flags), " ");
  std::ostringstream out;
  out << "# bash completion for modrec, made by `modrec completion bash` from its flags:\n"
         "#   source <(modrec completion bash)\n"
         "_modrec_words() { mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }\n"
         "_modrec_files() { mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); }\n"
         "_modrec_dirs() { mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); }\n"
         "_modrec() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} sub='' i\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    case ${COMP_WORDS[i]} in\n"
         "      "
      << join(names_of_commands(spec), "|")
      << ") sub=${COMP_WORDS[i]}; break ;;\n"
         "    esac\n"
         "  done\n"
         "  case \"$sub $prev\" in\n";
  for (const auto& c : spec.commands) bash_values(out, c, "\"" + c.name);
  bash_values(out, spec.root, "*\"");
  out << "  esac\n"
         "  if [[ $cur == -* ]]; then\n"
         "    case $sub in\n";
  for (const auto& c : spec.commands)
    out << "      " << c.name << ") _modrec_words '" << join(flag_words(c.flags), " ") << " "
        << globals << "' ;;\n";
  out << "      *) _modrec_words '" << globals
      << "' ;;\n"
         "    esac\n"
         "    return\n"
         "  fi\n"
         "  case $sub in\n"
         "    '') _modrec_words '"
      << join(names_of_commands(spec), " ") << "' ;;\n";
  for (const auto& c : spec.commands)
    if (const FlagSpec* p = positional(c))
      out << "    " << c.name << ") " << bash_action(*p) << " ;;\n";
  out << "  esac\n"
         "}\n"
         "complete -o filenames -F _modrec modrec\n";
  return out.str();
}

// ---- zsh: _arguments for the global flags and the subcommand, then for the subcommand's words.

std::string zsh_text(const std::string& text) {
  std::string out = replaced(replaced(replaced(text, "[", "\\["), "]", "\\]"), ":", "\\:");
  return in_quotes(out);
}

std::string zsh_action(const FlagSpec& flag) {
  const std::string message = replaced(
      replaced(flag.value_name.empty() ? flag.names[0] : flag.value_name, ":", " "), "'", "");
  switch (flag.kind) {
    case ValueKind::choice:
      return ":" + message + ":(" + join(flag.choices, " ") + ")";
    case ValueKind::file:
    case ValueKind::path:
      return ":" + message + ":_files";
    case ValueKind::dir:
      return ":" + message + ":_files -/";
    case ValueKind::other:
      return ":" + message + ": ";
    default:
      return "";
  }
}

// The specs of `flags` for _arguments, one per name, each repeatable.
std::string zsh_specs(const std::vector<FlagSpec>& flags) {
  std::string out;
  for (const auto& f : flags) {
    if (f.positional) {
      out += " '*" + zsh_action(f) + "'";
      continue;
    }
    for (const auto& name : f.names)
      out +=
          " \\\n      '*" + name + "[" + zsh_text(short_help(f.help)) + "]" + zsh_action(f) + "'";
  }
  return out;
}

std::string zsh(const CliSpec& spec) {
  std::ostringstream out;
  out << "#compdef modrec\n"
         "# zsh completion for modrec, made by `modrec completion zsh` from its flags:\n"
         "#   source <(modrec completion zsh), or saved as _modrec in a folder of $fpath\n"
         "_modrec() {\n"
         "  local curcontext=$curcontext state line\n"
         "  local -a globals subcommands\n"
         "  globals=("
      << zsh_specs(spec.root.flags)
      << ")\n"
         "  subcommands=(";
  for (const auto& c : spec.commands)
    out << " \\\n    '" << c.name << ":" << in_quotes(short_help(c.help)) << "'";
  out << ")\n"
         "  _arguments -C $globals '1:subcommand:->subcommand' '*::argument:->argument'\n"
         "  case $state in\n"
         "    subcommand) _describe subcommand subcommands ;;\n"
         "    argument)\n"
         "      curcontext=${curcontext%:*:*}:modrec-$line[1]:\n"
         "      case $line[1] in\n";
  for (const auto& c : spec.commands)
    out << "        " << c.name << ") _arguments $globals" << zsh_specs(c.flags) << " ;;\n";
  out << "      esac ;;\n"
         "  esac\n"
         "}\n"
         "if [[ $funcstack[1] == _modrec ]]; then _modrec \"$@\"; else compdef _modrec modrec; "
         "fi\n";
  return out.str();
}

// ---- fish: one `complete` line per flag, the subcommand's only after it.

std::string fish_text(const std::string& text) {
  return "'" + replaced(replaced(text, "\\", "\\\\"), "'", "\\'") + "'";
}

std::string fish_action(const FlagSpec& flag) {
  switch (flag.kind) {
    case ValueKind::choice:
      return " -x -a " + fish_text(join(flag.choices, " "));
    case ValueKind::file:
    case ValueKind::path:
      return " -r -F";
    case ValueKind::dir:
      return " -x -a '(__fish_complete_directories)'";
    case ValueKind::other:
      return " -x";
    default:
      return "";
  }
}

void fish_flags(std::ostream& out, const CommandSpec& command) {
  const std::string when =
      command.name.empty() ? "" : " -n '__fish_seen_subcommand_from " + command.name + "'";
  for (const auto& f : command.flags) {
    out << "complete -c modrec" << when;
    if (f.positional) {  // the words after the subcommand: no "-r" (a flag's value required)
      const bool files = f.kind == ValueKind::file || f.kind == ValueKind::path;
      out << (files ? " -F" : fish_action(f)) << "\n";
      continue;
    }
    for (const auto& name : f.names)
      out << (name.rfind("--", 0) == 0 ? " -l " + name.substr(2) : " -s " + name.substr(1));
    out << fish_action(f) << " -d " << fish_text(short_help(f.help)) << "\n";
  }
}

std::string fish(const CliSpec& spec) {
  std::ostringstream out;
  out << "# fish completion for modrec, made by `modrec completion fish` from its flags:\n"
         "#   modrec completion fish | source\n"
         "complete -c modrec -f\n";
  for (const auto& c : spec.commands)
    out << "complete -c modrec -n __fish_use_subcommand -a " << c.name << " -d "
        << fish_text(short_help(c.help)) << "\n";
  fish_flags(out, spec.root);
  for (const auto& c : spec.commands) fish_flags(out, c);
  return out.str();
}

}  // namespace

std::string completion_script(const CliSpec& spec, Shell shell) {
  switch (shell) {
    case Shell::bash:
      return bash(spec);
    case Shell::zsh:
      return zsh(spec);
    case Shell::fish:
      return fish(spec);
  }
  return "";
}

}  // namespace modrec::cli
