#include "instrument/jit_calls.h"

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/csrc/jit/runtime/custom_operator.h>

#include <regex>
#include <unordered_set>

namespace modrec {
namespace {

using torch::jit::Block;
using torch::jit::Graph;
using torch::jit::Node;
using torch::jit::Stack;
using torch::jit::Value;

}  // namespace

// One forward pass's hooks, numbering its calls as they start.
class ActiveHooks::ForwardHooks {
 public:
  ForwardHooks(const std::unordered_map<const void*, int>& by_object, CallHooks& hooks)
      : by_object(by_object), hooks_(hooks) {}

  void enter(int module, const std::vector<c10::IValue>& args) {
    const int call = next_call_++;
    open_.push_back(call);
    hooks_.enter(call, module, args);
  }
  c10::IValue leave(int module, const c10::IValue& output) {
    const int call = open_.back();
    open_.pop_back();
    return hooks_.leave(call, module, output);
  }
  at::Tensor route(size_t argno, const at::Tensor& x) {
    return hooks_.route(open_.back(), argno, x);
  }

  const std::unordered_map<const void*, int>& by_object;

 private:
  CallHooks& hooks_;
  int next_call_ = 0;
  std::vector<int> open_;  // the calls entered and not yet left, innermost last
};

namespace {

thread_local ActiveHooks::ForwardHooks* active = nullptr;

int module_of(const c10::IValue& object) {
  if (!active || !object.isObject()) return -1;
  auto it = active->by_object.find(&object.toObjectRef());
  return it == active->by_object.end() ? -1 : it->second;
}

// Vararg ops get their argument count pushed on top of the stack; the first argument is the
// module object.
std::vector<c10::IValue> pop_varargs(Stack& stack, int& module) {
  const auto n = static_cast<size_t>(torch::jit::pop(stack).toInt());
  std::vector<c10::IValue> values(std::make_move_iterator(stack.end() - n),
                                  std::make_move_iterator(stack.end()));
  torch::jit::drop(stack, n);
  module = module_of(values.front());
  values.erase(values.begin());
  return values;
}

void enter_op(Stack& stack) {
  int module = -1;
  auto args = pop_varargs(stack, module);
  if (module >= 0) active->enter(module, args);
}

void leave_op(Stack& stack) {
  c10::IValue output = torch::jit::pop(stack);
  const int module = module_of(torch::jit::pop(stack));
  torch::jit::push(stack, module >= 0 ? active->leave(module, output) : output);
}

void route_op(Stack& stack) {
  const auto argno = static_cast<size_t>(torch::jit::pop(stack).toInt());
  at::Tensor x = torch::jit::pop(stack).toTensor();
  const int module = module_of(torch::jit::pop(stack));
  torch::jit::push(stack, module >= 0 ? active->route(argno, x) : x);
}

// CONSERVATIVE alias analysis marks the ops as side-effecting, so dead-code elimination and the
// executor's optimizations keep them where they were put (FROM_SCHEMA ops get removed).
const auto kConservative = c10::AliasAnalysisKind::CONSERVATIVE;
torch::jit::RegisterOperators registry({
    torch::jit::Operator("modrec::enter(Any mod, ...) -> ()", enter_op, kConservative),
    torch::jit::Operator("modrec::leave(Any mod, Any out) -> Any", leave_op, kConservative),
    torch::jit::Operator("modrec::route(Any mod, Tensor x, int argno) -> Tensor", route_op,
                         kConservative),
});

const c10::Symbol kEnter = c10::Symbol::fromQualString("modrec::enter");
const c10::Symbol kLeave = c10::Symbol::fromQualString("modrec::leave");
const c10::Symbol kRoute = c10::Symbol::fromQualString("modrec::route");

bool is_module(const Value* v) {
  auto cls = v->type()->cast<c10::ClassType>();
  return cls && cls->is_module();
}

// forward, forwardN (a traced module called again), forward__N (@overload, e.g. nn.LSTM). A class
// whose forward is @torch.jit.ignore'd and that names its overloads in `__overloads__` (the
// dynamically quantized LSTM and GRU: forward_tensor, forward_packed) has no compiled forward;
// the script compiler calls the overload matching the arguments, forward_<name>, in its place.
bool is_forward(const Value* module, const std::string& method) {
  static const std::regex pattern("forward(\\d+|__\\d+)?");
  if (std::regex_match(method, pattern)) return true;
  return method.rfind("forward_", 0) == 0 &&
         !module->type()->expectRef<c10::ClassType>().findMethod("forward");
}

// A module call, as Python would see one: forward* on a module other than the graph's own self.
bool is_submodule_call(const Node* node, const Value* self) {
  return node->kind() == c10::prim::CallMethod && node->input(0) != self &&
         is_module(node->input(0)) && is_forward(node->input(0), node->s(c10::attr::name));
}

bool is_tensor(const Value* v) { return v->type()->isSubtypeOf(*c10::TensorType::get()); }

void route_args(Graph& graph, Node* call) {
  for (size_t i = 1; i < call->inputs().size(); ++i) {
    Value* arg = call->input(i);
    if (!is_tensor(arg)) continue;
    Node* route = graph.create(kRoute, {call->input(0), arg, graph.insertConstant(int64_t(i - 1))});
    route->output()->setType(arg->type());
    route->insertBefore(call);
    call->replaceInput(i, route->output());
  }
}

bool used_after(const Value* v, const Node* node) {
  for (const auto& use : v->uses())
    if (use.user->isAfter(node)) return true;
  return false;
}

// What torch.jit.trace leaves of a module whose work it did not record (Identity; Dropout or
// StochasticDepth in eval): a call without argument returning None. The tensor eager PyTorch
// passed through it is taken to be the last one made before the call and used after it (the
// call sits where the module ran, right after its argument was made); null when none is.
Value* passed_through(Node* call, const Value* self) {
  if (call->inputs().size() != 1 || call->output()->type()->kind() != c10::TypeKind::NoneType)
    return nullptr;
  for (Node* node = call->prev(); node->kind() != c10::prim::Param; node = node->prev())
    for (auto it = node->outputs().rbegin(); it != node->outputs().rend(); ++it)
      if (is_tensor(*it) && used_after(*it, call)) return *it;
  for (Value* input : call->owningBlock()->inputs())
    if (input != self && is_tensor(input) && used_after(input, call)) return input;
  return nullptr;
}

// leave(mod, value) after the call; its output replaces `replaced` (`value` unless given) for
// everything after it.
void add_leave(Graph& graph, Node* call, Value* value, Value* replaced = nullptr) {
  Node* leave = graph.create(kLeave, {call->input(0), value});
  leave->output()->setType(value->type());
  leave->insertAfter(call);
  (replaced ? replaced : value)->replaceAllUsesAfterNodeWith(leave, leave->output());
}

// A traced-away call, bracketed as the identity eager PyTorch ran: enter(mod, x);
// [x' = route(mod, x)]; call; leave(mod, x'), whose output replaces x after it.
void bracket_passed_through(Graph& graph, Node* call, Value* x, const InstrumentOptions& options) {
  graph.create(kEnter, std::vector<Value*>{call->input(0), x}, 0)->insertBefore(call);
  Value* value = x;
  if (options.route_tensor_args) {
    Node* route = graph.create(kRoute, {call->input(0), x, graph.insertConstant(int64_t(0))});
    route->output()->setType(x->type());
    route->insertBefore(call);
    value = route->output();
  }
  add_leave(graph, call, value, x);
}

// enter(mod, args…); [route(mod, arg) per Tensor argument]; call; leave(mod, result), whose output
// replaces the result for everything after it. enter comes first so that each route is
// attributed to the call just entered.
void bracket(Graph& graph, Node* call, const Value* self, const InstrumentOptions& options) {
  torch::jit::WithInsertPoint guard(call);
  if (Value* x = passed_through(call, self)) return bracket_passed_through(graph, call, x, options);
  graph.create(kEnter, call->inputs(), 0)->insertBefore(call);
  if (options.route_tensor_args) route_args(graph, call);
  add_leave(graph, call, call->output());
}

void instrument_block(Graph& graph, Block* block, const Value* self,
                      const InstrumentOptions& options) {
  std::vector<Node*> calls;
  for (Node* node : block->nodes()) {
    for (Block* sub : node->blocks()) instrument_block(graph, sub, self, options);
    if (is_submodule_call(node, self)) calls.push_back(node);
  }
  for (Node* call : calls) bracket(graph, call, self, options);
}

bool already_instrumented(const Block* block) {
  for (const Node* node : block->nodes()) {
    if (node->kind() == kEnter) return true;
    for (const Block* sub : node->blocks())
      if (already_instrumented(sub)) return true;
  }
  return false;
}

std::shared_ptr<Graph> graph_of(torch::jit::Function* fn) {
  auto* graph_fn = torch::jit::tryToGraphFunction(*fn);
  return graph_fn ? graph_fn->graph() : nullptr;
}

// Static walk: follow GetAttr chains from self to name the callee instance.
class StaticWalker {
 public:
  explicit StaticWalker(const torch::jit::Module& root) : root_(root) {}

