// Flags shared by subcommands, bound to the torch-free job structs of lib/jobs.
#pragma once
#include <CLI/CLI.hpp>

#include <limits>
#include <optional>
#include <sstream>
#include <type_traits>

#include "rundir/run_scope.h"
#include "edit/edit_spec.h"
#include "util/error.h"
#include "arguments/input_options.h"
#include "load/model_options.h"
#include "model/captures.h"
#include "tensorboard/tensorboard_options.h"
#include "util/enum_names.h"

namespace modrec::cli {

// MODEL positional, --model, $MODREC_MODEL (in that order of precedence), --mode, --device,
// --load-library (else $MODREC_LOAD_LIBRARY), the format flags (add_format_flags).
struct ModelFlags {
  std::string positional, flag;
  std::vector<std::string> libraries;
  FormatOptions formats;
  Mode mode = Mode::eval;
  Device device = Device::cpu;
  // Also adds the input flags (add_input_flags).
  void add(CLI::App& cmd, InputOptions& inputs);
  // Resolves the model path into `options`; throws a usage Error when none is given.
  void resolve(ModelOptions& options) const;
};

void add_input_flags(CLI::App& cmd, InputOptions& inputs);
// --load-library PATH, repeatable.
void add_load_library_flag(CLI::App& cmd, std::vector<std::string>& libraries);
// The flags only some formats read (FormatOptions): --etrecord FILE, an ExecuTorch program's
// ETRecord.
void add_format_flags(CLI::App& cmd, FormatOptions& formats);
// The libraries to load: the flags' paths, else those of $MODREC_LOAD_LIBRARY (':'-separated).
std::vector<std::string> load_libraries(const std::vector<std::string>& flags);
// --mode eval|train; `when` says when it applies, for commands whose model is optional.
void add_mode_flag(CLI::App& cmd, Mode& mode, const std::string& when = "");
// --shard K/N (record, check MODEL, watch).
void add_shard_flag(CLI::App& cmd, InputOptions& inputs);

// An option whose names map to enum values (the CLI's error names the flag and the choices).
template <class E>
CLI::Option* add_enum_option(CLI::App& cmd, const std::string& flag, E& value,
                             const EnumNames<E>& names, const std::string& help) {
  return cmd
      .add_option_function<std::string>(
          flag, [&value, &names](const std::string& name) { value = *value_named(names, name); },
          help)
      ->check(CLI::IsMember(names_of(names)));
}

// A number flag's range, [lo, hi]: a value outside it, NaN or text that is no number is a usage
// error naming the flag and the range, and --help shows the range.
template <class T>
CLI::Validator in_range(T lo, T hi) {
  const auto show = [](T v) {
    std::ostringstream text;
    text << v;
    return text.str();
  };
  const bool unbounded = hi == std::numeric_limits<T>::max();
  const std::string range =
      unbounded ? ">= " + show(lo) : "in [" + show(lo) + ", " + show(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        T value{};
        const bool negative_unsigned = std::is_unsigned_v<T> && text.find('-') != text.npos;
        if (negative_unsigned || !CLI::detail::lexical_cast(text, value) ||
            !(value >= lo && value <= hi))
          return "must be a number " + range + ", got '" + text + "'";
        return "";
      },
      range);
}

// `value`: a number of type T, or an optional one (absent unless given).
template <class V, class T>
CLI::Option* add_number(CLI::App& cmd, const std::string& flag, V& value, T lo, T hi,
                        const std::string& help) {
  return cmd.add_option(flag, value, help)->check(in_range(lo, hi));
}

// --on and --off set `value` to true and false; neither leaves it unset (a default that depends on
// what the command reads).
void add_optional_switch(CLI::App& cmd, const std::string& on, const std::string& off,
                         std::optional<bool>& value, const std::string& help);

// record's --capture list, parsed into a CaptureSet.
// --layers: which layer calls record and watch keep; required unless `layers` holds a default.
void add_layers_flag(CLI::App& cmd, LayerMatcher& layers, bool required);

void add_capture_flag(CLI::App& cmd, std::optional<CaptureSet>& captures, const std::string& help);

// A check that runs `parse` (which throws modrec::Error on bad text) and reports its message.
template <class Parse>
CLI::Validator parsed_by(Parse parse) {
  return CLI::Validator(
      [parse](const std::string& text) {
        try {
          parse(text);
          return std::string();
        } catch (const Error& e) {
          return std::string(e.what()) + "; " + e.hint();
        }
      },
      "");
}

// A repeatable flag whose every text `parse` turns into one of `items` (what is given replaces the
// default); text it refuses is the flag's usage error, with parse's message.
template <class T, class Parse>
CLI::Option* add_parsed_items(CLI::App& cmd, const std::string& flag, std::vector<T>& items,
                              Parse parse, const std::string& help) {
  return cmd
      .add_option_function<std::vector<std::string>>(
          flag,
          [&items, parse](const std::vector<std::string>& texts) {
            items.clear();
            for (const auto& text : texts) items.push_back(parse(text));
          },
          help)
      ->check(parsed_by(parse));
}

// add_parsed_items of a comma-separated list.
template <class T, class Parse>
CLI::Option* add_parsed_list(CLI::App& cmd, const std::string& flag, std::vector<T>& items,
                             Parse parse, const std::string& help) {
  return add_parsed_items(cmd, flag, items, parse, help)->delimiter(',');
}

// --tensorboard DIR and --tensorboard-run NAME (record, watch); `each` says when an event is
// written and what it holds.
void add_tensorboard_flags(CLI::App& cmd, TensorBoardOptions& options, const std::string& each);

// --edit SELECTOR=OP, repeatable; the noise seed is --seed's (`inputs`), set once parsed.
void add_edit_flag(CLI::App& cmd, EditOptions& edits, const InputOptions& inputs);

// --layers and --captures of check and diff.
void add_scope_flags(CLI::App& cmd, RunScope& scope);

// --threads N (global), from main.
int& threads_flag();

// The ranges of the flags several commands share.
constexpr int64_t kMaxCount = std::numeric_limits<int64_t>::max();  // --batch-size, --steps, ...
constexpr double kMaxReal = std::numeric_limits<double>::max();     // a finite, unbounded value
// What LibTorch's optimizers hold in a float parameter's dtype: --lr, --weight-decay.
constexpr double kMaxFloat = std::numeric_limits<float>::max();

}  // namespace modrec::cli
