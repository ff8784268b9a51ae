"""Eager sample models for modrec's tests, registered by name in MODELS.

Every model scripts with torch.jit.script. Builders seed torch before
constructing, so weights are the same in every process. The first group mirrors
the models behind docs/torchinfo-reference/*.out; the rest exercise features
(several inputs, reused modules, tuple/dict outputs, loops over ModuleLists).
Run with the pinned environment's Python (scripts/torch_env.sh: torch 2.14.1, torchvision 0.29.1).
"""
import warnings
from typing import Callable, Dict, List, Optional, Tuple

import torch
import torch.nn.functional as F
from torch import Tensor, nn

SEED = 0


# --- models of the torchinfo reference outputs -------------------------------

class SingleInputNet(nn.Module):
    """single_input.out / basic_summary.out: a small LeNet-like CNN."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d(0.3)
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x: Tensor) -> Tensor:
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


class LinearModel(nn.Module):
    """jit.out: an MLP inside one Sequential."""

    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(128, 128), nn.ReLU(),
            nn.Linear(128, 128), nn.ReLU(),
            nn.Linear(128, 1),
        )

    def forward(self, x: Tensor) -> Tensor:
        return self.layers(x)


class LSTMNet(nn.Module):
    """lstm.out: Embedding -> 2-layer seq-first LSTM -> Linear (~15 MB)."""

    def __init__(self, vocab_size: int = 20, embed_dim: int = 300,
                 hidden_dim: int = 512, num_layers: int = 2) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.encoder = nn.LSTM(embed_dim, hidden_dim, num_layers=num_layers)
        self.decoder = nn.Linear(hidden_dim, vocab_size)

    def forward(self, x: Tensor) -> Tuple[Tensor, Tuple[Tensor, Tensor]]:
        embed = self.embedding(x)
        out, hidden = self.encoder(embed)
        out = self.decoder(out)
        return out.reshape(-1, out.size(2)), hidden


class ContainerChildModule(nn.Module):
    """Calls its Sequential, a Linear, loops over the Sequential, then again."""

    def __init__(self) -> None:
        super().__init__()
        self._sequential = nn.Sequential(nn.Linear(5, 5), nn.Linear(5, 5))
        self._between = nn.Linear(5, 5)

    def forward(self, x: Tensor) -> Tensor:
        out = self._sequential(x)
        out = self._between(out)
        for layer in self._sequential:
            out = layer(out)
        out = self._sequential(x)
        for layer in self._sequential:
            out = layer(out)
        return out


class ContainerModule(nn.Module):
    """container.out: a ModuleList walked in a loop, never called itself.

    torchinfo's fixture also appends a None to the list; TorchScript cannot
    hold one and it never shows in the table, so it is left out.
    """

    def __init__(self) -> None:
        super().__init__()
        self._layers = nn.ModuleList(
            [nn.Linear(5, 5), ContainerChildModule(), nn.Linear(5, 5)])

    def forward(self, x: Tensor) -> Tensor:
        out = x
        for layer in self._layers:
            out = layer(out)
        return out


class SimpleRNN(nn.Module):
    """hide_recursive_layers.out: an LSTMCell and a Tanh called 4 times.

    The unused projection Linear(2, 3) is the root's 9 leftover params.
    torchinfo's fixture starts from torch.randn states; zeros keep the
    outputs reproducible across Python and C++ (shapes are the same).
    """

    def __init__(self, repeat_outside_loop: bool = False) -> None:
        super().__init__()
        self.hid_dim = 2
        self.input_dim = 3
        self.max_length = 4
        self.repeat_outside_loop = repeat_outside_loop
        self.lstm = nn.LSTMCell(self.input_dim, self.hid_dim)
        self.activation = nn.Tanh()
        self.projection = nn.Linear(self.hid_dim, self.input_dim)

    def forward(self, token_embedding: Tensor) -> Tensor:
        b_size = token_embedding.size(0)
        hx = torch.zeros(b_size, self.hid_dim, device=token_embedding.device)
        cx = torch.zeros(b_size, self.hid_dim, device=token_embedding.device)
        for _ in range(self.max_length):
            hx, cx = self.lstm(token_embedding, (hx, cx))
            hx = self.activation(hx)
        if self.repeat_outside_loop:
            hx = self.projection(hx)
            hx = self.activation(hx)
        return hx


# --- feature models ----------------------------------------------------------

class TwoInputNet(nn.Module):
    """forward(x, y): one branch per input, merged by a head."""

    def __init__(self) -> None:
        super().__init__()
        self.branch_x = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        self.branch_y = nn.Sequential(nn.Linear(4, 16), nn.Tanh())
        self.head = nn.Linear(32, 3)

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        merged = torch.cat([self.branch_x(x), self.branch_y(y)], dim=1)
        return self.head(merged)


class ReusedModuleNet(nn.Module):
    """One Linear and one in-place ReLU called several times."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.act = nn.ReLU(inplace=True)
        self.out = nn.Linear(8, 2)

    def forward(self, x: Tensor) -> Tensor:
        x = self.act(self.fc(x))
        x = self.act(self.fc(x))
        x = self.fc(x) + x
        return self.out(self.act(x))


class DictHeads(nn.Module):
    """A submodule that returns a dict of heads."""

    def __init__(self) -> None:
        super().__init__()
        self.cls = nn.Linear(16, 5)
        self.reg = nn.Linear(16, 2)

    def forward(self, x: Tensor) -> Dict[str, Tensor]:
        return {"cls": self.cls(x), "reg": self.reg(x)}


class MultiOutputNet(nn.Module):
    """Returns a tuple; its `heads` submodule returns a dict."""

    def __init__(self) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
        self.heads = DictHeads()

    def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:
        h = self.heads(self.trunk(x))
        return h["cls"], h["reg"]