  std::vector<std::pair<std::string, int>> walk() {
    if (auto graph = graph_of(&root_.get_method("forward").function()))
      walk_block(graph->block(), graph->inputs()[0], "", -1, 0);
    return calls_;
  }

 private:
  void walk_block(const Block* block, const Value* self, const std::string& path, int parent,
                  int guard) {
    if (guard > 64) return;  // recursion through self-calls cannot be unbounded in TorchScript
    for (const Node* node : block->nodes()) {
      for (const Block* sub : node->blocks()) walk_block(sub, self, path, parent, guard);
      if (node->kind() != c10::prim::CallMethod || !is_module(node->input(0))) continue;
      const std::string method = node->s(c10::attr::name);
      if (node->input(0) == self) {  // helper method on self (_forward_impl): same module
        descend(path, method, parent, guard);
      } else if (is_forward(node->input(0), method)) {
        auto callee = resolve(node->input(0), self, path);
        if (!callee) continue;
        calls_.emplace_back(*callee, parent);
        descend(*callee, method, static_cast<int>(calls_.size()) - 1, guard);
      }
    }
  }

  void descend(const std::string& path, const std::string& method, int parent, int guard) {
    auto module = find(path);
    if (!module) return;
    auto fn = module->type()->findMethod(method);
    if (auto graph = fn ? graph_of(fn) : nullptr)
      walk_block(graph->block(), graph->inputs()[0], path, parent, guard + 1);
  }

