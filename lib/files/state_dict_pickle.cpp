#include "files/state_dict_pickle.h"

#include <algorithm>
#include <map>
#include <cstdio>
#include <memory>
#include <set>

#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

struct Value;
using Ref = std::shared_ptr<Value>;

// What the opcodes torch.save writes build. A dict keeps its items as key, value pairs.
struct Value {
  enum Kind { none, integer, real, string, tuple, list, dict, global, persistent, call } kind;
  int64_t integer_value = 0;
  std::string text;         // string, global ("module.name")
  std::vector<Ref> items;   // tuple, list, dict (key, value, key, value, ...), persistent's id
  Ref callable, arguments;  // call: what REDUCE applied
  Ref state;                // what BUILD gave it: an object's __dict__ (__setstate__'s argument)
};

// Who reads the pickle, for its errors: "checkpoint's pickle" and the advice to save it again.
struct Wording {
  std::string subject, advice;
};

const Wording kCheckpoint{"checkpoint's pickle",
                          "save the checkpoint again with torch.save(model.state_dict(), path)"};

class Machine {
 public:
  Machine(const std::string& bytes, const std::string& where, const Wording& wording)
      : b_(bytes), where_(where), wording_(wording) {}
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;
  // Every value it made lets go of the values it holds, so that all are freed one by one: a
  // million nested tuples would otherwise overflow the stack as the last reference went, and a
  // dict set into itself through the memo would never be freed.
  ~Machine() {
    for (const Ref& v : made_)
      v->items.clear(), v->callable.reset(), v->arguments.reset(), v->state.reset();
  }

  Ref run() {
    for (;;) {
      if (at_ >= b_.size()) fail("ends before STOP");
      const unsigned char op = static_cast<unsigned char>(b_[at_++]);
      if (op == '.') break;
      step(op);
    }
    if (stack_.size() != 1) fail("leaves " + std::to_string(stack_.size()) + " values");
    return stack_.back();
  }

 private:
  Ref make(Value::Kind kind) {
    made_.push_back(std::make_shared<Value>(Value{kind}));
    return made_.back();
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(Exit::bad_input,
                one_line(wording_.subject + " " + what + " (at byte " + std::to_string(at_) + ")"),
                where_, wording_.advice);
  }

