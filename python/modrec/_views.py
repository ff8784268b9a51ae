"""modrec.graph and modrec.report: the pictures of a model's calls and of a run, as `modrec
graph` and `modrec report` draw them."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Optional, Union

from . import _process
from ._arguments import InputLike, Scratch, model_flags, option_flags

PathLike = Union[str, "os.PathLike[str]"]


def graph(model: Any, input: InputLike = None, *, format: str = "json", **options: Any
          ) -> Union[dict, str]:
    """`modrec graph`: the module calls of `model` and the tensors flowing between them
    (docs/graph.md). format="json" returns the graph as a dict ({"nodes", "edges", ...});
    "dot" and "svg" return the text (svg runs Graphviz's dot). Without `input`, the static call
    structure, no shapes.

    model, input: as modrec.summary takes them. options: any other flag of `modrec graph` by
    name (depth=2, layers="features", etrecord=…)."""
    with Scratch() as scratch:
        _, out = _process.run(["graph", *model_flags(model, input, options, scratch),
                               *option_flags(dict(options, format=format), scratch)])
    return json.loads(out) if format == "json" else out


def report(run: Any, out: Optional[PathLike] = None, **options: Any) -> str:
    """`modrec report`: a recording (a modrec.Run or its directory) drawn as one self-contained
    HTML page (docs/report.md), written to `out` (an existing file raises OutputError unless
    force=True) and returned as text. out=None: the page is only returned (in a notebook,
    IPython.display.HTML(modrec.report(run)) shows it)."""
    folder = tempfile.mkdtemp(prefix="modrec-report-") if out is None else None
    target = os.path.join(folder, "report.html") if folder else os.fspath(out)
    try:
        _process.run(["report", os.fspath(run), *option_flags(dict(options, out=target))])
        with open(target, encoding="utf-8") as page:
            return page.read()
    finally:
        if folder:
            if os.path.exists(target):
                os.remove(target)
            os.rmdir(folder)
