"""modrec in the shell, run as a user runs it: the completion scripts loaded by real bash, zsh and
fish and asked to complete (every flag `--help` lists is offered); the man page made at build
time rendered by man-db's `man -l`; an unknown subcommand or flag answered with the nearest one;
every stderr line JSON under --log-format json, errors included; help without CLI11's layout
marks; progress drawn on a terminal (a pseudo-terminal here) and nowhere else; the CSV files read
by pandas without a missing value in the path column."""
import csv
import functools
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from e2e import BUILD, MODREC, SAMPLES, main, run, stderr_on_a_terminal

NET = os.path.join(SAMPLES, "TinyConvNet.pt")
NET_INPUT = os.path.join(SAMPLES, "TinyConvNet.input.pt")
COMMANDS = ["summary", "record", "check", "diff", "graph", "watch", "report", "merge", "completion"]


@functools.lru_cache(maxsize=None)
def help_flags(command=None):
    """The flag names a --help lists (each line of its options: "  -v, --verbose ...")."""
    text = run(*([command] if command else []), "--help")[0]
    names = set()
    for line in text.splitlines():
        m = re.match(r"^  (-[\w-]+(?:, -[\w-]+)*)", line)
        if m:
            names.update(m.group(1).split(", "))
    return names


def one_error_line(err):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


class Completion(unittest.TestCase):
    def bash_complete(self, words, cwd=None):
        """COMPREPLY of the script's function for the command line `words` (the last is the word
        being completed), in real bash."""
        script = ("source <(\"$MODREC\" completion bash)\n"
                  "COMP_WORDS=(" + " ".join(f"'{w}'" for w in words) + ")\n"
                  f"COMP_CWORD={len(words) - 1}\n"
                  "_modrec modrec\n"
                  "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
        p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=cwd,
                           env=dict(os.environ, MODREC=MODREC))
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        return [l for l in p.stdout.splitlines() if l]

    def test_bash_registers_the_function(self):
        p = subprocess.run(["bash", "-c", 'source <("$MODREC" completion bash); complete -p modrec'],
                           capture_output=True, text=True, env=dict(os.environ, MODREC=MODREC))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "complete -o filenames -F _modrec modrec")

    def test_bash_completes_subcommands_flags_values_and_files(self):
        self.assertEqual(self.bash_complete(["modrec", ""]), COMMANDS)
        self.assertEqual(self.bash_complete(["modrec", "su"]), ["summary"])
        self.assertEqual(self.bash_complete(["modrec", "summary", "--dep"]), ["--depth"])
        self.assertEqual(self.bash_complete(["modrec", "summary", "--format", ""]),
                         ["table", "json", "csv", "markdown"])
        self.assertEqual(self.bash_complete(["modrec", "--log-format", "j"]), ["json"])
        self.assertEqual(self.bash_complete(["modrec", "summary", "--depth", ""]), [])
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "runs"))
            open(os.path.join(d, "model.pt"), "w").close()
            self.assertEqual(sorted(self.bash_complete(["modrec", "summary", ""], cwd=d)),
                             ["model.pt", "runs"])
            self.assertEqual(self.bash_complete(["modrec", "record", "m.pt", "--out", ""], cwd=d),
                             ["runs"])  # a directory flag: directories only
            self.assertEqual(self.bash_complete(["modrec", "report", ""], cwd=d), ["runs"])

    def test_bash_offers_every_flag_help_lists(self):
        globals_ = help_flags()
        for command in COMMANDS:
            with self.subTest(command=command):
                offered = set(self.bash_complete(["modrec", command, "-"]))
                self.assertEqual(offered, help_flags(command) | globals_)

    @unittest.skipUnless(shutil.which("zsh"), "zsh is not installed (scripts/setup.sh installs it)")
    def test_zsh_loads_the_script(self):
        script = ('autoload -U compinit && compinit -u -d "$TMPDIR/zcompdump"\n'
                  'source <("$MODREC" completion zsh)\n'
                  'print -r -- $_comps[modrec]\n'
                  'functions _modrec | grep -c -- "--depth"\n')
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run(["zsh", "-f", "-c", script], capture_output=True, text=True,
                               env=dict(os.environ, MODREC=MODREC, TMPDIR=d))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        first, count = p.stdout.split()
        self.assertEqual(first, "_modrec")
        self.assertGreaterEqual(int(count), 1)
        p = subprocess.run(["zsh", "-n", "-c", run("completion", "zsh")[0]], capture_output=True,
                           text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))

    @unittest.skipUnless(shutil.which("fish"), "fish is not installed (scripts/setup.sh installs it)")
    def test_fish_completes(self):
        def complete(line):
            p = subprocess.run(["fish", "--no-config", "-c",
                                f'"$MODREC" completion fish | source; complete -C "{line}"'],
                               capture_output=True, text=True, env=dict(os.environ, MODREC=MODREC))
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            return [l.split("\t")[0] for l in p.stdout.splitlines()]
        self.assertEqual(complete("modrec su"), ["summary"])
        self.assertIn("--depth", complete("modrec summary --dep"))
        self.assertNotIn("--depth", complete("modrec record --dep"))
        self.assertEqual(sorted(complete("modrec summary --format ")),
                         ["csv", "json", "markdown", "table"])
        self.assertTrue(set(help_flags("record")) <= set(complete("modrec record -")))