  uint64_t little_endian(int n) {
    if (b_.size() - at_ < static_cast<size_t>(n)) fail("is cut off");
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b_[at_ + i]);
    at_ += n;
    return v;
  }

  std::string bytes(uint64_t n) {
    if (n > b_.size() - at_) fail("is cut off");
    std::string s = b_.substr(at_, n);
    at_ += n;
    return s;
  }

  // A str: its UTF-8 checked, as Python's unpickler decodes it (names go to JSON output).
  std::string unicode(uint64_t n) {
    std::string text = bytes(n);
    if (!valid_utf8(text)) fail("holds a string that is not UTF-8");
    return text;
  }

  std::string line() {
    const size_t end = b_.find('\n', at_);
    if (end == std::string::npos) fail("is cut off");
    std::string text = bytes(end - at_ + 1);
    text.pop_back();  // the newline
    if (!valid_utf8(text)) fail("holds a name that is not UTF-8");
    return text;
  }

  Ref pop() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("pops an empty stack");
    Ref v = stack_.back();
    stack_.pop_back();
    return v;
  }

  Ref& top() {
    if (stack_.empty()) fail("reads an empty stack");
    return stack_.back();
  }

  // The values since the last MARK, which is dropped.
  std::vector<Ref> pop_marked() {
    if (marks_.empty()) fail("has no MARK to pop to");
    std::vector<Ref> items(stack_.begin() + static_cast<ptrdiff_t>(marks_.back()), stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return items;
  }

  void push_integer(int64_t v) {
    Ref r = make(Value::integer);
    r->integer_value = v;
    stack_.push_back(r);
  }

  void push_text(Value::Kind kind, std::string text) {
    Ref r = make(kind);
    r->text = std::move(text);
    stack_.push_back(r);
  }

  void push_container(Value::Kind kind, std::vector<Ref> items) {
    if (kind == Value::dict && items.size() % 2) fail("sets a key without a value");
    Ref r = make(kind);
    r->items = std::move(items);
    stack_.push_back(r);
  }

  void push_tuple(std::vector<Ref> items) { push_container(Value::tuple, std::move(items)); }

  void push_tuple_of(size_t n) {
    std::vector<Ref> items(n);
    for (size_t i = n; i-- > 0;) items[i] = pop();
    push_tuple(std::move(items));
  }

  // Items appended to a dict (key, value pairs) or a list.
  void add_items(std::vector<Ref> items) {
    const Ref& target = top();
    if (target->kind != Value::dict && target->kind != Value::list)
      fail("adds items to a value that is no dict or list");
    if (target->kind == Value::dict && items.size() % 2) fail("sets a key without a value");
    target->items.insert(target->items.end(), items.begin(), items.end());
  }

  void memo_put(uint64_t key) { memo_[key] = top(); }
  void memo_get(uint64_t key) {
    auto it = memo_.find(key);
    if (it == memo_.end()) fail("reads a memo entry it never wrote");
    stack_.push_back(it->second);
  }

  // OrderedDict() is a dict (model.state_dict()'s type); any other call is kept as what it is.
  void reduce() {
    Ref arguments = pop(), callable = pop();
    Ref r = make(callable->kind == Value::global && callable->text == "collections.OrderedDict"
                     ? Value::dict
                     : Value::call);
    r->callable = callable, r->arguments = arguments;
    stack_.push_back(r);
  }

  void step(unsigned char op) {
    switch (op) {
      case 0x80:
        little_endian(1);
        return;  // PROTO
      case 0x95:
        little_endian(8);
        return;  // FRAME: only groups the opcodes after it
      case '(':
        marks_.push_back(stack_.size());
        return;
      case '}':
        stack_.push_back(make(Value::dict));
        return;
      case ']':
        stack_.push_back(make(Value::list));
        return;
      case ')':
        push_tuple({});
        return;
      case 't':
        push_tuple(pop_marked());
        return;
      case 'l':  // LIST: the values since the MARK
        push_container(Value::list, pop_marked());
        return;
      case 'd':  // DICT: the key, value pairs since the MARK
        push_container(Value::dict, pop_marked());
        return;
      case 0x8f:  // EMPTY_SET, filled by ADDITEMS: a list here
        stack_.push_back(make(Value::list));
        return;
      case 0x90:  // ADDITEMS
        add_items(pop_marked());
        return;
      case 0x91:  // FROZENSET
        push_container(Value::list, pop_marked());
        return;
      case 0x85:
        push_tuple_of(1);
        return;
      case 0x86:
        push_tuple_of(2);
        return;
      case 0x87:
        push_tuple_of(3);
        return;
      case 'N':
        stack_.push_back(make(Value::none));
        return;
      case 0x88:
        push_integer(1);
        return;  // NEWTRUE
      case 0x89:
        push_integer(0);
        return;  // NEWFALSE
      case 'K':
        push_integer(static_cast<int64_t>(little_endian(1)));
        return;
      case 'M':
        push_integer(static_cast<int64_t>(little_endian(2)));
        return;
      case 'J':
        push_integer(static_cast<int32_t>(little_endian(4)));
        return;
      case 0x8a:
        long1();
        return;
      case 'G':  // BINFLOAT: read past, its value unused
        bytes(8), stack_.push_back(make(Value::real));
        return;
      case 'X':
        push_text(Value::string, unicode(little_endian(4)));
        return;
      case 0x8c:
        push_text(Value::string, unicode(little_endian(1)));
        return;
      case 0x8d:
        push_text(Value::string, unicode(little_endian(8)));
        return;
      case 'B':  // BINBYTES
        push_text(Value::string, bytes(little_endian(4)));
        return;
      case 'C':  // SHORT_BINBYTES
        push_text(Value::string, bytes(little_endian(1)));
        return;
      case 0x8e:  // BINBYTES8
        push_text(Value::string, bytes(little_endian(8)));
        return;
      case 'T':  // BINSTRING
        push_text(Value::string, bytes(little_endian(4)));
        return;
      case 'U':  // SHORT_BINSTRING
        push_text(Value::string, bytes(little_endian(1)));
        return;
      case 'c': {
        std::string module = line();
        push_text(Value::global, module + "." + line());
        return;
      }
      case 0x93: {  // STACK_GLOBAL
        Ref name = pop(), module = pop();
        push_text(Value::global, module->text + "." + name->text);
        return;
      }
      case 'q':
        memo_put(little_endian(1));
        return;
      case 'r':
        memo_put(little_endian(4));
        return;
      case 0x94:  // MEMOIZE
        memo_put(memo_.size());
        return;
      case 'h':
        memo_get(little_endian(1));
        return;
      case 'j':
        memo_get(little_endian(4));
        return;
      case 'Q': {  // BINPERSID: torch.save's storage reference
        Ref id = pop();
        Ref r = make(Value::persistent);
        r->items = id->items;
        stack_.push_back(r);
        return;
      }
      case 'R':
        reduce();
        return;
      case 0x81:
        reduce();
        return;    // NEWOBJ: cls(*args), the same for what is read here
      case 'b': {  // BUILD: an object's state (a state_dict's _metadata, an object's attributes)
        Ref state = pop();
        top()->state = state;
        return;
      }
      case 's': {
        Ref value = pop(), key = pop();
        add_items({key, value});
        return;
      }
      case 'u':
        add_items(pop_marked());
        return;
      case 'a':
        add_items({pop()});
        return;
      case 'e':
        add_items(pop_marked());
        return;
      case '0':
        pop();
        return;  // POP
      case '1':
        pop_marked();
        return;  // POP_MARK
      case '2':
        stack_.push_back(top());
        return;  // DUP
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        at_--;
        fail(std::string("uses opcode ") + hex + ", which torch.save does not write");
      }
    }
  }

  void long1() {
    const uint64_t n = little_endian(1);
    if (n > 8) fail("holds an integer wider than 64 bits");
    uint64_t v = little_endian(static_cast<int>(n));
    if (n && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign-extend
    push_integer(static_cast<int64_t>(v));
  }

  const std::string& b_;
  const std::string& where_;
  const Wording& wording_;
  size_t at_ = 0;
  std::vector<Ref> stack_;
  std::vector<size_t> marks_;
  std::map<uint64_t, Ref> memo_;
  std::vector<Ref> made_;
};

