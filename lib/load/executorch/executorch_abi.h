// The plain C interface between modrec and its ExecuTorch shim (executorch_shim.cpp), the library
// built against the executorch wheel's headers and loaded with dlopen when a .pte is given. Only C
// types cross it: the shim links ExecuTorch's runtime, which carries its own copies of c10's
// headers, and modrec links LibTorch; neither sees the other's C++ types.
#pragma once
#include <stddef.h>
#include <stdint.h>

extern "C" {

// A tensor's bytes, borrowed for the call: dtype is a c10::ScalarType number (ExecuTorch's
// ScalarType numbers are the same); strides in elements (an output's dim order may be channels
// last), null for a contiguous input.
struct ModrecEtTensor {
  int32_t dtype;
  int32_t dim;
  const int64_t* sizes;
  const int64_t* strides;
  void* data;
};

// Receives each output tensor of a run, in order, while its bytes are valid; `context` is run's.
typedef void (*ModrecEtOutput)(void* context, const ModrecEtTensor* tensor);
// Receives, as the run goes, each tensor an instruction of forward's plan made (ETDump's
// intermediate outputs: a kernel's out arguments; not a delegate's), with the instruction's index
// in its chain, while its bytes are valid; `context` is run's.
typedef void (*ModrecEtIntermediate)(void* context, int64_t instruction,
                                     const ModrecEtTensor* tensor);

// The program at `path`, verified whole by ExecuTorch's own verifier (Program::Verification::
// InternalConsistency: its FlatBuffer's every offset and size within it, its tensors' element
// counts, its lists' types) before anything of it is read, its method "forward" loaded; null with
// the reason in `error` (a NUL-terminated line of at most error_size bytes) when ExecuTorch
// refuses or cannot load it.
typedef void* (*ModrecEtOpen)(const char* path, char* error, size_t error_size);

// forward as the program declares it: its instructions, and each input's and output's dtype and
// sizes (`data` null; dtype -1 and dim 0 for a value that is no tensor), valid while the program
// is open.
struct ModrecEtMethod {
  int64_t instructions;
  size_t inputs;
  size_t outputs;
  const ModrecEtTensor* values;  // the inputs, then the outputs
};
typedef void (*ModrecEtDescribe)(void* program, ModrecEtMethod* method);
// Runs forward on `inputs`; 0 on success, else -1 with the reason in `error`. An output that is
// not a tensor fails the run. `intermediate` (null: none) receives the instructions' outputs.
typedef int (*ModrecEtRun)(void* program, const ModrecEtTensor* inputs, size_t count,
                           ModrecEtOutput output, ModrecEtIntermediate intermediate, void* context,
                           char* error, size_t error_size);
typedef void (*ModrecEtClose)(void* program);
// Sends the runtime's log messages (ExecuTorch's own, printed on stderr otherwise) to `sink`, with
// their level's letter ('D', 'I', 'E', 'F'), from now on.
typedef void (*ModrecEtLog)(char level, const char* message, size_t length);
typedef void (*ModrecEtSetLog)(ModrecEtLog sink);
}