class MultiOutputDictNet(nn.Module):
    """The dict variant: the root itself returns a dict."""

    def __init__(self) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(10, 16), nn.ReLU())
        self.heads = DictHeads()

    def forward(self, x: Tensor) -> Dict[str, Tensor]:
        return self.heads(self.trunk(x))


class SeqClassifier(nn.Module):
    """A batch-first nn.LSTM followed by a Linear on the last step."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(8, 16, num_layers=2, batch_first=True)
        self.fc = nn.Linear(16, 4)

    def forward(self, x: Tensor) -> Tensor:
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


class ModuleListNet(nn.Module):
    """A ModuleList of residual blocks walked in a loop."""

    def __init__(self, width: int = 12, depth: int = 3) -> None:
        super().__init__()
        self.stem = nn.Linear(6, width)
        self.blocks = nn.ModuleList(
            [nn.Sequential(nn.Linear(width, width), nn.GELU()) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)

    def forward(self, x: Tensor) -> Tensor:
        x = self.stem(x)
        for block in self.blocks:
            x = x + block(x)
        return self.norm(x)


class TinyConvNet(nn.Module):
    """Conv/BatchNorm/in-place ReLU/pool/Linear: train and eval differ."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(inplace=True),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(16, 10)

    def forward(self, x: Tensor) -> Tensor:
        x = self.pool(self.features(x))
        return self.classifier(torch.flatten(x, 1))


class TinyLSTMNet(LSTMNet):
    """LSTMNet in small: its float Embedding keeps a gradient flowing into the LSTM and Linear
    once those are quantized; returns (out, (h, c))."""

    def __init__(self) -> None:
        super().__init__(vocab_size=10, embed_dim=8, hidden_dim=12, num_layers=1)


class QuantConvNet(nn.Module):
    """Conv/ReLU/pool/Linear between QuantStub and DeQuantStub: float as it stands (the stubs pass
    their input through), statically quantized by _static_int8."""

    def __init__(self) -> None:
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.AdaptiveAvgPool2d(2)
        self.fc = nn.Linear(16, 5)
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x: Tensor) -> Tensor:
        x = self.pool(self.relu(self.conv(self.quant(x))))
        return self.dequant(self.fc(torch.flatten(x, 1)))


class Twice(nn.Module):
    """Returns one tensor twice, and one that it also uses inside the call."""

    def forward(self, x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:
        y = x * 2
        u = x + 1
        return y, y, u, u.tanh()


class AliasingNet(nn.Module):
    """Returned tensors that are not fresh, unused results of their call: an Identity whose
    input the caller also uses, a Flatten view rewritten in place afterwards, one tensor
    returned twice, a returned value also used inside the call. Each call's grad_output must
    still be only what flows in from outside it."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(6, 6)
        self.ident = nn.Identity()
        self.flat = nn.Flatten()
        self.twice = Twice()

    def forward(self, x: Tensor) -> Tensor:
        h = self.fc(x.reshape(4, 6))
        y = self.ident(h)
        z = self.flat((y + 1).view(4, 2, 3))
        z.mul_(3)
        a, b, u, v = self.twice(z)
        return a * 2 + b * 3 + u * u + v + y + h


class TransformerEncoderNet(nn.Module):
    """Two nn.TransformerEncoderLayers (batch-first). In eval mode under no-grad the scripted
    layers could take PyTorch's fused fast path; eager PyTorch leaves it once hooks are attached
    (torchinfo's are), so the table shows self_attn, linear1, dropout, linear2, norm1, norm2,
    dropout1 and dropout2 as calls."""

    def __init__(self) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.1,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)

    def forward(self, x: Tensor) -> Tensor:
        return self.encoder(x)


class ViTTinyEncoder(nn.Module):
    """ViT-tiny's encoder (width 192, 3 heads, MLP 768, pre-norm, GELU) over 64 embedded patches,
    4 blocks of its 12: scripts/bench.sh's attention model."""

    def __init__(self) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=192, nhead=3, dim_feedforward=768, dropout=0.0,
                                           activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(192)

    def forward(self, x: Tensor) -> Tensor:
        return self.norm(self.encoder(x))


class MHAKwargsNet(nn.Module):
    """nn.MultiheadAttention called with keyword arguments (need_weights, average_attn_weights:
    non-tensor values in the call) and a Linear called with its input by keyword only (torchinfo
    shows "--" as that call's input size). Both attention outputs reach the loss."""

    def __init__(self) -> None:
        super().__init__()
        self.attn = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True)
        self.fc = nn.Linear(8, 4)

    def forward(self, x: Tensor) -> Tensor:
        out, weights = self.attn(x, x, x, need_weights=True, average_attn_weights=False)
        assert weights is not None
        return self.fc(input=out) + weights.mean(dim=1)


class NotedCallsNet(nn.Module):
    """What a .pt2 says only with modrec.export's notes (tests/test_pt2.py, ExportNotes): an LSTM
    called with hx=None, nn.MultiheadAttention called with need_weights=True (its (output,
    weights) tuple), a Dropout that eval mode skips, and a ModuleDict that is never called itself.
    Every tensor of a call's arguments and result has a shape of its own there (proj_size, kdim,
    vdim), and every result reaches the output: the notes tell the graph's values of a call by
    their shapes, and the graph has no value for a result nobody uses (docs/export-notes.md)."""

    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(6, 8, proj_size=4, batch_first=True)
        self.attn = nn.MultiheadAttention(embed_dim=4, num_heads=2, kdim=3, vdim=2,
                                          batch_first=True)
        self.drop = nn.Dropout(0.2)
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 3),
                                    "b": nn.Sequential(nn.Dropout(0.1), nn.Linear(4, 3))})

    def forward(self, x: Tensor) -> Tensor:
        h, (hn, cn) = self.lstm(x, None)
        h = h + hn.transpose(0, 1) * cn.mean()
        out, weights = self.attn(h, h[..., :3], h[..., 2:], need_weights=True)
        assert weights is not None
        y = self.drop(out) + weights.sum(-1, keepdim=True)
        return self.heads["a"](y) * self.heads["b"](y)


