"""Every relative link of every tracked Markdown file leads somewhere: the file or folder exists,
and an #anchor names a heading of the target (GitHub's slugs) or an explicit HTML anchor."""
import os
import re
import subprocess
import tempfile
import unittest
import urllib.parse

from e2e import ROOT, main

FENCE = re.compile(r"^ {0,3}(```|~~~)")
# [text](target "title") and ![alt](target); the text may hold one level of brackets (badges).
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"", re.I)


def tracked_markdown():
    out = subprocess.run(["git", "ls-files", "-z", "*.md"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return [p for p in out.split("\0") if p]


def prose_lines(text):
    """The lines outside fenced code blocks, with inline code spans blanked (links in code are
    examples, not links)."""
    fenced = False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield re.sub(r"`[^`]*`", "``", line)


def slug(heading):
    """GitHub's anchor for a heading: the text as rendered (code spans' text, links' text, no
    emphasis markers), lowercased, every character but letters, digits, spaces, '-' and '_'
    dropped, spaces made '-'."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\*+", "", text)
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text):
    """The anchors a Markdown file defines: its headings' slugs (a repeated one gets -1, -2, …, as
    on GitHub) and explicit <a name|id=…>."""
    seen, out = {}, set()
    fenced = False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        out.update(HTML_ANCHOR.findall(line))
        m = HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(text):
    for number, line in enumerate(prose_lines(text), 1):
        for target in INLINE.findall(line):
            yield number, target
        m = REFERENCE.match(line)
        if m:
            yield number, m.group(1)


def broken_links(root, files):
    """'file: target: why' for every relative link in `files` (paths under `root`) that leads
    nowhere."""
    problems = []
    cache = {}

    def anchors_of(path):
        if path not in cache:
            with open(path, encoding="utf-8") as f:
                cache[path] = anchors(f.read())
        return cache[path]

    for name in files:
        source = os.path.join(root, name)
        with open(source, encoding="utf-8") as f:
            text = f.read()
        for _, target in links(text):
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # an absolute URL (https:, mailto:): not this repository's to check
            path, _, anchor = target.partition("#")
            path = urllib.parse.unquote(path)
            if not path:
                resolved = source
            elif path.startswith("/"):
                resolved = os.path.join(root, path.lstrip("/"))
            else:
                resolved = os.path.normpath(os.path.join(os.path.dirname(source), path))
            if not os.path.exists(resolved):
                problems.append(f"{name}: {target}: no such file")
            elif anchor and resolved.endswith(".md") and \
                    urllib.parse.unquote(anchor).lower() not in anchors_of(resolved):
                problems.append(f"{name}: {target}: no heading #{anchor} in "
                                f"{os.path.relpath(resolved, root)}")
    return problems


class DocsLinks(unittest.TestCase):
    def test_every_relative_link_of_the_repository_resolves(self):
        files = tracked_markdown()
        self.assertIn("README.md", files)
        self.assertIn(os.path.join("docs", "README.md"), files)
        self.assertEqual(broken_links(ROOT, files), [])

    def test_slugs_follow_githubs_rules(self):
        self.assertEqual(slug("torch.export archives (`.pt2`)"), "torchexport-archives-pt2")
        self.assertEqual(slug("Data larger than memory, and shards"),
                         "data-larger-than-memory-and-shards")
        self.assertEqual(slug("`modrec check` and `modrec diff` (CI)"),
                         "modrec-check-and-modrec-diff-ci")
        self.assertEqual(slug("FLOPs of what ran (`--columns …,flops`)"),
                         "flops-of-what-ran---columns-flops")
        self.assertEqual(anchors("# A\n## A\n```\n# not a heading\n```\n## A\n"), {"a", "a-1", "a-2"})

    def test_broken_files_and_anchors_are_found(self):
        """The checker itself: a missing file, a missing anchor (here and in another file), and
        links that only look broken inside code."""
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "docs"))
            with open(os.path.join(root, "docs", "b.md"), "w") as f:
                f.write("# B title\n\n## Part two\n")
            with open(os.path.join(root, "a.md"), "w") as f:
                f.write("# A\n[ok](docs/b.md#part-two) [ok](#a) [ok](docs/) [web](https://x.y/z)\n"
                        "[gone](docs/missing.md) [bad](docs/b.md#part-three) [self](#nowhere)\n"
                        "`[code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n"
                        "[ref]: docs/also-missing.md\n")
            self.assertEqual(broken_links(root, ["a.md", os.path.join("docs", "b.md")]), [
                "a.md: docs/missing.md: no such file",
                "a.md: docs/b.md#part-three: no heading #part-three in docs/b.md",
                "a.md: #nowhere: no heading #nowhere in a.md",
                "a.md: docs/also-missing.md: no such file",
            ])


# What marks a source file as using LibTorch's internal API (what a LibTorch upgrade touches):
# headers outside LibTorch's public C++ API, and internal types reached through public ones.
INTERNAL_INCLUDE = re.compile(r"^#include <(torch/csrc/|ATen/core/dispatch/|caffe2/serialize/|"
                              r"ATen/record_function\.h|torch/library\.h)", re.M)
INTERNAL_NAME = re.compile(r"\b(TensorImpl|unsafeGetTensorImpl|ivalue::Object|toObjectRef|"
                           r"PyTorchStreamReader|ReadAdapterInterface|RecordFunction)\b")


def files_using_libtorch_internals():
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "lib", "app"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    found = set()
    for path in out:
        if not path.endswith((".cpp", ".h")) or path.endswith("_test.cpp"):
            continue
        with open(os.path.join(ROOT, path)) as f:
            text = re.sub(r"//.*", "", f.read())  # comments may name anything
        if INTERNAL_INCLUDE.search(text) or INTERNAL_NAME.search(text):
            found.add(os.path.splitext(path)[0])  # a .h and its .cpp are one place
    return sorted(found)


class LibTorchInternalsListed(unittest.TestCase):
    """docs/how-it-works.md lists every file that uses LibTorch's internal API, derived here from
    the tree itself, so that the list cannot drift from the code (issue 46)."""

    def test_every_such_file_is_named(self):
        with open(os.path.join(ROOT, "docs", "how-it-works.md")) as f:
            doc = f.read()
        files = files_using_libtorch_internals()
        self.assertGreater(len(files), 10)  # the derivation itself works
        missing = [f for f in files if f"`{f}.cpp`" not in doc and f"`{f}.h`" not in doc]
        self.assertEqual(missing, [], "name them in docs/how-it-works.md's list")


if __name__ == "__main__":
    main()
