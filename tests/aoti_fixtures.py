"""What the AOTInductor tests share (test_pt2e.py, test_aoti_trust.py): a small MLP compiled into
a package on the CPU (once per test class: ~35 s on 2 cores), and zip copies edited entry by
entry."""
import os
import zipfile

import torch


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def compile_mlp(cls, folder, rows):
    """Sets on `cls` the eager MLP (seed 0), its input x of `rows` rows (saved as x_file), its
    exported program and the package aoti_compile_and_package makes of it, files in `folder`."""
    torch.manual_seed(0)
    cls.model = MLP().eval()
    cls.x = torch.randn(rows, 4)
    cls.x_file = os.path.join(folder, "mlp_x.pt")
    torch.save(cls.x, cls.x_file)
    cls.exported = torch.export.export(cls.model, (cls.x,))
    cls.package = torch._inductor.aoti_compile_and_package(
        cls.exported, package_path=os.path.join(folder, "mlp_package.pt2"))


def rezipped(src, dst, edit, extra=()):
    """A copy of the zip `src`, each entry as edit(info, data) says (None: left out), then
    `extra` entries (ZipInfo, data)."""
    with zipfile.ZipFile(src) as z:
        entries = [(i, z.read(i)) for i in z.infolist()]
    with zipfile.ZipFile(dst, "w") as out:
        for info, data in entries:
            data = edit(info, data)
            if data is not None:
                out.writestr(info, data)
        for info, data in extra:
            out.writestr(info, data)
    return dst