class BranchNet(nn.Module):
    """Data flow for `modrec graph`: two inputs (integer tokens reach the embedding unchanged),
    functional ops between calls (cat, an in-place skip add, a product), one module called
    twice, and a tuple output."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.proj = nn.Linear(3, 4)
        self.block = nn.Sequential(nn.Linear(8, 8), nn.ReLU())
        self.head = nn.Linear(8, 2)
        self.gate = nn.Sigmoid()

    def forward(self, tokens: Tensor, x: Tensor) -> Tuple[Tensor, Tensor]:
        h = torch.cat([self.embed(tokens), self.proj(x)], dim=1)
        y = self.block(h)
        y += h
        out = self.head(y)
        return out, self.gate(out) * self.gate(h).sum(1, keepdim=True)


class MatmulAttentionNet(nn.Module):
    """torch.matmul and F.scaled_dot_product_attention called in forward itself (no module does
    that work): the FLOPs that torchinfo's mult-adds miss (tests/test_flops.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.qkv = nn.Linear(16, 48)
        self.proj = nn.Linear(16, 16)

    def forward(self, x: Tensor) -> Tensor:
        b, s = x.shape[0], x.shape[1]
        q, k, v = [t.reshape(b, s, 2, 8).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1)]
        scores = torch.matmul(q, k.transpose(-2, -1)).softmax(dim=-1)
        mixed = torch.matmul(scores, v) + F.scaled_dot_product_attention(q, k, v)
        return self.proj(torch.matmul(mixed.transpose(1, 2).reshape(b, s, 16), self.proj.weight))


class ArgsNet(nn.Module):
    """forward takes an argument of each kind --arg and --input NAME= give (issue 21): a required
    List[int], an Optional tensor, a float, a str, a bool and an int with a default. `size` shows
    in the shapes, `repeat` in the number of fc calls, `relu` in whether act is called; a bad
    `pooling` raises ValueError in the model's own code. (Not `mode`: torchinfo.summary has a
    `mode` parameter of its own and could not pass it on.)"""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.mix = nn.Conv2d(4, 4, 1)
        self.fc = nn.Linear(4, 4)
        self.act = nn.ReLU()

    def forward(self, x: Tensor, size: List[int], mask: Optional[Tensor] = None,
                scale: float = 1.0, pooling: str = "mean", relu: bool = False,
                repeat: int = 1) -> Tensor:
        if pooling != "mean" and pooling != "max":
            raise ValueError("pooling must be 'mean' or 'max', got '" + pooling + "'")
        y = self.conv(x) * scale
        if mask is not None:
            y = y * mask
        y = F.adaptive_max_pool2d(y, size) if pooling == "max" else F.adaptive_avg_pool2d(y, size)
        y = self.mix(y).mean(dim=(2, 3))
        for _ in range(repeat):
            y = self.fc(y)
        return self.act(y) if relu else y


class CountingNet(nn.Module):
    """Keeps state between calls, as an RNN's state or a context buffer: a step counter advanced
    by the int argument `stride`, and the previous batch's mean kept as a buffer. Run batch after
    batch, each call's output depends on the calls before it."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.steps = 0
        self.register_buffer("context", torch.zeros(4))

    def forward(self, x: Tensor, stride: int = 1) -> Tensor:
        self.steps += stride
        y = self.fc(x + self.context) * float(self.steps)
        self.context = x.detach().mean(0)
        return y


def _branch_inputs() -> Tuple[Tensor, ...]:
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randint(0, 10, (5,), generator=gen), torch.randn(5, 3, generator=gen))


# --- torch.export only: higher-order operators, Hugging Face decoders -------

class NoGradBlockNet(nn.Module):
    """A torch.no_grad() block between two layers (export: wrap_with_set_grad_enabled): `a`
    gets no gradient through `b`'s branch, only through the skip around it."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)
        self.c = nn.Linear(4, 3)

    def forward(self, x: Tensor) -> Tensor:
        y = self.a(x)
        with torch.no_grad():
            z = self.b(y) * 2
        return self.c(y + z)


