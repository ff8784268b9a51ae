"""modrec installed as a user installs it: the wheel scripts/wheel.sh builds against the pinned
torch, installed by pip into a new virtual environment that holds that torch, and run from a
folder outside the clone: `modrec --version`, `summary` equal to torchinfo on the eager model,
`record` equal to eager PyTorch's hooks. Also what the wheel says of itself (its manylinux tag,
the torch it needs), what the binary links, and the launcher's refusals.

The new environment reuses the pinned environment's packages (each linked into its
site-packages), so nothing is downloaded."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import venv
import zipfile

import torch

from e2e import PYTHON, ROOT, SAMPLES, oracle, main

# The torch the wheel is built against: the oracle's (the pinned 2.14.1 in CI; the test also runs
# with MODREC_PYTHON naming another environment, e.g. torch 2.15's).
TORCH = torch.__version__.split("+")[0]
TORCH_MINOR = ".".join(TORCH.split(".")[:2])
OTHER_MINOR = f"2.{int(TORCH_MINOR.split('.')[1]) + 1}.0"
MODEL = os.path.join(SAMPLES, "TinyConvNet.pt")
INPUT = os.path.join(SAMPLES, "TinyConvNet.input.pt")
COLUMNS = "input_size,output_size,num_params,mult_adds"
# The libraries the installed binary may need: the C/C++ runtime, and torch's own (torch/lib).
RUNTIME = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2",
           "libpthread.so.0", "libdl.so.2", "librt.so.1"}
TORCH_OWN = {"libtorch.so", "libtorch_cpu.so", "libc10.so", "libgomp.so.1"}


def pinned_site_packages():
    out = subprocess.run([PYTHON, "-c", "import site; print(site.getsitepackages()[0])"],
                         check=True, capture_output=True, text=True).stdout
    return out.strip()


def make_env(path, packages, linked=lambda name: True, extra_path=None):
    """A new virtual environment holding the entries of `packages` (the pinned environment's
    site-packages) that `linked` accepts, each linked into its own site-packages: with all of
    them, torch lies beside modrec, as `pip install torch` leaves it (pip comes from there too);
    `extra_path`: a folder its Python finds through a .pth file (torch installed elsewhere)."""
    venv.create(path, symlinks=True)
    python = os.path.join(path, "bin", "python")
    own = subprocess.run([python, "-c", "import site; print(site.getsitepackages()[0])"],
                         check=True, capture_output=True, text=True).stdout.strip()
    for name in os.listdir(packages):
        if linked(name) and not name.startswith(("modrec", "__pycache__")):
            os.symlink(os.path.join(packages, name), os.path.join(own, name))
    if extra_path:
        with open(os.path.join(own, "elsewhere.pth"), "w") as f:
            f.write(extra_path + "\n")
    return python, own


def pip_only(name):
    return name.startswith("pip")


def ci_commands(name):
    """The shell commands of a CI recipe in docs/examples, in order: GitHub Actions' `run: |`
    blocks, or the items of GitLab CI's `script:` list."""
    with open(os.path.join(ROOT, "docs", "examples", name)) as f:
        lines = f.read().splitlines()
    commands, in_script = [], False
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if line.strip() == "run: |":
            for body in lines[i + 1:]:
                if body.strip() and len(body) - len(body.lstrip()) <= indent:
                    break
                commands.append(body.strip())
        elif line.strip() == "script:":
            in_script = True
        elif in_script and line.strip().startswith("- "):
            commands.append(line.strip()[2:])
        else:
            in_script = False
    return [c for c in commands if c]


def pip_install(python, wheel, *flags):
    start = time.monotonic()
    subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    "--no-index", *flags, wheel], check=True, capture_output=True)
    return time.monotonic() - start


