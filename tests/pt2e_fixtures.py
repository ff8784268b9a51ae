"""What the tests of quantized and lowered programs share (test_pt2e.py, test_pte_trust.py,
test_torchao.py, fuzz/make_pte_seeds.py): the small convolutional Net they quantize and lower,
and the eager forward hooks they compare each call's output with."""
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.relu = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(8, 16, 3, padding=1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        return self.fc(self.pool(x).flatten(1))


def hooked_outputs(module, x):
    """{module path: [output per call]}, and the paths in the order calls return, from forward
    hooks on `module` run eagerly."""
    outputs, order, handles = {}, [], []
    for name, m in module.named_modules():
        def hook(_, __, out, name=name):
            outputs.setdefault(name, []).append(out.detach())
            order.append(name)
        handles.append(m.register_forward_hook(hook))
    with torch.no_grad():
        module(x)
    for h in handles:
        h.remove()
    return outputs, order
