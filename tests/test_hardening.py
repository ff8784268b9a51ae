"""Bad input to every subcommand gets one line on stderr and a documented exit code, never an
"internal error", a hang, unbounded memory or a change to any input:
- inputs that are no regular file (a device that never ends, a FIFO that never opens) are refused
  at once, whichever flag names them: MODEL, --input, --targets, --grad, --edit replace:FILE, a
  recording's files;
- an output equal to, inside or around one of the command's inputs is refused, --force or not,
  and the input is left as it was;
- every numeric flag refuses values out of its range (0, -1, NaN, ...), naming flag and range;
- a property test: every flag of every subcommand (read from its --help) given boundary and
  nonsense values."""
import concurrent.futures
import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

from e2e import MODREC, SAMPLES, main, run

MODEL = os.path.join(SAMPLES, "TinyConvNet.pt")
INPUT = os.path.join(SAMPLES, "TinyConvNet.input.pt")
DOCUMENTED = {0, 1, 2, 3, 4, 5}
LIMIT_S = 60  # a hang (a FIFO read, an endless device) ends the test here


def modrec(*args, cwd=None):
    return subprocess.run([MODREC, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=LIMIT_S)


def tree_state(root, skip=()):
    """Every file under `root` (not below `skip`) with its size and content hash."""
    state = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in skip]
        for name in files:
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isfile(path):
                state[path] = "special"
                continue
            with open(path, "rb") as f:
                state[path] = hashlib.sha256(f.read()).hexdigest()
    return state