// torch.save's values nest a few levels (a training checkpoint's dicts, a parameter around its
// tensor); Python's pickler itself stops near 1,000 (its recursion limit).
constexpr size_t kMaxNesting = 1000;

// Refuses values nested deeper than kMaxNesting or holding themselves (a dict set into itself
// through the memo), before anything walks them recursively. Iterative: the depth is what it
// checks.
void check_nesting(const Ref& top, const std::string& where, const Wording& wording) {
  auto refuse = [&](const std::string& what) {
    throw Error(Exit::bad_input, wording.subject + " " + what, where, wording.advice);
  };
  std::map<const Value*, size_t> depth;  // of each value done; 0 while its children are walked
  std::vector<std::pair<const Value*, bool>> work{{top.get(), false}};  // (value, children done)
  auto children = [](const Value& v) {
    std::vector<const Value*> out;
    for (const Ref& r : v.items) out.push_back(r.get());
    for (const Ref& r : {v.callable, v.arguments, v.state})
      if (r) out.push_back(r.get());
    return out;
  };
  while (!work.empty()) {
    auto [v, done] = work.back();
    work.pop_back();
    if (done) {
      size_t deepest = 0;
      for (const Value* c : children(*v)) deepest = std::max(deepest, depth[c]);
      if ((depth[v] = deepest + 1) > kMaxNesting)
        refuse("nests values more than " + std::to_string(kMaxNesting) + " deep");
      continue;
    }
    const auto [it, first] = depth.emplace(v, 0);
    if (!first) {
      if (it->second == 0) refuse("holds a value inside itself");
      continue;
    }
    work.push_back({v, true});
    for (const Value* c : children(*v)) work.push_back({c, false});
  }
}

// Reads the tensors out of the built values, through dicts, lists and tuples. A pickle's memo can
// share a value between places, or nest it in itself: the depth and the values visited are
// bounded, so that no file makes the walk recurse without end or take exponential time.
class Walker {
 public:
  explicit Walker(const std::string& where) : where_(where) {}

  // `value` under `name` ("" for the top); `subclass`: the tensor subclass whose state it is in.
  void visit(const Value& value, const std::string& name, const std::string& subclass,
             int depth = 0) {
    if (depth > kMaxDepth) fail(name, "nests values deeper than " + std::to_string(kMaxDepth));
    if (++visited_ > kMaxVisits) fail(name, "shares values more often than modrec follows");
    if (!open_.insert(&value).second) fail(name, "holds itself");
    visit_value(value, name, subclass, depth);
    open_.erase(&value);
  }

  PickledState out;

 private:
  static constexpr int kMaxDepth = 256;
  static constexpr int64_t kMaxVisits = int64_t{1} << 20;