class NestedNoGradNet(nn.Module):
    """A torch.no_grad() block inside a nested module (block.inner), as transformers' static-cache
    export recipe has one: exported strict, the block's operator node carries only the root's
    module stack where its subgraph's nodes carry block.inner's."""

    class Inner(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm = nn.LayerNorm(4)
            self.fc = nn.Linear(4, 4)

        def forward(self, x: Tensor) -> Tensor:
            with torch.no_grad():
                y = self.norm(x) * 2
            return self.fc(x) + y

    def __init__(self) -> None:
        super().__init__()
        self.block = nn.Sequential(nn.Linear(4, 4), self.Inner(), nn.Linear(4, 4))
        self.head = nn.Linear(4, 3)

    def forward(self, x: Tensor) -> Tensor:
        return self.head(self.block(x))


class AutocastBlockNet(nn.Module):
    """A bfloat16 torch.autocast block on the CPU (export: wrap_with_autocast)."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(4, 8)
        self.b = nn.Linear(8, 3)

    def forward(self, x: Tensor) -> Tensor:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = torch.relu(self.a(x))
        return self.b(y.float())


class CondNet(nn.Module):
    """torch.cond on the input's sum, each branch calling other submodules. Eager forward hooks
    cannot run inside torch.cond, so eager PyTorch takes Python's `if` (the same branch); only
    export sees torch.cond. Exported strict: non-strict export writes no nn_module_stack in cond's
    branches."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.br = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4))
        self.head = nn.Linear(4, 2)

    def forward(self, x: Tensor) -> Tensor:
        if torch.compiler.is_exporting():
            y = torch.cond(x.sum() > 0, self.a, self.br, (x,))
        else:
            y = self.a(x) if x.sum() > 0 else self.br(x)
        return self.head(y)


class WhileLoopNet(nn.Module):
    """torch._higher_order_ops.while_loop calling a submodule in its body until the carried
    counter reaches 3. Eager PyTorch runs the same loop in Python (while_loop itself compiles in
    eager mode, where forward hooks do not run); only export sees while_loop."""

    def __init__(self) -> None:
        super().__init__()
        self.step = nn.Linear(4, 4)
        self.head = nn.Linear(4, 2)

    def forward(self, x: Tensor) -> Tensor:
        if torch.compiler.is_exporting():
            from torch._higher_order_ops.while_loop import while_loop
            _, y = while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, torch.tanh(self.step(y))),
                              (torch.zeros((), dtype=torch.int64), x))
        else:
            y = x
            for _ in range(3):
                y = torch.tanh(self.step(y))
        return self.head(y)


class MapNet(nn.Module):
    """torch._higher_order_ops.map over the input's first dimension, calling a submodule per
    slice (export: map_impl); eager PyTorch runs the same slices in Python, as for WhileLoopNet."""

    def __init__(self) -> None:
        super().__init__()
        self.f = nn.Linear(4, 3)

    def slice(self, x: Tensor) -> Tensor:
        return torch.relu(self.f(x))

    def forward(self, x: Tensor) -> Tensor:
        if torch.compiler.is_exporting():
            from torch._higher_order_ops.map import map as map_hop
            return map_hop(self.slice, x)
        return torch.stack([self.slice(s) for s in x])


class KeywordBlock(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x: Tensor, mask: Optional[Tensor] = None, **kwargs: object) -> Tensor:
        y = self.fc(x)
        return y if mask is None else y * mask


class KeywordCallsNet(nn.Module):
    """Modules called with keyword arguments only (`fc(input=x)`, an Identity's `skip(input=h)`,
    `head(x=h)`: torchinfo shows "--" as their input size), and with some by keyword
    (`block(h, mask=m)`), forward's **kwargs among them as Hugging Face models take them. (Export
    keeps no signature of a module called once by position and once by keyword.)"""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.skip = nn.Identity()
        self.block = KeywordBlock()
        self.head = KeywordBlock()

    def forward(self, x: Tensor) -> Tensor:
        h = self.skip(input=self.fc(input=x))
        h = self.block(h, mask=x.sigmoid())
        return self.head(x=h)


class WeightNormNet(nn.Module):
    """Weight norm both ways: a grouped convolution with parametrizations.weight_norm over its
    kernel dimension (wav2vec2's positional convolution), and one with the older
    torch.nn.utils.weight_norm, a forward pre-hook that sets `weight` from weight_g and weight_v."""

    def __init__(self) -> None:
        super().__init__()
        self.pos_conv = nn.utils.parametrizations.weight_norm(
            nn.Conv1d(8, 8, 3, padding=1, groups=2), dim=2)
        self.act = nn.GELU()
        with warnings.catch_warnings():  # deprecated in favour of the parametrization
            warnings.simplefilter("ignore", FutureWarning)
            self.proj = nn.utils.weight_norm(nn.Conv1d(8, 4, 1))

    def forward(self, x: Tensor) -> Tensor:
        return self.proj(x + self.act(self.pos_conv(x)))


class ReparametrizedNet(nn.Module):
    """Weights computed by parametrizations: a convolution with weight_norm (wav2vec2's positional
    convolution: dim=2), a Linear with spectral_norm, a Linear with a parametrization of its own.
    torchinfo counts the ParametrizationLists' originals; a parametrization's call takes them as
    arguments (weight_norm's _WeightNorm(g, v))."""

    class Symmetric(nn.Module):
        def forward(self, w: Tensor) -> Tensor:
            return w.triu() + w.triu(1).transpose(0, 1)

    def __init__(self) -> None:
        super().__init__()
        P = nn.utils.parametrizations
        self.conv = P.weight_norm(nn.Conv1d(4, 8, 3, padding=1), dim=2)
        self.fc = P.spectral_norm(nn.Linear(8, 8))
        self.sym = nn.Linear(8, 8)
        nn.utils.parametrize.register_parametrization(self.sym, "weight", self.Symmetric())

    def forward(self, x: Tensor) -> Tensor:
        return self.sym(self.fc(self.conv(x).mean(-1)))


class SharedModuleNet(nn.Module):
    """One module object at several paths: `b` is `a` (called through both names), and a block
    inside two parents. named_modules() names each object once (its first path), torchinfo's hooks
    by its last; a TorchScript file and a plain .pt2 keep a module per path."""

    def __init__(self) -> None:
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = self.a
        block = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
        self.p1 = nn.Sequential(block, nn.Linear(4, 4))
        self.p2 = nn.Sequential(nn.Tanh(), block)

    def forward(self, x: Tensor) -> Tensor:
        return self.p2(self.p1(self.b(self.a(x))))


