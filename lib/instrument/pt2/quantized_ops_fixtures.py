"""Golden values of the quantization operators defined in Python only (quantized_ops_test.cpp):
each operator called as PyTorch's and torchao's Python registers it, on inputs that hit its
rounding ties and clamps, with the gradients eager autograd gives through it.

Writes OUT/cases.pt: a list of (target, arguments, outputs, gradients), dtypes as their
c10::ScalarType numbers; gradients are d(loss)/d(argument) for the arguments listed as
differentiable (None where autograd gives none), loss = sum of each float output that requires
grad, in float64, times weights(output)."""
import sys
import warnings

import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401  registers quantized_decomposed::
import torchao.quantization.quant_primitives  # noqa: F401  registers torchao::

SCALAR_TYPES = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
                torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.bfloat16: 15}


def weights(t):
    """What each output element weighs in the loss (quantized_ops_test.cpp computes the same)."""
    return (torch.arange(t.numel(), dtype=torch.float64) % 7 + 1).reshape(t.shape)


def encoded(a):
    return SCALAR_TYPES[a] if isinstance(a, torch.dtype) else a


def op_of(target):
    _, _, ns, name, overload = target.split(".")
    return getattr(getattr(getattr(torch.ops, ns), name), overload)


cases = []


def case(target, *args, grad=()):
    args = [a.detach().clone().requires_grad_(i in grad) if isinstance(a, torch.Tensor) else a
            for i, a in enumerate(args)]
    out = op_of(target)(*args)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    grads = []
    if grad:
        losses = [(o.double() * weights(o)).sum() for o in outs if o.requires_grad]
        if losses:
            found = torch.autograd.grad(sum(losses), [args[i] for i in grad], allow_unused=True)
            grads = [None if g is None else g.detach() for g in found]
        else:
            grads = [None] * len(grad)
    cases.append((target, [encoded(a) for a in args], [o.detach() for o in outs], list(grad),
                  grads))


warnings.filterwarnings("ignore")  # the autograd fallback's, on purpose
torch.manual_seed(0)
# Values on rounding ties (x / scale = k + 0.5) and beyond the quantized range, both signs.
ties = torch.tensor([0.025, -0.025, 0.075, -0.125, 6.4, -6.5, 7.0, -9.0, 0.0, 1e-9],
                    dtype=torch.float32)
x = torch.cat([ties, torch.randn(14) * 3]).reshape(4, 6)
qd = "torch.ops.quantized_decomposed."
for dtype, lo, hi in ((torch.int8, -128, 127), (torch.uint8, 0, 255), (torch.int16, -300, 300)):
    case(qd + "quantize_per_tensor.default", x, 0.05, 3, lo, hi, dtype)
case(qd + "quantize_per_tensor.default", x.to(torch.bfloat16), 0.05, -2, -128, 127, torch.int8)
case(qd + "quantize_per_tensor.tensor", x, torch.tensor(0.05), torch.tensor(3), -128, 127,
     torch.int8)
case(qd + "quantize_per_tensor.tensor", x, torch.tensor([0.05], dtype=torch.float64),
     torch.tensor([3]), -128, 127, torch.int8)
case(qd + "quantize_per_tensor.tensor2", x, torch.tensor(0.05), torch.tensor(3),
     torch.tensor(-100), torch.tensor(100), torch.int8)
q8 = torch.randint(-128, 128, (4, 6), dtype=torch.int8)
case(qd + "dequantize_per_tensor.default", q8, 0.05, 3, -128, 127, torch.int8)
case(qd + "dequantize_per_tensor.tensor", q8, torch.tensor(0.05), torch.tensor(3), -128, 127,
     torch.int8)
case(qd + "dequantize_per_tensor.tensor2", q8, torch.tensor(0.05, dtype=torch.float64),
     torch.tensor(-3), torch.tensor(-128), torch.tensor(127), torch.int8)
for name in ("choose_qparams.tensor", "choose_qparams_symmetric.tensor"):
    for dtype, lo, hi in ((torch.int8, -128, 127), (torch.uint8, 0, 255)):
        case(qd + name, x, lo, hi, 1e-5, dtype, grad=(0,))
        case(qd + name, x.abs(), lo, hi, 1e-5, dtype)