class Workspace:
    """A folder holding a model, its input and a recording of it: what the commands read."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="hardening-")
        self.model = self.copy(MODEL, "model.pt")
        self.input = self.copy(INPUT, "input.pt")
        self.run = os.path.join(self.dir, "run")
        run("record", self.model, "--input", self.input, "--layers", "all", "--out", self.run)
        self.fifo = os.path.join(self.dir, "fifo.pt")
        os.mkfifo(self.fifo)
        # A character device like /dev/zero, of the workspace's own: were a command to write over
        # it, the machine's /dev/zero would be safe (making one needs root; else /dev/zero).
        self.device = os.path.join(self.dir, "zero")
        try:
            os.mknod(self.device, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
        except PermissionError:
            self.device = "/dev/zero"

    def copy(self, source, name):
        path = os.path.join(self.dir, name)
        shutil.copy(source, path)
        return path

    def out(self, name="out"):
        return os.path.join(self.dir, name)


class HardeningCase(unittest.TestCase):
    def setUp(self):
        self.ws = Workspace()
        self.addCleanup(shutil.rmtree, self.ws.dir, True)

    def assert_refused(self, p, code, *words):
        self.assertEqual(p.returncode, code, (p.args, p.stdout[-500:], p.stderr))
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertNotIn("internal error", p.stderr)
        for word in words:
            self.assertIn(word, lines[0])


class InputsThatNeverEnd(HardeningCase):
    def test_devices_and_fifos_wherever_a_file_is_read(self):
        ws = self.ws
        for special in ("/dev/zero", ws.fifo):
            kind = "character device" if special == "/dev/zero" else "FIFO"
            for args in (
                ("summary", special),
                ("summary", ws.model, "--input", special),
                ("record", ws.model, "--input", special, "--layers", "all", "--out", ws.out()),
                ("record", ws.model, "--input", ws.input, "--layers", "all", "--grad", special,
                 "--out", ws.out()),
                ("record", ws.model, "--input", ws.input, "--layers", "all", "--when", "target:1",
                 "--targets", special, "--out", ws.out()),
                ("record", ws.model, "--input", ws.input, "--layers", "all", "--edit",
                 f"2-1=replace:{special}", "--out", ws.out()),
                ("watch", ws.model, "--input", ws.input, "--loss", "cross_entropy", "--targets",
                 special, "--out", ws.out()),
                ("check", ws.model, "--input", special),
                ("graph", ws.model, "--input", special),
            ):
                with self.subTest(args=args):
                    self.assert_refused(modrec(*args), 3, kind, special)
                    self.assertFalse(os.path.exists(ws.out()))

    def test_a_recording_whose_files_are_fifos(self):
        ws = self.ws
        os.remove(os.path.join(ws.run, "stats.json"))
        os.mkfifo(os.path.join(ws.run, "stats.json"))
        for args in (("check", ws.run), ("diff", ws.run, ws.run),
                     ("report", ws.run, "--out", ws.out("r.html"))):
            with self.subTest(args=args):
                self.assert_refused(modrec(*args), 3, "FIFO", "stats.json")


class OutputsOverInputs(HardeningCase):
    def test_no_command_writes_over_into_or_around_its_inputs(self):
        ws = self.ws
        inputs_dir = os.path.join(ws.dir, "inputs")
        os.makedirs(inputs_dir)
        shutil.copy(ws.input, inputs_dir)
        before = tree_state(ws.dir)
        for args, named in (
            (("merge", ws.run, "--out", ws.run, "--force"), ws.run),
            (("merge", ws.run, "--out", os.path.join(ws.run, "merged")), ws.run),
            (("record", ws.model, "--input", ws.input, "--layers", "all", "--out", ws.dir,
              "--force"), ws.dir),
            (("record", ws.model, "--input", inputs_dir, "--layers", "all", "--out",
              os.path.join(inputs_dir, "run")), inputs_dir),
            (("record", ws.model, "--input", ws.input, "--layers", "all", "--out", ws.model,
              "--force"), ws.model),
            (("watch", ws.model, "--input", ws.input, "--loss", "sum", "--out", ws.out(),
              "--save-model", ws.model), ws.model),
            (("report", ws.run, "--out", os.path.join(ws.run, "report.html")), ws.run),
        ):
            with self.subTest(args=args):
                self.assert_refused(modrec(*args), 2, named)
                self.assertEqual(tree_state(ws.dir), before)


# (subcommand, flag, values refused); the line names the flag and its range.
OUT_OF_RANGE = [
    ("record", "--batch-size", ["0", "-1", "nan", "x"]),
    ("check", "--batch-size", ["0"]),
    ("watch", "--batch-size", ["0"]),
    ("watch", "--steps", ["0", "-3"]),
    ("watch", "--every", ["0"]),
    ("watch", "--lr", ["-1", "nan", "inf"]),
    ("watch", "--momentum", ["-0.5", "1.5", "nan"]),
    ("watch", "--weight-decay", ["-1", "nan"]),
    ("summary", "--depth", ["-1", "1001"]),
    ("summary", "--col-width", ["0", "-5"]),
    ("summary", "--high", ["0", "-1"]),
    ("summary", "--seed", ["-1", "x"]),
    ("graph", "--depth", ["-1"]),
    ("check", "--max-abs", ["-1", "nan"]),
    ("check", "--min-std", ["nan"]),
    ("check", "--max-zero-fraction", ["1.5", "-0.1", "nan"]),
    ("diff", "--atol", ["-1", "nan"]),
    ("diff", "--rtol", ["-1e-3", "nan"]),
    ("summary", "--threads", ["0", "-1", "100000"]),
]


class NumbersOutOfRange(HardeningCase):
    def base(self, command):
        ws = self.ws
        return {"summary": ("summary", ws.model, "--input", ws.input),
                "graph": ("graph", ws.model, "--input", ws.input),
                "record": ("record", ws.model, "--input", ws.input, "--layers", "all", "--out",
                           ws.out()),
                "check": ("check", ws.model, "--input", ws.input),
                "diff": ("diff", ws.run, ws.run),
                "watch": ("watch", ws.model, "--input", ws.input, "--loss", "sum", "--out",
                          ws.out())}[command]

    def test_every_numeric_flag_refuses_values_outside_its_range(self):
        for command, flag, values in OUT_OF_RANGE:
            help_text = modrec(command, "--help").stdout + modrec("--help").stdout
            self.assertRegex(help_text, re.escape(flag) + r" (INT|UINT|FLOAT):(in \[|>= )", flag)
            for value in values:
                with self.subTest(command=command, flag=flag, value=value):
                    p = modrec(*self.base(command), f"{flag}={value}")
                    self.assert_refused(p, 2, flag, value)
                    self.assertRegex(p.stderr, r"must be a number (in \[|>= )")
                    self.assertFalse(os.path.exists(self.ws.out()))


# The property test: valid commands, then each flag with each value of its kind. A number's or a
# choice's parser reads every path alike, and a choice's every non-choice alike: each kind gets
# the values that can tell a difference (every modrec run loads LibTorch: the suite's time).
NONSENSE = ["0", "-1", "1e308", "nan", "", "{dir}", "{device}", "{fifo}"]
NONSENSE_OF = {"INT": NONSENSE[:6], "UINT": NONSENSE[:6], "FLOAT": NONSENSE[:6],
               "{": ["0", ""]}
OUTPUT_FLAGS = ("--out", "--save-model", "--tensorboard")  # what they name may be written


def help_flags(command):
    """(flag, the values to try) of each flag of a subcommand that takes a value, from its
    --help."""
    text = subprocess.run([MODREC, command, "--help"], capture_output=True, text=True).stdout
    found = re.findall(r"^\s+(?:-\w, )?(--[\w-]+)(?:, --[\w-]+)*\s+(TEXT|INT|UINT|FLOAT|FILE|DIR|PATH|\{)",
                       text, re.M)
    return [(f, NONSENSE_OF.get(kind, NONSENSE)) for f, kind in found if f != "--help"]


class EveryFlagBoundaryAndNonsense(unittest.TestCase):
    def test_property(self):
        commands = {
            "summary": lambda ws: ("summary", ws.model, "--input", ws.input),
            "graph": lambda ws: ("graph", ws.model, "--input", ws.input),
            "record": lambda ws: ("record", ws.model, "--input", ws.input, "--layers", "all",
                                  "--out", ws.out()),
            "check": lambda ws: ("check", ws.run),
            "diff": lambda ws: ("diff", ws.run, ws.run),
            "watch": lambda ws: ("watch", ws.model, "--input", ws.input, "--loss", "sum", "--out",
                                 ws.out()),
            "report": lambda ws: ("report", ws.run, "--out", ws.out("report.html")),
            "merge": lambda ws: ("merge", ws.run, "--out", ws.out()),
        }
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            failures = [f for fs in pool.map(lambda c: self.sweep(c, commands[c]), commands)
                        for f in fs]
        self.assertEqual(failures, [], "\n".join(failures[:30]))

    @staticmethod
    def sweep(command, base):
        """Runs `command` with each of its flags set to each NONSENSE value, in a workspace of
        its own; returns what broke the rules."""
        ws = Workspace()
        failures = []
        try:
            for flag, values in help_flags(command):
                for raw in values:
                    value = raw.format(dir=ws.dir, device=ws.device, fifo=ws.fifo)
                    args = (*base(ws), f"{flag}={value}")
                    written = (ws.out(), os.path.join(ws.dir, value)) if flag in OUTPUT_FLAGS \
                        else (ws.out(),)
                    before = tree_state(ws.dir, skip=written)
                    try:
                        p = modrec(*args, cwd=ws.dir)
                    except subprocess.TimeoutExpired:
                        failures.append(f"{args}: no answer in {LIMIT_S} s")
                        continue
                    lines = p.stderr.strip().splitlines()
                    errors = [l for l in lines if l.startswith("modrec: error:")]
                    if p.returncode not in DOCUMENTED:
                        failures.append(f"{args}: exit {p.returncode}: {p.stderr[-300:]}")
                    elif "internal error" in p.stderr:
                        failures.append(f"{args}: {p.stderr[-300:]}")
                    elif p.returncode not in (0, 1) and (len(errors) != 1 or errors != lines[-1:]):
                        failures.append(f"{args}: not one error line: {p.stderr[-300:]}")
                    after = {p: h for p, h in tree_state(ws.dir, skip=written).items()
                             if p not in written}
                    before = {p: h for p, h in before.items() if p not in written}
                    if after != before:
                        changed = sorted(set(before.items()) ^ set(after.items()))
                        failures.append(f"{args}: changed {changed[:3]}")
                    for path in set(after) - set(before) | set(written[1:]):  # a clean slate
                        if os.path.isfile(path) and not os.path.islink(path):
                            os.remove(path)
                    shutil.rmtree(ws.out(), ignore_errors=True)
        finally:
            shutil.rmtree(ws.dir, ignore_errors=True)
        return failures


if __name__ == "__main__":
    main()