class HFDecoder(nn.Module):
    """A random-weight Hugging Face decoder LLM (transformers 5) returning its logits, tiny unless
    `sizes` override its config: its rotary embedding runs under @torch.no_grad() (export:
    wrap_with_set_grad_enabled)."""

    def __init__(self, arch: str, **sizes: int) -> None:
        super().__init__()
        import transformers  # only needed for these models
        common = dict(vocab_size=64, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                      num_attention_heads=2, max_position_embeddings=256, use_cache=False)
        if arch != "GPTNeoX":
            common["num_key_value_heads"] = 1
        if arch == "Gemma":
            common["head_dim"] = 8
        config = getattr(transformers, arch + "Config")(**{**common, **sizes})
        self.model = getattr(transformers, arch + "ForCausalLM")(config)

    def forward(self, ids: Tensor) -> Tensor:
        return self.model(input_ids=ids).logits


class HFSeq2Seq(nn.Module):
    """A random-weight Hugging Face T5 (transformers 5), tiny: its embedding tied between encoder
    and decoder, its calls given keyword arguments, its result a ModelOutput (returned whole)."""

    def __init__(self) -> None:
        super().__init__()
        import transformers  # only needed for this model
        config = transformers.T5Config(vocab_size=64, use_cache=False, d_model=16, d_kv=8, d_ff=32,
                                       num_layers=1, num_decoder_layers=1, num_heads=2)
        self.model = transformers.T5Model(config)

    def forward(self, ids: Tensor) -> object:
        return self.model(input_ids=ids, decoder_input_ids=ids)


class HFMoE(nn.Module):
    """A random-weight Hugging Face Qwen2-MoE (transformers 5), tiny: its experts run the default
    experts implementation (grouped_mm), which under torch.export calls transformers' Python
    custom operator grouped_mm_fallback (transformers/integrations/moe.py). Eager forward takes
    the same path (the fallback is forced), so that eager hooks see the operator the program
    runs."""

    def __init__(self) -> None:
        super().__init__()
        import transformers  # only needed for this model
        config = transformers.Qwen2MoeConfig(
            vocab_size=64, hidden_size=16, intermediate_size=32, moe_intermediate_size=8,
            shared_expert_intermediate_size=16, num_hidden_layers=1, num_attention_heads=2,
            num_key_value_heads=1, num_experts=4, num_experts_per_tok=2,
            max_position_embeddings=32, use_cache=False)
        self.model = transformers.Qwen2MoeForCausalLM(config)

    def forward(self, ids: Tensor) -> Tensor:
        from transformers.integrations import moe  # only needed for this model
        can_use = moe._can_use_grouped_mm
        moe._can_use_grouped_mm = lambda *args: False
        try:
            return self.model(input_ids=ids).logits
        finally:
            moe._can_use_grouped_mm = can_use


def _hf_clip() -> nn.Module:
    """A random-weight Hugging Face CLIPModel, tiny, called with keyword inputs only (input_ids,
    attention_mask, pixel_values: EXAMPLE_KWARGS), as its users call it."""
    import transformers  # only needed for this model
    torch.manual_seed(SEED)
    tower = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2)
    config = transformers.CLIPConfig(
        text_config=dict(vocab_size=64, max_position_embeddings=128, bos_token_id=1,
                         eos_token_id=2, pad_token_id=0, **tower),
        vision_config=dict(image_size=12, patch_size=6, **tower), projection_dim=8)
    return transformers.CLIPModel(config)


def _hf_whisper() -> nn.Module:
    """A random-weight Hugging Face WhisperModel, tiny, called with keyword inputs only
    (input_features, decoder_input_ids: EXAMPLE_KWARGS)."""
    import transformers  # only needed for this model
    torch.manual_seed(SEED)
    config = transformers.WhisperConfig(
        vocab_size=64, num_mel_bins=8, encoder_layers=1, decoder_layers=1, d_model=16,
        encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
        decoder_ffn_dim=32, max_source_positions=8, max_target_positions=16, use_cache=False,
        pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=1)
    return transformers.WhisperModel(config)


def _diffusers_unet() -> nn.Module:
    """A random-weight diffusers UNet2DConditionModel, tiny (a cross-attention down and up block, a
    plain pair), called with keyword inputs only (sample, timestep, encoder_hidden_states:
    EXAMPLE_KWARGS), as a diffusion pipeline calls it."""
    import diffusers  # only needed for this model
    torch.manual_seed(SEED)
    return diffusers.UNet2DConditionModel(
        sample_size=8, in_channels=4, out_channels=4, layers_per_block=1, block_out_channels=(8, 16),
        down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
        up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"), cross_attention_dim=8,
        attention_head_dim=2, norm_num_groups=4)


def _diffusers_vae() -> nn.Module:
    """A random-weight diffusers AutoencoderKL, tiny, called with its sample by keyword."""
    import diffusers  # only needed for this model
    torch.manual_seed(SEED)
    return diffusers.AutoencoderKL(
        in_channels=3, out_channels=3, down_block_types=("DownEncoderBlock2D",) * 2,
        up_block_types=("UpDecoderBlock2D",) * 2, block_out_channels=(8, 16), latent_channels=4,
        norm_num_groups=4, layers_per_block=1, sample_size=16)