w = torch.randn(3, 4, 2) * 2
for axis in (0, 1, 2):
    scales = torch.rand(w.shape[axis]) * 0.05 + 0.01
    zps = torch.randint(-5, 5, (w.shape[axis],))
    case(qd + "quantize_per_channel.default", w, scales, zps, axis, -127, 127, torch.int8)
    qw = torch.randint(-127, 128, w.shape, dtype=torch.int8)
    case(qd + "dequantize_per_channel.default", qw, scales, zps, axis, -127, 127, torch.int8,
         grad=(1,))
    case(qd + "dequantize_per_channel.default", qw, scales, None, axis, -127, 127, torch.int8,
         grad=(1,))
    case(qd + "fake_quant_per_channel.default", w * 3, scales, zps, axis, -20, 20, grad=(0, 1))
tokens = torch.randn(2, 3, 8)
case(qd + "choose_qparams_per_token.default", tokens, torch.int8, grad=(0,))
case(qd + "choose_qparams_per_token_asymmetric.default", tokens, torch.int8, grad=(0,))
case(qd + "_choose_qparams_per_token_asymmetric_impl.default", tokens, torch.int8, grad=(0,))
tscales, tzps = torch.ops.quantized_decomposed.choose_qparams_per_token_asymmetric(
    tokens, torch.int8)
case(qd + "quantize_per_token.default", tokens, tscales, tzps, -128, 127, torch.int8)
qt = torch.randint(-128, 128, tokens.shape, dtype=torch.int8)
case(qd + "dequantize_per_token.default", qt, tscales, tzps, -128, 127, torch.int8,
     torch.float32, grad=(1,))
case(qd + "dequantize_per_token.default", qt, tscales.float(), tzps, -128, 127, torch.int8,
     torch.bfloat16)
m = torch.randn(4, 8)
gscales = torch.rand(8) * 0.1 + 0.01
gzps = torch.randint(-3, 3, (8,), dtype=torch.int32)
case(qd + "quantize_per_channel_group.default", m, gscales, gzps, -8, 7, torch.int8, 4)
qm = torch.randint(-8, 8, (4, 8), dtype=torch.int8)
case(qd + "dequantize_per_channel_group.default", qm, gscales, gzps, -8, 7, torch.int8, 4,
     torch.float32, grad=(1,))
case(qd + "dequantize_per_channel_group.default", qm, gscales, None, -8, 7, torch.int8, 4,
     torch.float32)
case(qd + "convert_element_type.no_fuse", x, torch.float16)

ao = "torch.ops.torchao."
blocks = torch.randn(4, 8) * 2
for mapping in ("ASYMMETRIC", "SYMMETRIC", "SYMMETRIC_NO_CLIPPING_ERR"):
    for block, dtype in (([1, 8], torch.int8), ([4, 2], torch.uint8), ([4, 8], torch.int8)):
        case(ao + "choose_qparams_affine.default", blocks, mapping, block, dtype, None, None, None,
             None, None, False, grad=(0,))
    case(ao + "choose_qparams_affine.default", blocks, mapping, [1, 4], torch.int8, -8, 7, 1e-4,
         torch.float64, torch.int64, True, grad=(0,))
bscale, bzp = torch.ops.torchao.choose_qparams_affine(blocks, "ASYMMETRIC", [1, 4], torch.int8)
case(ao + "quantize_affine.default", blocks, [1, 4], bscale, bzp, torch.int8, None, None,
     grad=(0, 2))
case(ao + "quantize_affine.default", blocks * 40, [1, 4], bscale, bzp, torch.int8, -20, 20)
qb = torch.randint(-128, 128, (4, 8), dtype=torch.int8)
case(ao + "dequantize_affine.default", qb, [1, 4], bscale, bzp, torch.int8, None, None,
     torch.float32, grad=(2,))
case(ao + "dequantize_affine.default", qb, [1, 4], bscale, None, torch.int8, -128, 127,
     torch.bfloat16)
torch.save(cases, sys.argv[1] + "/cases.pt")
