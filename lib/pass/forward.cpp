#include "pass/forward.h"

#include <torch/csrc/autograd/grad_mode.h>

#include <exception>

#include "labels/call_labeler.h"
#include "util/error.h"

namespace modrec {
namespace {

// Forwards every call to two hooks: the caller's, and the trace that locates failures. The
// TorchScript interpreter turns an exception from a hook into its own error, so the hook's
// modrec::Error (say, a full disk) is kept here to be rethrown as it was.
class Tee : public CallHooks {
 public:
  Tee(CallHooks& a, TraceCollector& trace) : a_(a), trace_(trace) {}
  void enter(int call, int m, const std::vector<c10::IValue>& args) override {
    trace_.enter(call, m, args);
    guarded([&] { a_.enter(call, m, args); });
  }
  c10::IValue leave(int call, int m, const c10::IValue& out) override {
    trace_.leave(call, m, out);
    return guarded([&] { return a_.leave(call, m, out); });
  }
  at::Tensor route(int call, size_t argno, const at::Tensor& x) override {
    return guarded([&] { return a_.route(call, argno, x); });
  }
  void caveats(int call, const CallCaveats& told) override {
    trace_.caveats(call, told);
    guarded([&] { a_.caveats(call, told); });
  }
  std::exception_ptr hook_error() const { return hook_error_; }

 private:
  template <class F>
  auto guarded(F f) -> decltype(f()) {
    try {
      return f();
    } catch (const Error&) {
      hook_error_ = std::current_exception();
      throw;
    }
  }

  CallHooks& a_;
  TraceCollector& trace_;
  std::exception_ptr hook_error_;
};

// The model raised: its inputs (shapes, dtypes) or --arg values are not what it accepts.
const char kCheckInputs[] =
    "check the input's shape and dtype, and the --arg values, against the model";

std::string failing_call(const InstrumentedModel& model, const TraceCollector& trace) {
  const int call = trace.open_call();
  if (call < 0) return "model forward";
  const Module& module = model.tree().modules[trace.trace().calls[call].module];
  auto labels = call_labels(model.tree(), trace.trace());
  std::string where = module.path.empty() ? module.type : labels[call] + " " + module.path;
  return "while running " + where + " (" + module.type + ")";
}

c10::IValue forward_with(InstrumentedModel& model, std::vector<c10::IValue> inputs,
                         const RunOptions& options, CallHooks& hooks, TraceCollector& trace) {
  torch::AutoGradMode grad_mode(options.grad);
  try {
    return model.forward(std::move(inputs), hooks);
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw Error(Exit::model_failed, first_line(e.what_without_backtrace()),
                failing_call(model, trace), kCheckInputs);
  } catch (const std::exception& e) {
    throw Error(Exit::model_failed, first_line(e.what()), failing_call(model, trace), kCheckInputs);
  }
}

}  // namespace

c10::IValue run_forward(InstrumentedModel& model, std::vector<c10::IValue> inputs,
                        const RunOptions& options, CallHooks& hooks, TraceCollector& trace) {
  Tee tee(hooks, trace);
  try {
    return forward_with(model, std::move(inputs), options, tee, trace);
  } catch (const Error&) {
    if (tee.hook_error()) std::rethrow_exception(tee.hook_error());
    throw;
  }
}

CallTrace trace_forward(InstrumentedModel& model, std::vector<c10::IValue> inputs,
                        const RunOptions& options, CallHooks* hooks,
                        std::vector<c10::IValue> given_by_position) {
  TraceCollector trace(std::move(given_by_position));
  if (hooks)
    run_forward(model, std::move(inputs), options, *hooks, trace);
  else
    forward_with(model, std::move(inputs), options, trace, trace);
  return trace.take();
}

}  // namespace modrec