class RepeatedOutputNet(nn.Module):
    """A block returning one tensor at several places of its result, as diffusers' DownBlock2D
    returns `hidden_states, (hidden_states,)` and its caller keeps both: the places are used
    apart (the next layer takes the first, a skip connection the others), so each has a
    gradient of its own."""

    class Block(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = nn.Linear(4, 4)

        def forward(self, x: Tensor) -> Tuple[Tensor, Tuple[Tensor, Tensor]]:
            h = self.conv(x).relu()
            return h, (h, h)

    def __init__(self) -> None:
        super().__init__()
        self.down = self.Block()
        self.mid = nn.Linear(4, 4)
        self.skip = nn.Linear(4, 4)

    def forward(self, x: Tensor) -> Tensor:
        h, (res_a, res_b) = self.down(x)
        return self.mid(h) * 2 + self.skip(res_a) + res_b * 3


def _hf_decoder(arch: str) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        torch.manual_seed(SEED)
        return HFDecoder(arch)
    return build


def _static_cache_llama() -> nn.Module:
    """transformers' ExecuTorch export recipe (TorchExportableModuleWithStaticCache, what
    convert_and_export_with_cache exports) around a tiny random-weight Llama: the static KV cache
    is the wrapper's buffers, written in place by each forward, which takes input_ids and
    cache_position (EXAMPLE_KWARGS) by keyword."""
    import transformers  # only needed for this model
    from transformers.integrations.executorch import TorchExportableModuleWithStaticCache
    torch.manual_seed(SEED)
    config = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64,
                                      num_hidden_layers=2, num_attention_heads=2,
                                      num_key_value_heads=1, max_position_embeddings=64)
    model = transformers.LlamaForCausalLM(config).eval()
    model.generation_config.use_cache = True
    model.generation_config.cache_implementation = "static"
    return TorchExportableModuleWithStaticCache(model, batch_size=1, max_cache_len=16)


def _timm(name: str, **sizes: object) -> Callable[[], nn.Module]:
    """A timm model of random weights, made tiny by `sizes` (no download)."""
    def build() -> nn.Module:
        import timm  # only needed for these models
        torch.manual_seed(SEED)
        return timm.create_model(name, pretrained=False, num_classes=10, **sizes)
    return build


def _tokens_of(*shape: int) -> Callable[[], Tuple[Tensor, ...]]:
    def make() -> Tuple[Tensor, ...]:
        return (torch.randint(0, 64, shape, generator=torch.Generator().manual_seed(SEED)),)
    return make


# --- registry ----------------------------------------------------------------

def _seeded(cls: Callable[[], nn.Module]) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        torch.manual_seed(SEED)
        return cls()
    return build


def _dynamic_int8(build_float: Callable[[], nn.Module]) -> Callable[[], nn.Module]:
    """The model with its LSTM and Linear layers dynamically quantized to int8 (weights int8,
    activations quantized on the fly), as torch.ao.quantization.quantize_dynamic makes it."""
    def build() -> nn.Module:
        return torch.ao.quantization.quantize_dynamic(build_float().eval(), {nn.LSTM, nn.Linear},
                                                      dtype=torch.qint8)
    return build


def _static_int8(build_float: Callable[[], nn.Module],
                 calibration: Callable[[], Tuple[Tensor, ...]]) -> Callable[[], nn.Module]:
    """Eager static quantization (prepare, one calibration pass, convert) with the default qconfig
    of the quantized engine in use (fbgemm on x86, qnnpack on ARM)."""
    def build() -> nn.Module:
        model = build_float().eval()
        model.qconfig = torch.ao.quantization.get_default_qconfig(torch.backends.quantized.engine)
        prepared = torch.ao.quantization.prepare(model)
        with torch.no_grad():
            prepared(*calibration())
        return torch.ao.quantization.convert(prepared)
    return build


def _randn(*shape: int) -> Callable[[], Tuple[Tensor, ...]]:
    def make() -> Tuple[Tensor, ...]:
        return (torch.randn(*shape, generator=torch.Generator().manual_seed(SEED)),)
    return make


def _inputs(*makers: Callable[[], Tuple[Tensor, ...]]) -> Callable[[], Tuple[Tensor, ...]]:
    def make() -> Tuple[Tensor, ...]:
        return tuple(t for m in makers for t in m())
    return make


def _tokens() -> Tuple[Tensor, ...]:
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randint(0, 20, (1, 100), generator=gen),)


def _small_tokens() -> Tuple[Tensor, ...]:
    gen = torch.Generator().manual_seed(SEED)
    return (torch.randint(0, 10, (6, 2), generator=gen),)


def _bfloat16(build: Callable[[], nn.Module],
              inputs: Callable[[], Tuple[Tensor, ...]]) -> Tuple[Callable[[], nn.Module],
                                                                  Callable[[], Tuple[Tensor, ...]]]:
    """A model and its inputs in bfloat16 (weights, buffers and activations)."""
    return (lambda: build().to(torch.bfloat16),
            lambda: tuple(t.to(torch.bfloat16) for t in inputs()))


def _torchvision(arch: str) -> Callable[[], nn.Module]:
    def build() -> nn.Module:
        import torchvision  # only needed for these models
        torch.manual_seed(SEED)
        return getattr(torchvision.models, arch)(weights=None)
    return build


def _detector(arch: str, kwargs: Callable[[], Dict[str, object]]) -> Callable[[], nn.Module]:
    """A torchvision detector, untrained (weights=None, weights_backbone=None): scripted, its
    forward(images: List[Tensor]) returns (losses, detections: List[Dict[str, Tensor]]) and calls
    torchvision::nms (and roi_align, the R-CNNs)."""
    def build() -> nn.Module:
        from torchvision.models import detection  # only needed for these models
        torch.manual_seed(SEED)
        return getattr(detection, arch)(weights=None, weights_backbone=None, **kwargs())
    return build


def _small_fasterrcnn() -> nn.Module:
    """Faster R-CNN's box head shrunk from 1024 features (12.5M parameters) to 32, 3 classes,
    images resized to 64: the same operators and structure, a small file and a fast pass."""
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
    model = _detector("fasterrcnn_mobilenet_v3_large_320_fpn",
                      lambda: {"num_classes": 3, "min_size": 64, "max_size": 64})()
    model.roi_heads.box_head = TwoMLPHead(256 * 7 * 7, 32)
    model.roi_heads.box_predictor = FastRCNNPredictor(32, 3)
    return model


