"""The README's CI pipeline example (record → check → diff, jq over the JSON) runs as written."""
import os
import re
import subprocess
import tempfile
import unittest

from e2e import MODREC, ROOT, SAMPLES, main


def pipeline_block():
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    m = re.search(r"<!-- pipeline-test -->\n```sh\n(.*?)```\n<!-- /pipeline-test -->", readme, re.S)
    assert m, "README.md has no pipeline-test block"
    return m.group(1)


class ReadmePipeline(unittest.TestCase):
    def test_pipeline_runs(self):
        work = tempfile.mkdtemp(prefix="pipeline-")
        os.symlink(SAMPLES, os.path.join(work, "samples"))
        env = dict(os.environ, PATH=os.path.dirname(MODREC) + os.pathsep + os.environ["PATH"])
        env.pop("GITHUB_STEP_SUMMARY", None)
        p = subprocess.run(["bash", "-euo", "pipefail", "-c", pipeline_block()], cwd=work, env=env,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("true", p.stdout)  # check --format json | jq -e '.passed'
        conv_lines = [l for l in p.stdout.splitlines() if re.match(r"^2-\d+ [0-9.e-]+$", l)]
        self.assertEqual(len(conv_lines), 2, p.stdout)  # TinyConvNet has two Conv2d layers
        for run in ("run-a", "run-b"):
            self.assertTrue(os.path.exists(os.path.join(work, run, "manifest.json")))


if __name__ == "__main__":
    main()