  c10::optional<std::string> resolve(const Value* v, const Value* self, const std::string& path) {
    std::vector<std::string> names;
    while (v != self) {
      const Node* node = v->node();
      if (node->kind() != c10::prim::GetAttr) return c10::nullopt;
      names.push_back(node->s(c10::attr::name));
      v = node->input(0);
    }
    std::string out = path;
    for (auto it = names.rbegin(); it != names.rend(); ++it) out += (out.empty() ? "" : ".") + *it;
    return out;
  }

  c10::optional<torch::jit::Module> find(const std::string& path) {
    for (const auto& named : root_.named_modules())
      if (named.name == path) return named.value;
    return c10::nullopt;
  }

  const torch::jit::Module& root_;
  std::vector<std::pair<std::string, int>> calls_;
};

// Each method graph of the module classes under `root`, once per class (submodules of one class
// share its methods).
template <class Visit>
void for_each_method_graph(const torch::jit::Module& root, Visit visit) {
  std::unordered_set<const c10::ClassType*> seen;
  for (const auto& named : root.named_modules()) {
    const auto type = named.value.type();
    if (!seen.insert(type.get()).second) continue;
    for (torch::jit::Function* fn : type->methods())
      if (auto graph = graph_of(fn)) visit(*graph);
  }
}

void collect_device_constants(Block* block, const c10::Device& device, std::vector<Node*>& out) {
  for (Node* node : block->nodes()) {
    for (Block* sub : node->blocks()) collect_device_constants(sub, device, out);
    if (node->kind() != c10::prim::Constant ||
        node->output()->type()->kind() != c10::TypeKind::DeviceObjType)
      continue;
    if (torch::jit::toIValue(node->output())->toDevice() != device) out.push_back(node);
  }
}

void move_in_graph(Graph& graph, const c10::Device& device) {
  std::vector<Node*> constants;
  collect_device_constants(graph.block(), device, constants);
  for (Node* node : constants) {
    torch::jit::WithInsertPoint here(node);
    node->output()->replaceAllUsesWith(graph.insertConstant(c10::IValue(device)));
    node->destroy();
  }
}

}  // namespace

void instrument_calls(const torch::jit::Module& root, const InstrumentOptions& options) {
  for_each_method_graph(root, [&](Graph& graph) {
    if (!already_instrumented(graph.block()))
      instrument_block(graph, graph.block(), graph.inputs()[0], options);
  });
}

void move_device_constants(const torch::jit::Module& root, const c10::Device& device) {
  for_each_method_graph(root, [&](Graph& graph) { move_in_graph(graph, device); });
}

void run_graphs_as_written() { torch::jit::setGraphExecutorOptimize(false); }

std::vector<std::pair<std::string, int>> static_calls(const torch::jit::Module& root) {
  return StaticWalker(root).walk();
}

ActiveHooks::ActiveHooks(const std::unordered_map<const void*, int>& by_object, CallHooks& hooks)
    : session_(std::make_unique<ForwardHooks>(by_object, hooks)), previous_(active) {
  active = session_.get();
}

ActiveHooks::~ActiveHooks() { active = previous_; }

void ActiveHooks::enter(int module, const std::vector<c10::IValue>& args) {
  session_->enter(module, args);
}

c10::IValue ActiveHooks::leave(int module, const c10::IValue& output) {
  return session_->leave(module, output);
}

namespace {

bool is_pooling(const Node* node) {
  static const std::regex pattern("aten::(max|avg)_pool[123]d(_with_indices)?");
  return std::regex_match(node->kind().toQualString(), pattern);
}

// An int list argument that tracing recorded: a list constant, or a ListConstruct of constants.
std::vector<int64_t> constant_ints(Value* value) {
  if (auto constant = torch::jit::toIValue(value); constant && constant->isIntList())
    return constant->toIntVector();
  std::vector<int64_t> out;
  if (value->node()->kind() != c10::prim::ListConstruct) return out;
  for (Value* item : value->node()->inputs()) {
    auto constant = torch::jit::toIValue(item);
    if (!constant || !constant->isInt()) return {};
    out.push_back(constant->toInt());
  }
  return out;
}

}  // namespace

std::vector<int64_t> traced_pool_kernel(const torch::jit::Module& module) {
  const auto method = module.find_method("forward");
  if (!method) return {};
  for (const Node* node : method->graph()->nodes())
    if (is_pooling(node) && node->inputs().size() > 1) return constant_ints(node->input(1));
  return {};
}

}  // namespace modrec
