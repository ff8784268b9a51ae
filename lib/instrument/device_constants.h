// A TorchScript pass: the devices a model's code names as constants become the device it runs
// on. torch.jit.trace records the device of every tensor a forward made or moved, as a constant:
// `torch.to(CONSTANTS.c0, torch.device("cpu"), 6)` for a torch.tensor(0.5), `arange(..., device=
// torch.device("cuda:0"))` for a model traced on a GPU. As torch.export's move_to_device_pass does
// for an exported program (and modrec's .pt2 runner), they become `device`, so that a traced model
// runs on the meta device (summary's pass on shapes), on the CPU when it was traced on a GPU, and
// on a GPU with --device cuda. Scripted code names devices by strings (torch.device("cuda")),
// which it keeps. The graphs are the model's types' methods, shared by every instance; the pass
// runs before the model's first forward (a graph's executor keeps the plan of its first run).
#pragma once
#include <c10/core/Device.h>

namespace torch::jit {
struct Module;
}

namespace modrec {

void move_device_constants(const torch::jit::Module& root, const c10::Device& device);

}  // namespace modrec
