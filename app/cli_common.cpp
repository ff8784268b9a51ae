#include "cli_common.h"

#include <cstdlib>
#include <sstream>

#include "util/error.h"

namespace modrec::cli {

void ModelFlags::add(CLI::App& cmd, InputOptions& inputs) {
  // Named MODEL, not model: CLI11 2.4 and later refuse a positional whose name equals a long
  // flag's (--model) with OptionAlreadyAdded at start-up.
  cmd.add_option("MODEL", positional,
                 "the model: TorchScript (.pt), torch.export archive or AOTInductor package "
                 "(.pt2), ExecuTorch program (.pte), or where the subcommand reads one, a "
                 "checkpoint (.safetensors, its index, a torch.save'd state_dict, a "
                 "save_pretrained folder); or --model, $MODREC_MODEL")
      ->type_name("PATH");
  cmd.add_option("--model", flag, "the model, when not given positionally")->type_name("PATH");
  add_mode_flag(cmd, mode);
  add_enum_option(cmd, "--device", device, device_names(), "cpu or cuda (default cpu)");
  add_load_library_flag(cmd, libraries);
  add_format_flags(cmd, formats);
  add_input_flags(cmd, inputs);
}

void ModelFlags::resolve(ModelOptions& options) const {
  const char* env = std::getenv("MODREC_MODEL");
  options.path = !positional.empty() ? positional : !flag.empty() ? flag : env ? env : "";
  if (options.path.empty())
    throw Error(Exit::usage, "no model given", "MODEL",
                "pass a TorchScript file or a .pt2 archive, e.g. modrec summary model.pt, or set "
                "MODREC_MODEL");
  options.mode = mode;
  options.device = device;
  options.libraries = load_libraries(libraries);
  options.formats = formats;
  options.threads = threads_flag();
}

void add_optional_switch(CLI::App& cmd, const std::string& on, const std::string& off,
                         std::optional<bool>& value, const std::string& help) {
  auto* flag = cmd.add_flag_callback(
      on, [&value] { value = true; }, help);
  cmd.add_flag_callback(
         off, [&value] { value = false; }, "the opposite of " + on)
      ->excludes(flag);
}

void add_load_library_flag(CLI::App& cmd, std::vector<std::string>& libraries) {
  cmd.add_option("--load-library", libraries,
                 "a shared library that registers operators the model calls (TORCH_LIBRARY), "
                 "loaded as torch.ops.load_library does; repeatable; else $MODREC_LOAD_LIBRARY "
                 "(':'-separated)")
      ->type_name("FILE");
}

void add_format_flags(CLI::App& cmd, FormatOptions& formats) {
  cmd.add_option("--etrecord", formats.etrecord,
                 "the ETRecord of an ExecuTorch program (.pte) that generate_etrecord wrote: "
                 "its module calls are reported too, each with its last instruction's output "
                 "(ETDump's; none where a delegate ran it); other models ignore it")
      ->type_name("FILE");
}

std::vector<std::string> load_libraries(const std::vector<std::string>& flags) {
  const char* env = std::getenv("MODREC_LOAD_LIBRARY");
  if (!flags.empty() || !env) return flags;
  std::vector<std::string> paths;
  std::istringstream text(env);
  for (std::string path; std::getline(text, path, ':');)
    if (!path.empty()) paths.push_back(path);
  return paths;
}

void add_input_flags(CLI::App& cmd, InputOptions& inputs) {
  cmd.add_option_function<std::vector<std::string>>(
         "--input",
         [&inputs](const std::vector<std::string>& texts) {
           for (const auto& text : texts) {
             if (auto named = split_named(text))
               inputs.named_files.push_back(*named);
             else
               inputs.files.push_back(text);
           }
         },
         "tensor file (torch.save of a tensor or tuple; .npy, memory-mapped), or a directory or "
         "quoted glob of them (samples along dim 0, sorted by name); repeat per forward argument, "
         "in forward's order, or NAME=FILE for the argument NAME")
      ->type_name("PATH");
  add_parsed_items(cmd, "--arg", inputs.args, parse_arg_flag,
                   "NAME=VALUE: forward's argument NAME, not a tensor, parsed by its declared "
                   "type: int, float, bool (true/false/1/0), str, None, List[int] as [2,3]; "
                   "repeatable");
  cmd.add_option("--input-size", inputs.sizes,
                 "random input SHAPE[:DTYPE], e.g. 1x3x224x224 or 2x12:long; repeatable");
  add_number(cmd, "--seed", inputs.seed, uint64_t{0}, std::numeric_limits<uint64_t>::max(),
             "seed for --input-size (default 0)");
  add_number(cmd, "--high", inputs.high, int64_t{1}, kMaxCount,
             "integer inputs are drawn from [0, HIGH) (default 2)");
}

void add_mode_flag(CLI::App& cmd, Mode& mode, const std::string& when) {
  add_enum_option(cmd, "--mode", mode, mode_names(),
                  (when.empty() ? "" : when + ": ") + "eval or train (default eval, as torchinfo)");
}

void add_shard_flag(CLI::App& cmd, InputOptions& inputs) {
  cmd.add_option_function<std::string>(
         "--shard", [&inputs](const std::string& text) { inputs.shard = parse_shard(text); },
         "K/N: only the K-th (from 0) of N contiguous parts of the input samples; modrec merge "
         "combines the N runs")
      ->check(parsed_by(parse_shard));
}

namespace {
LayerMatcher parse_layers(const std::string& text) { return LayerMatcher(text); }

CLI::Option* add_layers_option(CLI::App& cmd, LayerMatcher& layers, const std::string& help) {
  return cmd
      .add_option_function<std::string>(
          "--layers", [&layers](const std::string& text) { layers = parse_layers(text); }, help)
      ->check(parsed_by(parse_layers));
}
}  // namespace

void add_layers_flag(CLI::App& cmd, LayerMatcher& layers, bool required) {
  add_layers_option(cmd, layers,
                    "selectors, comma-separated: 1-3 (a summary --grad label), all, a module "
                    "path, type:Conv2d, re:<regex on path>, depth:N" +
                        (required ? std::string() : " (default " + layers.text() + ")"))
      ->required(required);
}

void add_capture_flag(CLI::App& cmd, std::optional<CaptureSet>& captures, const std::string& help) {
  cmd.add_option_function<std::vector<std::string>>(
         "--capture,--captures",
         [&captures](const std::vector<std::string>& names) {
           captures = CaptureSet::parse(names);
         },
         help)
      ->delimiter(',')
      ->check(CLI::IsMember(names_of(capture_names())));
}

void add_edit_flag(CLI::App& cmd, EditOptions& edits, const InputOptions& inputs) {
  // One --seed, two consumers: the noise generator takes the value --seed was parsed into.
  cmd.parse_complete_callback([&edits, &inputs] { edits.seed = inputs.seed; });
  add_parsed_items(cmd, "--edit", edits.specs, parse_edit,
                   "rewrite the selected calls' outputs as the model runs, SELECTOR=OP with OP "
                   "zero, scale:K, add:K, clamp:LO:HI, noise:SIGMA, replace:FILE or keep:I,J,... "
                   "(repeatable)");
}

void add_tensorboard_flags(CLI::App& cmd, TensorBoardOptions& options, const std::string& each) {
  auto* log_dir = cmd.add_option("--tensorboard", options.log_dir,
                                 "also write TensorBoard events into a run of this log directory, "
                                 "DIR/<--tensorboard-run>, " +
                                     each)
                      ->type_name("DIR");
  cmd.add_option_function<std::string>(
         "--tensorboard-run",
         [&options](const std::string& text) { options.run = RunName::parse(text); },
         "the run's subdirectory of --tensorboard's log directory (default: --out's name); an "
         "existing one is refused unless --force, which replaces its event files")
      ->check(parsed_by(RunName::parse))
      ->needs(log_dir);
}

void add_scope_flags(CLI::App& cmd, RunScope& scope) {
  add_layers_option(cmd, scope.layers,
                    "comma list of selectors: 1-3, all, layer1.0.conv1, type:Conv2d, re:<regex>, "
                    "depth:2 (default all)");
  add_capture_flag(cmd, scope.captures,
                   "any of input,output,grad_input,grad_output,param,param_grad (default: every "
                   "recorded capture)");
}

int& threads_flag() {
  static int threads = 0;
  return threads;
}

}  // namespace modrec::cli