def _images() -> Tuple[List[Tensor]]:
    """One forward argument: a list of two images of different sizes (a detector's input)."""
    gen = torch.Generator().manual_seed(SEED)
    return ([torch.rand(3, 48, 64, generator=gen), torch.rand(3, 40, 40, generator=gen)],)


# name -> (builder, example inputs as a tuple of forward arguments)
MODELS: Dict[str, Tuple[Callable[[], nn.Module], Callable[[], Tuple[Tensor, ...]]]] = {
    "SingleInputNet": (_seeded(SingleInputNet), _randn(2, 1, 28, 28)),
    "LinearModel": (_seeded(LinearModel), _randn(64, 128)),
    "LSTMNet": (_seeded(LSTMNet), _tokens),
    "ContainerModule": (_seeded(ContainerModule), _randn(1, 5)),
    "SimpleRNN": (_seeded(SimpleRNN), _randn(2, 3)),
    "TwoInputNet": (_seeded(TwoInputNet), _inputs(_randn(4, 8), _randn(4, 4))),
    "ReusedModuleNet": (_seeded(ReusedModuleNet), _randn(3, 8)),
    "MultiOutputNet": (_seeded(MultiOutputNet), _randn(4, 10)),
    "MultiOutputDictNet": (_seeded(MultiOutputDictNet), _randn(4, 10)),
    "SeqClassifier": (_seeded(SeqClassifier), _randn(3, 5, 8)),
    "ModuleListNet": (_seeded(ModuleListNet), _randn(4, 6)),
    "TinyConvNet": (_seeded(TinyConvNet), _randn(2, 3, 16, 16)),
    "AliasingNet": (_seeded(AliasingNet), _randn(4, 2, 3)),
    "TransformerEncoderNet": (_seeded(TransformerEncoderNet), _randn(2, 5, 16)),
    "MHAKwargsNet": (_seeded(MHAKwargsNet), _randn(3, 4, 8)),
    "BranchNet": (_seeded(BranchNet), _branch_inputs),
    "NotedCallsNet": (_seeded(NotedCallsNet), _randn(3, 5, 6)),
    "MatmulAttentionNet": (_seeded(MatmulAttentionNet), _randn(2, 5, 16)),
    "ArgsNet": (_seeded(ArgsNet), _randn(5, 3, 8, 8)),
    "CountingNet": (_seeded(CountingNet), _randn(6, 4)),
    "ViTTinyEncoder": (_seeded(ViTTinyEncoder), _randn(8, 64, 192)),
    # quantized models (tests/test_quantized.py): int8 next to the float model they come from
    "TinyLSTMNet": (_seeded(TinyLSTMNet), _small_tokens),
    "TinyLSTMNetInt8": (_dynamic_int8(_seeded(TinyLSTMNet)), _small_tokens),
    "SeqClassifierInt8": (_dynamic_int8(_seeded(SeqClassifier)), _randn(3, 5, 8)),
    "QuantConvNet": (_seeded(QuantConvNet), _randn(2, 3, 8, 8)),
    "QuantConvNetInt8": (_static_int8(_seeded(QuantConvNet), _randn(2, 3, 8, 8)),
                         _randn(2, 3, 8, 8)),
    "TinyConvNetBf16": _bfloat16(_seeded(TinyConvNet), _randn(2, 3, 16, 16)),
}

# Quantized with torch.ao: their scripted state_dict holds packed parameters eager modules do not
# load back, so their eager oracle is built from the same seed instead (tests/test_quantized.py).
QUANTIZED_MODELS: List[str] = ["TinyLSTMNetInt8", "SeqClassifierInt8", "QuantConvNetInt8"]

# Built at test time only (large files, never committed).
TORCHVISION_MODELS: Dict[str, Tuple[Callable[[], nn.Module], Callable[[], Tuple[Tensor, ...]]]] = {
    "resnet18": (_torchvision("resnet18"), _randn(1, 3, 64, 64)),
    "mobilenet_v2": (_torchvision("mobilenet_v2"), _randn(1, 3, 64, 64)),
    "densenet121": (_torchvision("densenet121"), _randn(1, 3, 64, 64)),
    "resnet50": (_torchvision("resnet50"), _randn(2, 3, 224, 224)),
    # attention models: nn.MultiheadAttention in encoder blocks; shifted-window attention
    "vit_b_16": (_torchvision("vit_b_16"), _randn(1, 3, 224, 224)),
    "swin_t": (_torchvision("swin_t"), _randn(1, 3, 64, 64)),
    # detectors: forward(images: List[Tensor]), torchvision's operator library
    "fasterrcnn_mobilenet_v3_large_320_fpn": (
        _small_fasterrcnn, _images),
    "ssdlite320_mobilenet_v3_large": (
        _detector("ssdlite320_mobilenet_v3_large", lambda: {"num_classes": 3}), _images),
}

