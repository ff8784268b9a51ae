"""Shared helpers of the end-to-end tests: run the built modrec binary, find or make models."""
import fcntl
import json
import os
import pty
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("MODREC_BUILD_DIR", os.path.join(ROOT, "build"))
MODREC = os.path.abspath(os.environ.get("MODREC_BIN", os.path.join(BUILD, "modrec")))
SAMPLES = os.path.join(ROOT, "samples")
MODELS = os.path.join(BUILD, "models")  # generated, not committed
PYTHON = os.environ.get("MODREC_PYTHON", sys.executable)  # the oracle: ctest runs us with it


def run(*args, code=0, env=None, stdin=None):
    """Runs modrec; asserts the exit code; returns (stdout, stderr)."""
    full_env = dict(os.environ, **(env or {}))
    p = subprocess.run([MODREC, *map(str, args)], capture_output=True, text=True, env=full_env,
                       stdin=stdin or subprocess.DEVNULL)
    if code is not None and p.returncode != code:
        raise AssertionError(f"modrec {' '.join(map(str, args))}: exit {p.returncode}, "
                             f"expected {code}\nstdout:\n{p.stdout[-3000:]}\nstderr:\n{p.stderr[-3000:]}")
    return p.stdout, p.stderr


def stderr_on_a_terminal(*args):
    """Runs modrec with stderr on a pseudo-terminal (stdout discarded); returns (exit code, what
    the terminal got)."""
    leader, follower = pty.openpty()
    p = subprocess.Popen([MODREC, *map(str, args)], stdout=subprocess.DEVNULL, stderr=follower,
                         stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    return p.wait(), b"".join(chunks).decode()


def sample(name, kind="pt"):
    """samples/<name>.pt, or (for big models) one generated once into the build dir."""
    path = os.path.join(SAMPLES, f"{name}.{kind}")
    if os.path.exists(path):
        return path
    os.makedirs(MODELS, exist_ok=True)
    path = os.path.join(MODELS, f"{name}.{kind}")
    with open(os.path.join(MODELS, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # ctest runs tests in parallel
        if not os.path.exists(path):
            subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "make_samples.py"), "--out", MODELS,
                            "--only", name.split(".")[0], "--torchvision", "--large"], check=True,
                           capture_output=True)
    return path


def in_this_process():
    """Whether this process is the oracle's Python, which then runs the oracle scripts itself: a
    new process would import torch again, seconds per call, most of the suite's time."""
    return os.path.realpath(PYTHON) == os.path.realpath(sys.executable)


def script_module(script):
    """scripts/<script>.py, imported."""
    if os.path.join(ROOT, "scripts") not in sys.path:
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import importlib
    return importlib.import_module(script)


def run_script(script, *args):
    """Runs scripts/<script>.py's main with these arguments, in this process when it is the
    oracle's Python, else as a process of it."""
    argv = [str(a) for a in args]
    if in_this_process():
        script_module(script).main(argv)
    else:
        subprocess.run([PYTHON, os.path.join(ROOT, "scripts", script + ".py"), *argv], check=True,
                       capture_output=True)


def torchinfo_table(*args):
    """What `scripts/torchinfo_table.py ARGS` prints: torchinfo 1.8's table of an eager model."""
    argv = [str(a) for a in args]
    if in_this_process():
        return script_module("torchinfo_table").table(argv) + "\n"
    return subprocess.run([PYTHON, os.path.join(ROOT, "scripts", "torchinfo_table.py"), *argv],
                          check=True, capture_output=True, text=True).stdout


def oracle(*args):
    """Runs scripts/oracle.py and returns its JSON (summary) or output directory (record)."""
    out = tempfile.mkdtemp(prefix="oracle-")
    target = os.path.join(out, "result.json") if args[0] == "summary" else os.path.join(out, "rec")
    run_script("oracle", *args, "--out", target)
    if args[0] == "summary":
        with open(target) as f:
            return json.load(f)
    return target


def main():
    unittest.main(argv=[sys.argv[0], "-v"])


def tensor_file(shape, dtype="float32", high=None, seed=0):
    """A torch.save'd random tensor (normal, or integers in [0, high)), made once in the build dir."""
    os.makedirs(MODELS, exist_ok=True)
    name = "x_" + "x".join(map(str, shape)) + f"_{dtype}_{high}_{seed}.pt"
    path = os.path.join(MODELS, name)
    if not os.path.exists(path):
        code = ("import torch,sys; torch.manual_seed(%d); s=%r; "
                "t = torch.randint(0, %r, s) if %r else torch.randn(s, dtype=getattr(torch, %r)); "
                "torch.save(t, sys.argv[1] + '.tmp')") % (seed, list(shape), high, high is not None, dtype)
        subprocess.run([PYTHON, "-c", code, path], check=True)
        os.replace(path + ".tmp", path)
    return path