  void visit_value(const Value& value, const std::string& name, const std::string& subclass,
                   int depth) {
    switch (value.kind) {
      case Value::dict:
        if (value.state && holds_tensor(*value.state, 0))
          fail(name, "keeps tensors among a dict's attributes, which modrec does not read");
        for (size_t i = 0; i + 1 < value.items.size(); i += 2)
          visit(*value.items[i + 1], join(name, key(*value.items[i], name)), subclass, depth + 1);
        return;
      case Value::list:
      case Value::tuple:
        for (size_t i = 0; i < value.items.size(); ++i)
          visit(*value.items[i], join(name, std::to_string(i)), subclass, depth + 1);
        return;
      case Value::call:
        return call(value, name, subclass, depth);
      case Value::persistent:
        fail(name, "is a storage outside any tensor, which torch.save does not write");
      default:
        return;  // None, a number, a string, a global (torch.float32): no tensor
    }
  }

  [[noreturn]] void fail(const std::string& name, const std::string& what) const {
    throw Error(
        Exit::bad_input,
        one_line("checkpoint's " + (name.empty() ? std::string("tensor") : name) + " " + what),
        where_,
        "save its plain tensors: torch.save(model.state_dict(), path) of a model "
        "whose parameters and buffers are torch.Tensor");
  }

  static std::string join(const std::string& prefix, const std::string& key) {
    return prefix.empty() ? key : prefix + "." + key;
  }

  std::string key(const Value& k, const std::string& name) const {
    if (k.kind == Value::integer) return std::to_string(k.integer_value);
    if (k.kind != Value::string) fail(name, "has a key that is no string or integer");
    return k.text;
  }

  static const std::string& global_name(const Ref& value) {
    static const std::string none;
    return value && value->kind == Value::global ? value->text : none;
  }

  // Whether a storage is reachable from `value`: a tensor, in whatever holds it.
  bool holds_tensor(const Value& value, int depth) {
    if (depth > kMaxDepth || ++visited_ > kMaxVisits) return true;  // refused, unread
    if (value.kind == Value::persistent) return true;
    for (const Ref& item : value.items)
      if (holds_tensor(*item, depth + 1)) return true;
    return (value.arguments && holds_tensor(*value.arguments, depth + 1)) ||
           (value.state && holds_tensor(*value.state, depth + 1));
  }

  // Classes whose objects carry no tensor and need no word: torch's own values (torch.device,
  // torch.Size, a layout), Python's builtins and collections, bytes (_codecs.encode).
  static bool plain_value(const std::string& f) {
    for (const char* prefix : {"torch.", "builtins.", "collections.", "_codecs."})
      if (f.starts_with(prefix)) return true;
    return false;
  }

  static bool rebuilds_tensor(const std::string& f) {
    return f == "torch._utils._rebuild_tensor_v2" || f == "torch._utils._rebuild_tensor_v3" ||
           f == "torch._utils._rebuild_parameter" ||
           f == "torch._utils._rebuild_parameter_with_state";
  }

  void call(const Value& value, const std::string& name, const std::string& subclass, int depth) {
    const std::string& f = global_name(value.callable);
    if (rebuilds_tensor(f)) {
      out.tensors.push_back(tensor(value, name));
      out.tensors.back().subclass = subclass;
      return;
    }
    if (f == "torch._tensor._rebuild_from_type_v2") return from_type(value, name, depth);
    if (holds_tensor(value, depth))
      fail(name, "is an object of " + (f.empty() ? std::string("a class") : f) +
                     ", which holds tensors modrec does not read");
    // An object without tensors: a training checkpoint's argparse.Namespace, a numpy scalar; a
    // subclass's metadata (torchao's KernelPreference) is told by its class.
    if (subclass.empty() && !plain_value(f))
      out.passed_over.push_back((f.empty() ? std::string("an object") : f) + " at " + name);
  }

  // _rebuild_from_type_v2(func, type, args, state): torch.save's form of a tensor subclass, and
  // of a tensor with Python attributes. A wrapper subclass (torchao's quantized weights) is its
  // state's tensors; a plain tensor rebuilt by func is that tensor.
  void from_type(const Value& value, const std::string& name, int depth) {
    const Value& args = *value.arguments;
    if (args.kind != Value::tuple || args.items.size() < 4 || args.items[2]->kind != Value::tuple)
      fail(name, "is rebuilt by _rebuild_from_type_v2 in a form torch.save does not write");
    const std::string& func = global_name(args.items[0]);
    const std::string& type = global_name(args.items[1]);
    const Value& state = *args.items[3];
    if (func == "torch._utils._rebuild_wrapper_subclass") {
      const Value& outer = *args.items[2];
      PickledSubclass s{name, type};
      if (outer.items.size() < 3 || outer.items[2]->kind != Value::tuple ||
          !torch_dtype(global_name(outer.items[1]), s.dtype))
        fail(name, "is a tensor subclass (" + type +
                       ") described in a form torch.save does not "
                       "write");
      s.shape = integers(*outer.items[2]);
      const size_t before = out.tensors.size();
      visit(state, name, type.empty() ? "a tensor subclass" : type, depth + 1);
      if (out.tensors.size() == before)
        fail(name, "is a tensor subclass (" + type + ") that holds no tensor modrec reads");
      out.subclasses.push_back(std::move(s));
      return;
    }
    if (!rebuilds_tensor(func))
      fail(name, "is rebuilt by " + (func.empty() ? std::string("an unnamed function") : func) +
                     ", which modrec does not read");
    if (holds_tensor(state, depth))
      fail(name, "keeps tensors among its attributes (" + type + "), which modrec does not read");
    Value inner{Value::call};
    inner.callable = args.items[0], inner.arguments = args.items[2];
    out.tensors.push_back(tensor(inner, name));
  }