# torch.export only (they do not script), made at test time (tests/test_pt2_hop.py).
EXPORT_MODELS: Dict[str, Tuple[Callable[[], nn.Module], Callable[[], Tuple[Tensor, ...]]]] = {
    "NoGradBlockNet": (_seeded(NoGradBlockNet), _randn(3, 4)),
    "NestedNoGradNet": (_seeded(NestedNoGradNet), _randn(3, 4)),
    "AutocastBlockNet": (_seeded(AutocastBlockNet), _randn(3, 4)),
    "CondNet": (_seeded(CondNet), _randn(3, 4)),
    "WhileLoopNet": (_seeded(WhileLoopNet), _randn(3, 4)),
    "MapNet": (_seeded(MapNet), _randn(2, 3, 4)),
    "ReparametrizedNet": (_seeded(ReparametrizedNet), _randn(2, 4, 10)),
    "SharedModuleNet": (_seeded(SharedModuleNet), _randn(3, 4)),
    **{arch: (_hf_decoder(arch), _tokens_of(1, 8)) for arch in ("Llama", "Mistral", "Gemma",
                                                                "GPTNeoX")},
    "T5": (_seeded(HFSeq2Seq), _tokens_of(1, 5)),
    "KeywordCallsNet": (_seeded(KeywordCallsNet), _randn(2, 4)),
    "StaticCacheLlama": (_static_cache_llama, _tokens_of(1, 4)),
    "WeightNormNet": (_seeded(WeightNormNet), _randn(2, 8, 10)),
    # tests/test_ecosystem.py: transformers' MoE custom operator, roots called with keyword
    # inputs only (EXAMPLE_KWARGS), a tensor returned at several places
    "QwenMoE": (_seeded(HFMoE), _tokens_of(1, 6)),
    "CLIP": (_hf_clip, lambda: ()),
    "Whisper": (_hf_whisper, lambda: ()),
    "DiffusersUNet": (_diffusers_unet, lambda: ()),
    "DiffusersVAE": (_diffusers_vae, lambda: ()),
    "RepeatedOutputNet": (_seeded(RepeatedOutputNet), _randn(3, 4)),
    # timm's ViT: Identity chains (q_norm, k_norm, ls1, drop_path1, ...) on values no other call
    # takes; ConvNeXt: an Identity per block and a head of containers
    "TimmViT": (_timm("vit_tiny_patch16_224", img_size=32, patch_size=8, embed_dim=32, depth=2,
                      num_heads=2), _randn(2, 3, 32, 32)),
    "TimmConvNeXt": (_timm("convnext_atto", depths=(1, 1, 2, 1), dims=(8, 16, 24, 32)),
                     _randn(2, 3, 32, 32)),
    # EfficientNet (squeeze-excitation, Identity-heavy BatchNormAct), RegNet, MobileViT
    # (convolutions around transformer blocks): timm's other families, at their smallest
    "TimmEfficientNet": (_timm("efficientnet_b0"), _randn(1, 3, 32, 32)),
    "TimmRegNet": (_timm("regnetx_002"), _randn(1, 3, 32, 32)),
    "TimmMobileViT": (_timm("mobilevit_xxs"), _randn(1, 3, 64, 64)),
}

# Models whose one forward argument is a list of tensors: an input file holding a list is that
# argument whole (modrec binds it to forward's List[Tensor]), not one argument per item.
LIST_INPUT_MODELS: List[str] = ["fasterrcnn_mobilenet_v3_large_320_fpn",
                                "ssdlite320_mobilenet_v3_large"]

# Keyword arguments a model's forward needs besides its example inputs (ArgsNet's required size,
# the static-cache recipe's cache_position).
EXAMPLE_KWARGS: Dict[str, Dict[str, object]] = {
    "ArgsNet": {"size": [2, 2]},
    "StaticCacheLlama": {"cache_position": torch.arange(4)},
    # each input alone under 0.005 MB, together over: "Input size (MB)" 0.01 counts them all;
    # input_ids and attention_mask, as a processor gives them, of one shape: which root input is
    # which, the archive's root signature tells
    "CLIP": {"input_ids": _tokens_of(2, 128)()[0],
             "attention_mask": torch.ones(2, 128, dtype=torch.long),
             "pixel_values": _randn(2, 3, 12, 12)()[0]},
    "Whisper": {"input_features": _randn(1, 8, 16)()[0],
                "decoder_input_ids": _tokens_of(1, 4)()[0]},
    "DiffusersUNet": {"sample": _randn(1, 4, 8, 8)()[0], "timestep": torch.tensor([10]),
                      "encoder_hidden_states": _randn(1, 3, 8)()[0]},
    "DiffusersVAE": {"sample": _randn(1, 3, 16, 16)()[0]},
}

# Extra named inputs written next to a model's default one: <name>.<tag>.input.pt
EXTRA_INPUTS: Dict[str, Dict[str, Callable[[], Tuple[Tensor, ...]]]] = {
    "ContainerModule": {"vec5": _randn(5)},
    "SingleInputNet": {"batch7": _randn(7, 1, 28, 28)},
}

# Too large to commit (LSTMNet is ~15 MB): generated into a build dir.
LARGE_MODELS: List[str] = ["LSTMNet"]

# Small, but made at test time only (tests/test_attention.py, tests/test_graph.py,
# tests/test_flops.py, tests/test_quantized.py), never committed to samples/.
TEST_TIME_MODELS: List[str] = ["TransformerEncoderNet", "MHAKwargsNet", "BranchNet", "NotedCallsNet",
                               "MatmulAttentionNet", "ArgsNet", "CountingNet", "ViTTinyEncoder",
                               "TinyLSTMNet", "TinyLSTMNetInt8", "SeqClassifierInt8",
                               "QuantConvNet", "QuantConvNetInt8", "TinyConvNetBf16"]


def all_models() -> Dict[str, Tuple[Callable[[], nn.Module], Callable[[], Tuple[Tensor, ...]]]]:
    from zoo_models import ZOO_MODELS  # scripts/pt2_zoo.py's, beside this file
    return {**MODELS, **TORCHVISION_MODELS, **EXPORT_MODELS, **ZOO_MODELS}


def build(name: str) -> nn.Module:
    """The eager model `name`, deterministic weights, in eval mode."""
    registry = all_models()
    if name not in registry:
        raise KeyError(f"unknown model {name!r}; known: {', '.join(registry)}")
    return registry[name][0]().eval()


def example_inputs(name: str) -> Tuple[Tensor, ...]:
    return all_models()[name][1]()


def example_kwargs(name: str) -> Dict[str, object]:
    return dict(EXAMPLE_KWARGS.get(name, {}))
