// Derivatives of torchvision's region operators, which torchvision 0.29 registers from Python
// (torchvision/_autograd_registrations.py, torch.library.register_autograd): its operator library
// alone, as modrec loads it, has forward kernels only, so a detector's gradients would stop at
// roi_align. These are the same derivatives in C++, each the library's own backward operator
// (torchvision::_roi_align_backward, _roi_pool_backward) under an Autograd kernel.
#pragma once

namespace modrec {

// Registers the Autograd kernels of torchvision::roi_align and torchvision::roi_pool where the
// loaded library has those operators and no Autograd kernel of its own (an older torchvision
// registers them in C++). Idempotent.
void add_torchvision_autograd();

}  // namespace modrec