class InstalledWheel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="wheel-")
        build = subprocess.run(["bash", os.path.join(ROOT, "scripts", "wheel.sh"), "--python", PYTHON,
                                "--out", os.path.join(cls.work, "dist")],
                               capture_output=True, text=True)
        assert build.returncode == 0, build.stderr[-4000:]
        cls.wheel = build.stdout.strip().splitlines()[-1]
        cls.packages = pinned_site_packages()
        cls.python, cls.site = make_env(os.path.join(cls.work, "user-env"), cls.packages)
        cls.install_seconds = pip_install(cls.python, cls.wheel)
        cls.modrec = os.path.join(os.path.dirname(cls.python), "modrec")
        cls.binary = os.path.join(cls.site, "modrec", "bin", "modrec")
        cls.outside = tempfile.mkdtemp(prefix="elsewhere-")  # not the clone: no samples/, no build/

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)
        shutil.rmtree(cls.outside, ignore_errors=True)

    def modrec_run(self, *args, command=None, code=0, env=None):
        p = subprocess.run([command or self.modrec, *map(str, args)], cwd=self.outside,
                           capture_output=True, text=True, env=env or self.clean_env())
        self.assertEqual(p.returncode, code, (args, p.stdout[-2000:], p.stderr[-2000:]))
        return p

    @staticmethod
    def clean_env():
        return {k: v for k, v in os.environ.items()
                if k not in ("LD_LIBRARY_PATH", "MODREC_MODEL", "MODREC_BIN")}

    def test_wheel_is_manylinux_and_needs_this_torch_minor(self):
        name = os.path.basename(self.wheel)
        self.assertRegex(name, r"^modrec-[0-9.]+-py3-none-manylinux_2_\d+_x86_64\.whl$")
        with zipfile.ZipFile(self.wheel) as z:
            meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA")))
        self.assertIn(f"Requires-Dist: torch=={TORCH_MINOR}.*", meta.decode())

    def test_installs_in_under_a_minute(self):
        self.assertLess(self.install_seconds, 60)

    def test_binary_needs_only_the_runtime_and_torch(self):
        dynamic = subprocess.run(["readelf", "-d", self.binary], check=True, capture_output=True,
                                 text=True).stdout
        needed = {l.split("[")[1].rstrip("]") for l in dynamic.splitlines() if "(NEEDED)" in l}
        self.assertTrue(needed <= RUNTIME | TORCH_OWN, needed - RUNTIME - TORCH_OWN)
        self.assertIn("$ORIGIN/../../torch/lib", dynamic)
        # Every library the loader finds for it (torch's CUDA libraries included) resolves, and
        # torch's come from the torch beside it, not from a build or a system folder.
        ldd = subprocess.run(["ldd", self.binary], check=True, capture_output=True, text=True,
                             env=self.clean_env()).stdout
        self.assertNotIn("not found", ldd)
        torch_lib = os.path.realpath(os.path.join(self.packages, "torch", "lib"))
        for line in ldd.splitlines():
            name = line.split()[0]
            if name in TORCH_OWN:
                path = line.split("=>")[1].split("(")[0].strip()
                self.assertEqual(os.path.dirname(os.path.realpath(path)), torch_lib, line)

    def test_version_names_modrec_libtorch_and_cuda(self):
        out = self.modrec_run("--version").stdout
        self.assertRegex(out, rf"^modrec [0-9.]+ \(LibTorch {TORCH}, CUDA[0-9. ]*: .+\)\n$")
        # The binary runs by itself too: its RPATH finds LibTorch, with no LD_LIBRARY_PATH.
        self.assertEqual(self.modrec_run("--version", command=self.binary).stdout, out)

    def test_man_page_and_completions_beside_the_command(self):
        prefix = os.path.dirname(os.path.dirname(self.python))  # the environment
        env = dict(self.clean_env(), PATH=os.path.dirname(self.python) + ":" + os.environ["PATH"],
                   MANWIDTH="100")
        env.pop("MANPATH", None)
        found = subprocess.run(["man", "-w", "modrec"], env=env, capture_output=True, text=True)
        self.assertEqual(found.returncode, 0, found.stderr)  # man finds it for <prefix>/bin
        self.assertEqual(os.path.realpath(found.stdout.strip()),
                         os.path.realpath(os.path.join(prefix, "share", "man", "man1", "modrec.1")))
        page = subprocess.run(["man", "modrec"], env=env, capture_output=True, text=True, check=True)
        self.assertIn("modrec summary [OPTIONS]", page.stdout)
        for shell, path in (("bash", "bash-completion/completions/modrec"),
                            ("zsh", "zsh/site-functions/_modrec"),
                            ("fish", "fish/vendor_completions.d/modrec.fish")):
            with open(os.path.join(prefix, "share", path)) as f:
                self.assertEqual(f.read(), self.modrec_run("completion", shell).stdout, shell)

    def test_summary_equals_torchinfo(self):
        shutil.copy(MODEL, self.outside)
        shutil.copy(INPUT, self.outside)
        got = self.modrec_run("summary", "TinyConvNet.pt", "--input", "TinyConvNet.input.pt",
                              "--columns", COLUMNS).stdout
        want = subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "torchinfo_table.py"),
                               "TinyConvNet", "--weights", MODEL, "--input", INPUT,
                               "--columns", COLUMNS], check=True, capture_output=True,
                              text=True).stdout
        self.assertEqual(got, want)

    def test_record_equals_eager_hooks(self):
        out = os.path.join(self.outside, "run")
        self.modrec_run("record", MODEL, "--input", INPUT, "--layers", "all", "--out", out)
        ref = oracle("record", "TinyConvNet", "--weights", MODEL, "--input", INPUT, "--labels", "all")
        with open(os.path.join(out, "manifest.json")) as f:
            manifest = json.load(f)
        self.assertGreater(len(manifest["layers"]), 3)
        for layer in manifest["layers"]:
            for capture in ("output", "grad_output"):
                got = torch.load(os.path.join(out, "tensors", layer["label"], capture + ".pt"))
                want = torch.load(os.path.join(ref, layer["label"], capture + ".pt"))
                got, want = (v[0] if isinstance(v, (tuple, list)) else v for v in (got, want))
                self.assertTrue(torch.allclose(got, want, rtol=1e-5, atol=1e-6),
                                (layer["label"], capture))

    def test_an_executorch_program_runs_through_the_installed_shim(self):
        # The wheel carries the shim beside the binary; its runtime comes from the executorch
        # installed beside torch (this environment's: linked from the pinned one).
        script = (
            "import torch; from executorch.exir import to_edge_transform_and_lower; "
            "from executorch.runtime import Runtime; torch.manual_seed(0); "
            "m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU()).eval(); "
            "x = torch.randn(2, 3); torch.save(x, 'x.pt'); "
            "low = to_edge_transform_and_lower(torch.export.export(m, (x,)), "
            "generate_etrecord=True).to_executorch(); open('m.pte', 'wb').write(low.buffer); "
            "low.get_etrecord().save('m.etrecord'); "
            "out = Runtime.get().load_program('m.pte').load_method('forward').execute([x])[0]; "
            "torch.save({'out': out, '0': m[0](x), '1': m(x)}, 'want.pt')")
        subprocess.run([self.python, "-c", script], cwd=self.outside, env=self.clean_env(),
                       check=True, capture_output=True, text=True)
        out = os.path.join(self.outside, "et-run")
        self.modrec_run("record", "m.pte", "--etrecord", "m.etrecord", "--input", "x.pt",
                        "--layers", "all", "--no-backward", "--out", out)
        want = torch.load(os.path.join(self.outside, "want.pt"))
        self.assertTrue(torch.equal(torch.load(os.path.join(out, "tensors", "0-1", "output.pt")),
                                    want["out"]))
        with open(os.path.join(out, "manifest.json")) as f:
            layers = json.load(f)["layers"]
        self.assertEqual([l["path"] for l in layers], ["", "0", "1"])
        for layer in layers[1:]:
            got = torch.load(os.path.join(out, "tensors", layer["label"], "output.pt"))
            torch.testing.assert_close(got, want[layer["path"]].detach(), rtol=1e-5, atol=1e-6)

    def test_modrec_export_writes_what_the_installed_binary_reads(self):
        # `import modrec` leaves torch alone; modrec.export's archive gives the Identity's row.
        script = ("import sys, modrec; assert 'torch' not in sys.modules; import torch, torchinfo; "
                  "m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Identity()).eval(); "
                  "x = torch.randn(2, 3); torch.save(x, 'x.pt'); modrec.export(m, (x,), 'm.pt2'); "
                  "print(torchinfo.summary(m, input_data=x, verbose=0))")
        want = subprocess.run([self.python, "-c", script], cwd=self.outside, env=self.clean_env(),
                              check=True, capture_output=True, text=True).stdout
        got = self.modrec_run("summary", "m.pt2", "--input", "x.pt")
        # torchinfo's unit as its reference outputs write it (scripts/torchinfo_table.py)
        self.assertEqual(got.stdout, want.replace("(Units.MEGABYTES)", "(M)"))
        self.assertEqual(got.stderr, "")
        # The Python API runs the installed binary (no MODREC_BIN here): the same table.
        api = subprocess.run([self.python, "-c", "import modrec; print(modrec.summary('m.pt2', "
                              "'x.pt'), end='')"], cwd=self.outside, env=self.clean_env(),
                             check=True, capture_output=True, text=True)
        self.assertEqual(api.stdout, got.stdout)

    def test_ci_recipes_run_as_written(self):
        """docs/examples' GitHub Actions and GitLab CI jobs: their commands, in a new environment
        that holds torch, install the wheel and gate on the model: exit 0 on the sample, the job
        fails on an input that makes a NaN."""
        nan_input = os.path.join(self.work, "nan-input.pt")
        torch.save(torch.full_like(torch.load(INPUT), float("nan")), nan_input)
        for recipe in ("github-actions-modrec.yml", "gitlab-ci-modrec.yml"):
            commands = ci_commands(recipe)
            self.assertTrue(any(c.startswith("modrec check") for c in commands), commands)
            python, _ = make_env(os.path.join(self.work, "ci-" + recipe), self.packages)
            commands = [c.replace("torch==2.14.*", f"torch=={TORCH_MINOR}.*") for c in commands]
            for model_input, code in ((INPUT, 0), (nan_input, 1)):
                job = tempfile.mkdtemp(prefix="ci-job-", dir=self.work)
                os.makedirs(os.path.join(job, "models"))
                shutil.copy(MODEL, os.path.join(job, "models", "model.pt"))
                shutil.copy(model_input, os.path.join(job, "models", "example-input.pt"))
                summary = os.path.join(job, "step-summary.md")
                env = dict(self.clean_env(), PIP_NO_INDEX="1", MODREC_WHEEL=self.wheel,
                           MODREC_MODEL="models/model.pt", MODREC_INPUT="models/example-input.pt",
                           GITHUB_STEP_SUMMARY=summary,
                           PATH=os.path.dirname(python) + os.pathsep + os.environ["PATH"])
                p = subprocess.run(["bash", "-eo", "pipefail", "-c", "\n".join(commands)], cwd=job,
                                   env=env, capture_output=True, text=True)
                self.assertEqual(p.returncode, code, (recipe, model_input, p.stdout, p.stderr))
                report = p.stdout
                if os.path.exists(summary):
                    with open(summary) as f:
                        report = f.read()
                self.assertIn("modrec check passed" if code == 0 else "| no-nan |", report,
                              (recipe, report))

    def test_torch_installed_elsewhere(self):
        """A modrec installed apart from torch (a --user install beside a system torch): the
        command hands torch's folder to the loader."""
        python, _ = make_env(os.path.join(self.work, "apart-env"), self.packages, pip_only,
                             extra_path=self.packages)
        pip_install(python, self.wheel)
        out = self.modrec_run("--version", command=os.path.join(os.path.dirname(python), "modrec"))
        self.assertIn(f"LibTorch {TORCH}", out.stdout)

    def test_without_torch_or_with_another_minor_one_line_and_exit_6(self):
        python, own = make_env(os.path.join(self.work, "bare-env"), self.packages, pip_only)
        pip_install(python, self.wheel, "--no-deps")
        command = os.path.join(os.path.dirname(python), "modrec")
        p = self.modrec_run("--version", command=command, code=6)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertRegex(p.stderr, rf"^modrec: error: torch is not installed in this Python; modrec "
                                   rf"[0-9.]+ needs torch {TORCH_MINOR} \(.*\): pip install "
                                   rf"'torch=={TORCH_MINOR}\.\*'")
        # A torch of another minor release (its metadata is all the check reads).
        os.makedirs(os.path.join(own, "torch"))
        open(os.path.join(own, "torch", "__init__.py"), "w").close()
        info = os.path.join(own, f"torch-{OTHER_MINOR}.dist-info")
        os.makedirs(info)
        with open(os.path.join(info, "METADATA"), "w") as f:
            f.write(f"Metadata-Version: 2.1\nName: torch\nVersion: {OTHER_MINOR}\n")
        p = self.modrec_run("summary", MODEL, command=command, code=6)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertIn(f"was built for torch {TORCH_MINOR} and this Python has torch {OTHER_MINOR}",
                      p.stderr)


if __name__ == "__main__":
    main()