class ManPage(unittest.TestCase):
    def test_built_with_the_binary_and_rendered_by_man(self):
        page = os.path.join(BUILD, "share", "man", "man1", "modrec.1")
        with open(page) as f:
            self.assertEqual(f.read(), run("--man")[0])  # the build wrote what the binary says
        p = subprocess.run(["man", "--warnings", "-l", page], capture_output=True, text=True,
                           env=dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="0"))
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        text = re.sub(r".\x08", "", p.stdout)  # no overstrike
        for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "SUBCOMMANDS", "EXIT STATUS",
                        "ENVIRONMENT"):
            self.assertRegex(text, rf"(?m)^{section}$")
        for command in COMMANDS:
            self.assertIn(f"modrec {command} [OPTIONS]", text)
        flags = set(re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", text))
        for command in COMMANDS:
            self.assertTrue(help_flags(command) - {"-h", "--help"} <= flags, command)
        for code in ("0", "1", "2", "3", "4", "5", "6", "70"):
            self.assertRegex(text, rf"(?m)^ +{code}\b")
        self.assertIn(".pte", text)


class Suggestions(unittest.TestCase):
    def test_a_misspelt_subcommand(self):
        _, err = run("sumary", code=2)
        self.assertEqual(one_error_line(err),
                         "modrec: error: unknown subcommand (sumary): did you mean 'summary'?")
        line = one_error_line(run("frobnicate", code=2)[1])
        self.assertIn("(frobnicate)", line)
        self.assertNotIn("did you mean", line)
        self.assertIn("modrec --help", line)

    def test_a_misspelt_flag(self):
        line = one_error_line(run("summary", NET, "--dept", "2", code=2)[1])
        self.assertEqual(line, "modrec: error: unknown flag (--dept): did you mean '--depth'? "
                               "see modrec summary --help")
        line = one_error_line(run("record", NET, "--layers", "all", "--captur=output", code=2)[1])
        self.assertIn("(--captur): did you mean '--capture'?", line)
        line = one_error_line(run("summary", NET, "--verbos", code=2)[1])  # a global flag
        self.assertIn("did you mean '--verbose'?", line)
        line = one_error_line(run("summary", NET, "--bogus", code=2)[1])
        self.assertNotIn("did you mean", line)


class JsonLines(unittest.TestCase):
    def lines(self, err):
        parsed = [json.loads(l) for l in err.strip().splitlines()]
        self.assertTrue(parsed)
        for p in parsed:
            self.assertEqual(set(p), {"time", "level", "message"})
        return parsed

    def test_every_error_is_a_json_line(self):
        cases = [
            (("--log-format", "json", "sumary"), 2, "did you mean 'summary'?"),
            (("summary", NET, "--depth", "-1", "--log-format", "json"), 2, "--depth"),
            (("summary", NET, "--log-format=json", "--bogus"), 2, "unknown flag (--bogus)"),
            (("--log-format", "json", "summary", os.path.join(SAMPLES, "missing.pt")), 3, "missing.pt"),
            (("--log-format", "json", "report", SAMPLES), 3, SAMPLES),
        ]
        for args, code, words in cases:
            with self.subTest(args=args):
                _, err = run(*args, code=code)
                (line,) = self.lines(err)
                self.assertEqual(line["level"], "error")
                self.assertIn(words, line["message"])
                self.assertFalse(line["message"].startswith("modrec: error"))

    def test_a_run_logs_only_json(self):
        with tempfile.TemporaryDirectory() as d:
            _, err = run("record", NET, "--input", NET_INPUT, "--layers", "all", "--out",
                         os.path.join(d, "run"), "-v", "--log-format", "json")
        levels = {l["level"] for l in self.lines(err)}
        self.assertTrue({"debug", "info"} <= levels, levels)


class Help(unittest.TestCase):
    def test_no_layout_marks(self):
        for command in [None, *COMMANDS]:
            with self.subTest(command=command):
                text = run(*([command] if command else []), "--help")[0]
                self.assertNotRegex(text, r"\(\d+x\)|\{false\}|\{true\}|TEXT:\{")
        self.assertIn("Usage: modrec report [OPTIONS] RUN_DIR [RUN_DIR]", run("report", "--help")[0])
        self.assertRegex(run("record", "--help")[0], r"(?m)^  --no-backward +forward only$")

    def test_top_level_help_names_every_model_kind(self):
        text = " ".join(run("--help")[0].split())
        for kind in (".pt,", ".pt2", "AOTInductor package", ".pte", ".safetensors", "index.json",
                     "state_dict"):
            self.assertIn(kind, text)


class ReportOut(unittest.TestCase):
    def test_an_existing_file_needs_force(self):
        with tempfile.TemporaryDirectory() as d:
            out, page = os.path.join(d, "run"), os.path.join(d, "page.html")
            run("record", NET, "--input", NET_INPUT, "--layers", "all", "--save", "none", "--out", out)
            with open(page, "w") as f:
                f.write("keep")
            line = one_error_line(run("report", out, "--out", page, code=5)[1])
            self.assertIn(page, line)
            self.assertIn("--force", line)
            with open(page) as f:
                self.assertEqual(f.read(), "keep")
            run("report", out, "--out", page, "--force")
            with open(page) as f:
                self.assertIn("<html", f.read())
            self.assertEqual(sorted(os.listdir(d)), ["page.html", "run"])  # no temporary left
            os.makedirs(os.path.join(d, "folder"))
            line = one_error_line(run("report", out, "--out", os.path.join(d, "folder"), "--force",
                                      code=5)[1])
            self.assertIn("a directory", line)


class Progress(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="progress-")
        cls.shards = []
        for k in range(2):
            shard = os.path.join(cls.dir, f"shard{k}")
            run("record", NET, "--input", NET_INPUT, "--layers", "all", "--shard", f"{k}/2",
                "--out", shard)
            cls.shards.append(shard)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_drawn_on_a_terminal_and_cleared(self):
        code, got = stderr_on_a_terminal("summary", NET)
        self.assertEqual(code, 0, got)
        self.assertIn(f"modrec: loading {NET} ...", got)
        self.assertTrue(got.endswith("\r\x1b[K"), repr(got[-80:]))  # the line cleared
        code, got = stderr_on_a_terminal("diff", NET, NET, "--input", NET_INPUT)
        self.assertEqual(code, 0, got)
        self.assertIn(f"modrec: diff: running {NET}", got)
        code, got = stderr_on_a_terminal("merge", *self.shards, "--out", os.path.join(self.dir, "merged"))
        self.assertEqual(code, 0, got)
        self.assertIn("modrec: merge: reading shards [###############...............] 1/2", got)
        self.assertIn("merge: tensors of layer calls", got)

    def test_not_drawn_elsewhere(self):
        _, err = run("merge", *self.shards, "--out", os.path.join(self.dir, "quiet"))
        self.assertNotIn("\r", err)
        for args in (("-q",), ("--log-format", "json")):
            with self.subTest(args=args):
                code, got = stderr_on_a_terminal("summary", NET, *args)
                self.assertEqual(code, 0)
                self.assertNotIn("loading", got)


class CsvInPandas(unittest.TestCase):
    """pandas reads the CSV files without a missing value where modrec wrote one: the root's path
    is "(root)" (docs/run-dir.md), every other path and the statistics as stats.json holds them."""

    def test_summary_and_stats_csv(self):
        import pandas as pd
        table = pd.read_csv(io.StringIO(run("summary", NET, "--input", NET_INPUT, "--format", "csv")[0]))
        rows = json.loads(run("summary", NET, "--input", NET_INPUT, "--format", "json")[0])["rows"]
        self.assertEqual(list(table["path"]), [r["path"] or "(root)" for r in rows])
        self.assertEqual(list(table["label"]), [r["label"] for r in rows])
        self.assertFalse(table[["label", "path", "type", "var_name"]].isna().any().any())
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "run")
            run("record", NET, "--input", NET_INPUT, "--layers", "all", "--save", "none", "--out", out)
            stats = pd.read_csv(os.path.join(out, "stats.csv"))
            with open(os.path.join(out, "stats.json")) as f:
                layers = json.load(f)["layers"]
            with open(os.path.join(out, "stats.csv"), newline="") as f:
                plain = list(csv.DictReader(f))
        self.assertEqual(len(stats), len(plain))
        self.assertFalse(stats[["label", "path", "type", "capture", "element"]].isna().any().any())
        by_label = {l["label"]: l for l in layers}
        self.assertIn("(root)", set(stats["path"]))
        for _, row in stats.iterrows():
            layer = by_label[row["label"]]
            self.assertEqual(row["path"], layer["path"] or "(root)")
            want = layer["captures"][row["capture"]][row["tensor"]]
            self.assertAlmostEqual(row["std"], want["std"], places=12)


if __name__ == "__main__":
    main()
