#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "completion.h"

namespace modrec::cli {

Command add_completion(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "completion", "print a shell completion script for modrec's subcommands, flags and files");
  cmd->footer(
      "Examples:\n"
      "  source <(modrec completion bash)        # in ~/.bashrc\n"
      "  source <(modrec completion zsh)         # in ~/.zshrc, after compinit\n"
      "  modrec completion zsh > \"${fpath[1]}/_modrec\"\n"
      "  modrec completion fish > ~/.config/fish/completions/modrec.fish");
  auto shell = std::make_shared<Shell>(Shell::bash);
  add_enum_option(*cmd, "SHELL", *shell, shell_names(), "bash, zsh or fish")->required();
  return {cmd, [shell, &app] {
            std::cout << completion_script(describe(app), *shell);
            return 0;
          }};
}

}  // namespace modrec::cli