  // "torch.float32", a dtype as the pickle names it, of a type checkpoints read (widens).
  static bool torch_dtype(const std::string& global, DType& out) {
    return global.starts_with("torch.") && dtype_from_torch(global.substr(6), out) && widens(out);
  }

  static std::vector<int64_t> integers(const Value& tuple) {
    std::vector<int64_t> v;
    for (const Ref& item : tuple.items) v.push_back(item->integer_value);
    return v;
  }

  const Value& argument(const Value& call, size_t i, Value::Kind kind, const std::string& name) {
    const auto& args = call.arguments->items;
    if (call.arguments->kind != Value::tuple || args.size() <= i || args[i]->kind != kind)
      fail(name, "is not built as torch.save builds tensors (" + call.callable->text + ")");
    return *args[i];
  }

  // _rebuild_tensor_v2(storage, offset, size, stride, ...), _rebuild_tensor_v3(..., dtype) and
  // _rebuild_parameter(tensor, ...).
  PickledTensor tensor(const Value& call, const std::string& name) {
    const std::string& f = call.callable->text;
    if (f == "torch._utils._rebuild_parameter" ||
        f == "torch._utils._rebuild_parameter_with_state") {
      const Value& inner = argument(call, 0, Value::call, name);
      if (global_name(inner.callable) != "torch._utils._rebuild_tensor_v2" &&
          global_name(inner.callable) != "torch._utils._rebuild_tensor_v3")
        fail(name, "is a parameter of no tensor torch.save writes");
      return tensor(inner, name);
    }
    const bool v3 = f == "torch._utils._rebuild_tensor_v3";
    const Value& storage = argument(call, 0, Value::persistent, name);
    if (storage.items.size() < 3 || storage.items[1]->kind != Value::global)
      fail(name, "names its storage in a form torch.save does not write");
    PickledTensor t{name, storage.items[2]->text};
    const std::string type = storage.items[1]->text;
    const bool known =
        v3 ? torch_dtype(argument(call, 6, Value::global, name).text, t.dtype)
           : type.rfind("torch.", 0) == 0 && dtype_from_storage(type.substr(6), t.dtype);
    if (!known) fail(name, "has a storage type modrec does not read (" + type + ")");
    t.storage_offset = argument(call, 1, Value::integer, name).integer_value;
    t.shape = integers(argument(call, 2, Value::tuple, name));
    t.stride = integers(argument(call, 3, Value::tuple, name));
    return t;
  }

  const std::string& where_;
  int64_t visited_ = 0;
  std::set<const Value*> open_;  // the values being visited, from the top down
};

PickledState read_pickle(const std::string& pickle, const std::string& where, bool dict) {
  Machine machine(pickle, where, kCheckpoint);  // owns the values until the walk is done
  Ref top = machine.run();
  check_nesting(top, where, kCheckpoint);
  if (dict && top->kind != Value::dict)
    throw Error(Exit::bad_input, "checkpoint's pickle holds no dict of tensors", where,
                "save a state_dict: torch.save(model.state_dict(), path)");
  Walker walker(where);
  walker.visit(*top, "", "");
  return std::move(walker.out);
}

}  // namespace

PickledState read_state_dict_pickle(const std::string& pickle, const std::string& where) {
  return read_pickle(pickle, where, true);
}

PickledState read_tensor_pickle(const std::string& pickle, const std::string& where) {
  return read_pickle(pickle, where, false);
}

void check_pickle_nesting(const std::string& pickle, const std::string& where,
                          const std::string& subject, const std::string& advice) {
  const Wording wording{subject, advice};
  Machine machine(pickle, where, wording);
  check_nesting(machine.run(), where, wording);
}

}  // namespace modrec
