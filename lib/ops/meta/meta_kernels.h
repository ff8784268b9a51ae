// Meta-device kernels (output shapes, no values) for common operators that LibTorch's C++ has
// none for: PyTorch registers theirs from Python (torch/_meta_registrations.py), which modrec does
// not run. With them, summary's and graph's passes over convolutions (traced ones included),
// batch norms, ReLUs, ReLU6s, Hardswishes, PReLUs, reflection and replication padding, GroupNorms'
// var_mean, adaptive pooling, embeddings (index_select), torch.where, logical_not and attention
// (scaled_dot_product_attention's softmax) run on the meta device (jobs/session.h,
// pass_on_shapes) instead of falling back to reading the weights.
#pragma once

namespace modrec {

// Registers the kernels (once per process; later calls do nothing).
void register_meta_kernels();

}  // namespace modrec
